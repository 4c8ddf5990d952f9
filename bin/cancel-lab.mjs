#!/usr/bin/env node
// cancel-lab's launcher. It runs the command line in this Node when it can: the JavaScript
// bundle in dist-cli/ (scripts/build-cli.ts; `npm install` builds it) while none of the files
// that went into it changed since, else the TypeScript source, which Node strips of its types
// from 22.18 on. An older Node (the system's, say) hands over to the one `npm install` puts in
// node_modules/node (the `node` devDependency), passing on the arguments and the exit status.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// Plain paths, not file: URLs: statting some 250 files by URL costs this process 6 MiB more.
const root = fileURLToPath(new URL('../', import.meta.url));
const source = `${root}src/cli/main.ts`;
const bundle = `${root}dist-cli/main.mjs`;

/** Is the bundle there, and older than every project file that went into it? */
function bundleIsFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(`${root}dist-cli/inputs.json`, 'utf8'));
    return existsSync(bundle) && inputs.every((file) => statSync(`${root}${file}`).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

/**
 * V8 settings for a process that lives well under a second (`run`, `check`, `export`, `probe`;
 * not `explore`, whose search keeps the CPU busy for seconds and earns back what Turbofan
 * costs). Neither changes what the code does, only when V8 optimises and how much memory it
 * keeps, so traces stay byte-identical. Measured on `run` of a library scenario, and of the
 * library's folder (87 scenarios, about a second):
 *   --max-opt=2                  no Turbofan, Maglev at most: Turbofan's compile jobs cost a
 *                                run this short 7 MiB of peak memory and give no time back (the
 *                                folder takes 0.90 s of CPU without them, 1.04 s with);
 *   --semi-space-growth-factor=1 the young generation keeps its first size instead of doubling
 *                                towards 16 MiB: 5 MiB less for one scenario, 20 MiB for the
 *                                folder, and its scavenges stay cheap.
 * A scenario near the engine's bounds (slow_count of 2,000 steps, half a second) takes about the
 * same CPU with both (0.59 s against 0.57 s) and peaks at 96 MiB instead of 140.
 */
function v8FlagsFor(command) {
  return command === 'explore' ? [] : ['--max-opt=2', '--semi-space-growth-factor=1'];
}

const main = bundleIsFresh() ? bundle : source;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const flags = v8FlagsFor(process.argv[2]);

if (major > 22 || (major === 22 && minor >= 18)) {
  // Both are read when V8 tiers code up and grows its heap, which has barely begun here.
  setFlagsFromString(flags.join(' '));
  // V8's compiled code for the bundle, kept between runs (in the system's temporary folder):
  // later starts skip compiling its JavaScript, about 2 MB for `run`.
  module.enableCompileCache?.();
  await import(pathToFileURL(main).href);
} else {
  const bundled = `${root}node_modules/node/bin/node`;
  if (!existsSync(bundled)) {
    console.error(`cancel-lab: needs Node >= 22.18 (this is ${process.version}); run "npm install" in the project folder to get it in node_modules/node.`);
    process.exit(2);
  }
  const child = spawn(bundled, [...flags, main, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child too (same process group); let it finish and report its status.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`cancel-lab: could not start ${bundled}: ${error.message}`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
}
