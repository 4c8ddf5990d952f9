/**
 * Browser host: both sides in one Web Worker (workers/sides.worker.ts), and their coordinator
 * with them. The playground's run is played there, and the page drives it over the worker's
 * own port (remote-run.ts); each lane of the explorer's pool is such a worker too, running whole
 * schedules. The MCP traffic itself never crosses to the page: it travels as frames between the
 * sides, through the coordinator, in the worker.
 */
import { webPort, withFirst } from '../../workers/side-channel.ts';
import { EXPLORE_LANE_WORKER, RUN_WORKER } from '../../workers/worker-names.ts';
import { prestartCommands } from '../../workers/first-run.ts';
import type { PoolWorker } from '../../src/explore/index.ts';
import { RunChannel } from './remote-run.ts';

/** A sides worker that plays the page's runs, on its own port. */
export interface RunWorker {
  worker: Worker;
  /** Started under FRESH_RUN_WORKER by the head script: the worker plays the fresh run's first commands (prestartCommands) by itself. */
  fresh?: boolean;
  /** What the worker said before the page's code listened, kept by the head script: a worker's messages with no listener are lost. */
  held?: unknown[];
  /** Set by the head script when the worker failed before the page's code took it. */
  failed?: string;
}

export interface BrowserRunner {
  channel: RunChannel;
  terminate(): void;
}

declare global {
  interface Window {
    /** The worker the playground page started from its head (playground.astro), until the first session takes it. */
    __cancelLabEarlyWorkers?: RunWorker;
  }
}

/** A sides worker that serves what its name says (workers/worker-names.ts). */
function sidesWorker(name: string): Worker {
  return new Worker(new URL('../../workers/sides.worker.ts', import.meta.url), { type: 'module', name });
}

/** The worker the page started early (playground.astro) if no session took it yet, else a new one. */
export function createBrowserRunner(): BrowserRunner {
  const early = window.__cancelLabEarlyWorkers;
  delete window.__cancelLabEarlyWorkers;
  const { worker, fresh, held = [], failed } = early ?? { worker: sidesWorker(RUN_WORKER) };
  // What the head script kept goes first; its keeping ends in this same turn, so nothing comes between.
  const channel = new RunChannel(withFirst(webPort(worker), held), fresh === true ? prestartCommands() : []);
  worker.onmessage = null;
  // A worker that fails to load (or throws at the top) answers nothing: its runs fail, saying why.
  const lost = (why: string): void => channel.fail(new Error(`the sides' worker failed: ${why}`));
  if (failed !== undefined) lost(failed);
  worker.addEventListener('error', (event) => lost(event.message || 'its script did not load'));
  return {
    channel,
    terminate() {
      channel.fail(new Error('the sides were stopped'));
      worker.terminate();
    },
  };
}

/**
 * A fresh sides worker that runs whole schedules for a lane of the explorer's pool (PooledLane,
 * src/explore/pool.ts): the coordinator is in the worker too, so a schedule costs the page two
 * small messages, not a round trip per step.
 */
export function startExploreWorker(): PoolWorker {
  const worker = sidesWorker(EXPLORE_LANE_WORKER);
  const port = webPort(worker);
  return {
    postMessage: (message) => port.postMessage(message),
    listen: (handler) => port.listen(handler),
    onDeath(handler) {
      worker.addEventListener('error', (event) => handler(event.message || 'its script did not load'), { once: true });
    },
    terminate() {
      worker.terminate();
      return Promise.resolve();
    },
  };
}
