/**
 * A worker thread that runs whole schedules for the explorer (workers/explore.node.ts: both
 * sides and the coordinator in it, src/explore/pool.ts the protocol), as the channel the
 * explorer's pooled lane drives. The shape is the explorer's PoolWorker; this layer only starts
 * and ends the thread.
 */
import { describe, startThread } from './node.ts';

export interface ExploreWorker {
  postMessage(message: unknown): void;
  listen(handler: (message: unknown) => void): void;
  onDeath(handler: (why: string) => void): void;
  terminate(): Promise<void>;
}

export function startExploreWorker(): ExploreWorker {
  const worker = startThread('explore');
  let died: ((why: string) => void) | null = null;
  let why: string | null = null;
  // Listened to from the start: a worker's error with no listener would take the process down.
  const death = (reason: string): void => {
    if (why !== null) return;
    why = reason;
    died?.(reason);
  };
  worker.once('error', (error) => death(describe(error)));
  worker.once('exit', (code) => death(`it exited with code ${code}`));
  return {
    postMessage: (message) => worker.postMessage(message),
    listen: (handler) => void worker.on('message', handler),
    onDeath(handler) {
      died = handler;
      if (why !== null) handler(why);
    },
    async terminate() {
      await worker.terminate();
    },
  };
}
