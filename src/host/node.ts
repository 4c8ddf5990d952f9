/**
 * Headless host: the same two sides as in the browser, each in a Node worker thread, driven
 * by the same coordinator. A pair of workers serves any number of runs, one at a time; each
 * run starts from a reset clock and fresh SDK objects.
 */
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { Run, type Sides } from '../engine/index.ts';
import type { Scenario } from '../scenario/index.ts';
import type { ClientSideApi, ServerSideApi } from '../engine/index.ts';
import type { TraceEvent } from '../trace/index.ts';

export interface NodeSides extends Sides {
  close(): Promise<void>;
}

export interface NodeSidesOptions {
  /** The project folder holding workers/ (default: found from this module's own location). */
  root?: URL;
  /** Let the process exit while these workers are idle (a site build that renders embeds). */
  unref?: boolean;
}

export function createNodeSides(options: NodeSidesOptions = {}): NodeSides {
  const root = options.root ?? new URL('../../', import.meta.url);
  const clientWorker = new Worker(new URL('workers/client.node.ts', root));
  const serverWorker = new Worker(new URL('workers/server.node.ts', root));
  if (options.unref) {
    clientWorker.unref();
    serverWorker.unref();
  }
  const client = Comlink.wrap<ClientSideApi>(nodeEndpoint(clientWorker));
  const server = Comlink.wrap<ServerSideApi>(nodeEndpoint(serverWorker));
  return {
    client,
    server,
    async close() {
      client[Comlink.releaseProxy]();
      server[Comlink.releaseProxy]();
      await Promise.all([clientWorker.terminate(), serverWorker.terminate()]);
    },
  };
}

/**
 * Runs a scenario to its end and returns the trace. Pass `sides` to reuse warm workers;
 * without them the run gets its own pair and closes it afterwards.
 */
export async function runHeadless(scenario: Scenario, sides?: Sides): Promise<TraceEvent[]> {
  const own = sides ? null : createNodeSides();
  try {
    const run = await Run.start(scenario, own ?? (sides as Sides));
    await run.runToEnd();
    return run.trace;
  } finally {
    await own?.close();
  }
}
