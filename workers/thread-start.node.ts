/**
 * How a Node worker thread of the headless host starts (client.node.ts, server.node.ts,
 * explore.node.ts). V8's compile cache, which the launcher turns on (bin/cancel-lab.mjs), is
 * the process's and not its threads': without it each thread compiles its megabyte of bundled
 * JavaScript again (a server thread's import took 87–139 ms so, and 67–73 ms from the cache). So the parent (startThread in
 * src/host/node.ts) says in `workerData` whether its cache is on, and the thread turns its own
 * on before it loads the side, which its entry imports dynamically for that reason: a static
 * import is compiled before any line of the entry runs.
 */
import module from 'node:module';
import type { MessagePort } from 'node:worker_threads';

/** What the parent passes as a thread's `workerData`. */
export interface ThreadStart {
  compileCache: boolean;
}

/** For the parent: its own compile cache's state, to pass on. */
export function threadStart(): ThreadStart {
  return { compileCache: module.getCompileCacheDir?.() !== undefined };
}

/** For the thread: its port to the parent, once the parent's compile cache is on here too. */
export function parentOfThread(entry: string): MessagePort {
  // Taken here, not imported: the parent's host imports this module too, for threadStart, and
  // need not load worker_threads until it starts a thread (startThread in src/host/node.ts).
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  if (!parentPort) throw new Error(`${entry} must run in a worker thread`);
  if ((workerData as Partial<ThreadStart> | null)?.compileCache === true) module.enableCompileCache?.();
  return parentPort;
}
