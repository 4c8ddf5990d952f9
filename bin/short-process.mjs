// What cancel-lab's launcher (cancel-lab.mjs) sets up for a process that lives well under a
// second: `run`, `check`, `export`, `probe`; not `explore`, whose search keeps the CPU busy for
// seconds and earns back every compile it pays for. None of it changes what the code does, only
// how much of it is compiled and when, so traces stay byte-identical (tests/unit/cli-bundle.test.ts
// runs the library through the launcher against the recorded hashes). The benchmark's fresh pair
// of sides in this thread from the bundle, `run`'s, is set up the same way (scripts/bench-speed.ts).
import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings, measured on `run` of a library scenario, and of the library's folder (87
 * scenarios, about a second):
 *   --max-opt=2                  no Turbofan, Maglev at most: Turbofan's compile jobs cost a
 *                                run this short 7 MiB of peak memory and give no time back (the
 *                                folder takes 0.90 s of CPU without them, 1.04 s with);
 *   --semi-space-growth-factor=1 the young generation keeps its first size instead of doubling
 *                                towards 16 MiB: 5 MiB less for one scenario, 20 MiB for the
 *                                folder, and its scavenges stay cheap.
 * A scenario near the engine's bounds (slow_count of 2,000 steps, half a second) takes about the
 * same CPU with both (0.59 s against 0.57 s) and peaks at 96 MiB instead of 140.
 */
const V8_FLAGS = ['--max-opt=2', '--semi-space-growth-factor=1'];

/**
 * Zod's `jitless` setting: zod then parses without compiling a fast path for each object schema
 * (`new Function`) the first time it parses with it. A short process parses dozens of the SDK's
 * schemas and the tools' once or a few times each, so that compiling was a fifth of its first
 * run: a fresh pair of sides and its first run in this thread, from the bundle, took a median
 * 82 ms without it against 89 ms with it (ten processes each, alternating). A long search keeps
 * the compiled parsers: without them a warm run allocates 12% more (424 against 379 KB), and took
 * 4% longer over 3,000 runs (six processes each). Zod keeps its settings in one object on
 * globalThis, shared by every copy of zod in the process, and reads this one as each schema is
 * built, which is as the modules that hold them load: so it is set before the bundle is imported.
 */
const ZOD_CONFIG = { jitless: true };

/** Is `command` one whose process lives well under a second? */
function isShortProcess(command) {
  return command !== 'explore';
}

/** Sets this process up for `command`; call before anything of the command line's is imported. */
export function setUpProcessFor(command) {
  if (!isShortProcess(command)) return;
  // Both are read when V8 tiers code up and grows its heap, which has barely begun here.
  setFlagsFromString(V8_FLAGS.join(' '));
  Object.assign((globalThis.__zod_globalConfig ??= {}), ZOD_CONFIG);
}
