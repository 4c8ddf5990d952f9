/**
 * The figures of issue 17 §2 that bench.ts does not measure itself (bench.ts prints them):
 *   - a fresh pair of sides in a fresh process, both in its thread or each in a worker thread
 *     (the modules of the sides loaded by that first pair), from createNodeSides() until the
 *     standard run's trace is back, and its floor: an empty pair of worker threads;
 *   - the command line's whole process for a library scenario, the README's way (`npx
 *     cancel-lab run …`) and its launcher started directly, wall time and peak resident memory
 *     (GNU time's maximum resident set, where there is one), each next to its floor measured the
 *     same way: npx of a no-op bin in a tiny package, and Node running an empty file;
 *   - every library scenario run in this thread against its recorded trace hash.
 * The child process of the first is this file itself, with `--fresh-pair`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { setUpProcessFor } from '../bin/short-process.mjs';
import { createNodeSides, runHeadless } from '../src/host/index.ts';
import { defaultScenario, parseScenario, type Scenario } from '../src/scenario/index.ts';
import { traceHash } from '../src/trace/index.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const GNU_TIME = '/usr/bin/time';
export const CLI_SCENARIO = 'content/scenarios/race-r1-cancel-after-response.json';

/** The standard scenario of bench.ts: slow_count {5, 100} at 20, Stop at 240. */
export function standardScenario(): Scenario {
  const s = defaultScenario();
  s.steps = [
    { at: 20, action: { type: 'call', call: 'A', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
    { at: 240, action: { type: 'stop', call: 'A' } },
  ];
  return s;
}

interface FreshPair {
  /** Wall ms from createNodeSides() until the trace is back. */
  ms: number;
  /** CPU ms of the process meanwhile (all its threads): what a loaded machine does not inflate. */
  cpuMs: number;
}

/** Where a fresh pair's code comes from: the TypeScript source (stripped as it loads), or the bundle the command line runs (dist-cli/host.mjs). */
export type PairCode = 'source' | 'bundle';
/** Where a fresh pair's sides run: both in the process's thread (in-thread.ts), or each in a worker thread of its own, as in a browser. */
export type PairPlace = 'in-thread' | 'threads';

const BUNDLED_HOST = `${ROOT}dist-cli/host.mjs`;

/** In the child: the first pair of this process and its first run, on stdout. */
async function freshPairChild(code: PairCode, place: PairPlace): Promise<void> {
  let host: Pick<typeof import('../src/host/index.ts'), 'createNodeSides' | 'runHeadless'> = { createNodeSides, runHeadless };
  if (code === 'bundle') {
    // As the launcher (bin/cancel-lab.mjs) starts the bundle: with V8's compile cache, which
    // worker threads of the bundle's then turn on too (workers/thread-start.node.ts); and for the
    // pair in this thread, `run`'s, set up for a short process as `run` is (V8's flags and zod's
    // setting, bin/short-process.mjs). Not for a pair of threads, which `run` does not start:
    // those flags made its start 35 ms slower (193 against 160 ms, medians of 8 processes each).
    if (place === 'in-thread') setUpProcessFor('run');
    module.enableCompileCache?.();
    host = (await import(pathToFileURL(BUNDLED_HOST).href)) as typeof host;
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const sides = host.createNodeSides({ threads: place === 'threads' });
  await host.runHeadless(standardScenario(), sides);
  const cpu = process.cpuUsage(cpu0);
  const figure: FreshPair = { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
  await sides.close();
  process.stdout.write(`${JSON.stringify(figure)}\n`);
}

/** The first pair and run of `n` fresh processes (process start-up not included), after one untimed (file caches, the compile cache). */
export async function freshPair(n: number, code: PairCode, place: PairPlace): Promise<FreshPair[] | null> {
  if (code === 'bundle' && !existsSync(BUNDLED_HOST)) return null;
  const samples: FreshPair[] = [];
  for (let i = 0; i < n + 1; i++) {
    const { stdout } = await run(process.execPath, [fileURLToPath(import.meta.url), '--fresh-pair', code, place], { cwd: ROOT });
    if (i === 0) continue;
    samples.push(JSON.parse(stdout) as FreshPair);
  }
  return samples;
}

/**
 * The floor under a fresh worker pair: two worker threads of an empty module, from their
 * creation until both have posted a message, in this process. Node's own start of a thread
 * (its bootstrap, before any of our code) is all it holds.
 */
export async function emptyWorkerPair(n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n + 1; i++) {
    const t0 = performance.now();
    const pair = [0, 1].map(() => new Worker("require('node:worker_threads').parentPort.postMessage(0)", { eval: true }));
    await Promise.all(pair.map((w) => new Promise((resolve) => w.once('message', resolve))));
    if (i > 0) samples.push(performance.now() - t0);
    await Promise.all(pair.map((w) => w.terminate()));
  }
  return samples;
}

export interface ProcessFigure {
  wallMs: number;
  /** Peak resident memory of the largest process, KiB (GNU time), or null without GNU time. */
  peakKiB: number | null;
}

/** Wall time and peak memory of `command` in `cwd`, run `n` times after one warm-up (file caches). */
async function timeProcess(command: string, args: string[], n: number, cwd = ROOT): Promise<ProcessFigure[]> {
  const gnu = existsSync(GNU_TIME);
  const figures: ProcessFigure[] = [];
  for (let i = 0; i < n + 1; i++) {
    const t0 = performance.now();
    // Exit 1 is a verdict (a MUST broken), not a failure: the output is not what is measured.
    const result = await run(gnu ? GNU_TIME : command, gnu ? ['-f', '%M', command, ...args] : args, { cwd }).catch(
      (error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }),
    );
    const wallMs = performance.now() - t0;
    const peak = gnu ? Number(result.stderr.trim().split('\n').at(-1)) : NaN;
    if (i > 0) figures.push({ wallMs, peakKiB: Number.isFinite(peak) ? peak : null });
  }
  return figures;
}

export interface CliFigures {
  npx: ProcessFigure[];
  /** `npx noop` in a package of nothing but a no-op bin, linked as ours is: what npm costs before our launcher starts. */
  npxFloor: ProcessFigure[];
  launcher: ProcessFigure[];
  /** This Node running an empty file: what any launcher costs before it loads anything. */
  nodeFloor: ProcessFigure[];
}

/**
 * npm's floor: npx of a no-op bin in a tiny package, linked in its node_modules/.bin the way
 * `npm install` links cancel-lab's (scripts/link-bin.ts), so that npx runs it at once; in a
 * folder of the system's temporary one made for it and removed after.
 */
async function npxFloor(n: number): Promise<ProcessFigure[]> {
  const dir = join(tmpdir(), 'cancel-lab-npx-floor');
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
  try {
    await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'npx-floor', version: '1.0.0', private: true })}\n`);
    await writeFile(join(dir, 'noop.mjs'), '#!/usr/bin/env node\n');
    await chmod(join(dir, 'noop.mjs'), 0o755);
    await symlink('../../noop.mjs', join(dir, 'node_modules', '.bin', 'noop'));
    return await timeProcess('npx', ['noop'], n, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `npx cancel-lab run <library scenario>` and the launcher alone on this Node, after building
 * the bundle they load (scripts/build-cli.ts), so that neither falls back to the source; and
 * the floor of each, measured the same way.
 */
export async function measureCli(n: number): Promise<CliFigures> {
  await run(process.execPath, [fileURLToPath(new URL('build-cli.ts', import.meta.url))], { cwd: ROOT });
  const npx = await timeProcess('npx', ['cancel-lab', 'run', CLI_SCENARIO], n);
  const floor = await npxFloor(n);
  const launcher = await timeProcess(process.execPath, ['bin/cancel-lab.mjs', 'run', CLI_SCENARIO], n);
  const empty = join(tmpdir(), `cancel-lab-node-floor-${process.pid}.mjs`);
  await writeFile(empty, '');
  try {
    return { npx, npxFloor: floor, launcher, nodeFloor: await timeProcess(process.execPath, [empty], n) };
  } finally {
    await rm(empty, { force: true });
  }
}

/** Library scenarios run on this thread's sides whose trace hash is the recorded one, of all. */
export async function libraryReproduces(): Promise<{ same: number; all: number; first: string | null }> {
  const dir = new URL('../content/scenarios/', import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const sides = createNodeSides();
  let same = 0;
  let first: string | null = null;
  try {
    for (const file of files) {
      const entry = JSON.parse(await readFile(new URL(file, dir), 'utf8')) as { scenario: unknown; trace: unknown };
      const parsed = parseScenario(entry.scenario);
      const hash = parsed.ok ? await traceHash(await runHeadless(parsed.scenario, sides)) : null;
      if (hash === entry.trace) same++;
      else first ??= file;
    }
  } finally {
    await sides.close();
  }
  return { same, all: files.length, first };
}

const pairAt = process.argv.indexOf('--fresh-pair');
if (pairAt >= 0) await freshPairChild(process.argv[pairAt + 1] === 'bundle' ? 'bundle' : 'source', process.argv[pairAt + 2] === 'threads' ? 'threads' : 'in-thread');
