/**
 * Headless host: the same two sides as in the browser, driven by the same coordinator: both in
 * this thread (in-thread.ts), or each in a Node worker thread. A pair serves any number of
 * runs, one at a time; each run starts from a reset clock and fresh SDK objects.
 */
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { nodePort, sideOver } from '../../workers/side-channel.ts';
import { threadStart } from '../../workers/thread-start.node.ts';
import { Run, wrapSteps, type RunOptions, type Sides } from '../engine/index.ts';
import type { Scenario } from '../scenario/index.ts';
import type { ClientSideApi, ServerSideApi } from '../engine/index.ts';
import type { TraceEvent } from '../trace/index.ts';
import { takeThreadSides } from './in-thread.ts';

/** Both sides; a pair of worker threads answers batches too (workers/runtime.ts withBatches), a pair in this thread does not. */
export interface NodeSides extends Sides {
  close(): Promise<void>;
}

export interface NodeSidesOptions {
  /**
   * Each side in a worker thread of its own, as in a browser. Without it (and without `root` or
   * `unref`, which are about workers) both sides run in this thread when its pair is free
   * (in-thread.ts): the same trace, without a worker's start-up and messaging.
   */
  threads?: boolean;
  /** The project folder holding workers/ (default: found from this module's own location). */
  root?: URL;
  /** Let the process exit while these workers are idle (a site build that renders embeds). */
  unref?: boolean;
}

/** An error cloned out of a worker: a DOMException (an AbortError) keeps only its stack. */
export function describe(error: Error): string {
  return error.message !== '' ? error.message : (error.stack?.split('\n')[0] ?? String(error));
}

/**
 * Rejects once the worker has died (an uncaught error in it, or an exit). Every call to a side
 * races it: the channel would otherwise wait for an answer that never comes, and a worker's error
 * with no listener would take the whole process down.
 */
function deathOf(worker: Worker, name: string): <T>(call: Promise<T>) => Promise<T> {
  const died = new Promise<never>((_, reject) => {
    worker.once('error', (error) => reject(new Error(`the ${name} worker died: ${describe(error)}`)));
    worker.once('exit', (code) => reject(new Error(`the ${name} worker exited with code ${code}`)));
  });
  // Nobody may be waiting when it dies; the next call reads the rejection.
  died.catch(() => undefined);
  return (call) => Promise.race([call, died]);
}

/** The folder holding workers/: two up from src/host/, or one up from the command line's bundle in dist-cli/ (scripts/build-cli.ts). */
export function projectRoot(): URL {
  const fromSource = new URL('../../', import.meta.url);
  return existsSync(new URL('workers/client.node.ts', fromSource)) ? fromSource : new URL('../', import.meta.url);
}

export function createNodeSides(options: NodeSidesOptions = {}): NodeSides {
  const inThread = options.threads === true || options.root !== undefined || options.unref === true ? null : takeThreadSides();
  return inThread ?? workerSides(options);
}

/**
 * Starts one of the headless host's worker threads (a side, or a lane of the explorer's pool),
 * as thread-start.node.ts expects it. In the CLI bundle (scripts/build-cli.ts) the bundled
 * entries sit beside this code, in dist-cli/, and the thread then loads plain JavaScript that
 * V8's compile cache keeps, instead of type-stripping the SDK's and our modules at every start;
 * run from the source, or given a `root` (a site build, a test with a folder of its own), it
 * loads the TypeScript entry.
 */
export function startThread(entry: 'client' | 'server' | 'explore', root?: URL): Worker {
  const bundled = new URL(`./${entry}.node.mjs`, import.meta.url);
  const url = root === undefined && existsSync(bundled) ? bundled : new URL(`workers/${entry}.node.ts`, root ?? projectRoot());
  // Node's worker_threads is loaded by the first thread started, not with this module: a
  // command that runs both sides in its own thread (`run`) never starts one.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  return new Worker(url, { workerData: threadStart() });
}

function workerSides(options: NodeSidesOptions): NodeSides {
  const clientWorker = startThread('client', options.root);
  const serverWorker = startThread('server', options.root);
  if (options.unref) {
    clientWorker.unref();
    serverWorker.unref();
  }
  // The workers answer `batch` too (workers/runtime.ts withBatches).
  const client: Required<ClientSideApi> = sideOver(nodePort(clientWorker));
  const server: Required<ServerSideApi> = sideOver(nodePort(serverWorker));
  const c = deathOf(clientWorker, 'client');
  const sv = deathOf(serverWorker, 'server');
  return {
    client: wrapSteps(client, (step) => c(step())),
    server: wrapSteps(server, (step) => sv(step())),
    async close() {
      await Promise.all([clientWorker.terminate(), serverWorker.terminate()]);
    },
  };
}

/**
 * Runs a scenario to its end, or to the bound it reaches, and returns the trace (`haltOf`
 * reads from it why it ended early). Pass `sides` to reuse warm workers; without them the run
 * gets its own pair and closes it afterwards. After a halt on a side (`side-busy`,
 * `side-failed`) those workers may be stuck or gone: make new ones.
 */
export async function runHeadless(scenario: Scenario, sides?: Sides, options: RunOptions = {}): Promise<TraceEvent[]> {
  if (sides) return runOn(scenario, sides, options);
  const own = createNodeSides();
  try {
    return await runOn(scenario, own, options);
  } finally {
    await own.close();
  }
}

async function runOn(scenario: Scenario, sides: Sides, options: RunOptions): Promise<TraceEvent[]> {
  const run = await Run.start(scenario, sides, options);
  await run.runToEnd();
  return run.trace;
}
