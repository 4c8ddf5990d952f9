/**
 * Headless host: the same two sides as in the browser, each in a Node worker thread, driven
 * by the same coordinator. Every run gets fresh workers, so no state leaks between runs.
 */
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { Run } from '../coordinator.ts';
import type { Scenario } from '../scenario.ts';
import type { ClientSideApi, ServerSideApi } from '../side-protocol.ts';
import type { TraceEvent } from '../trace.ts';

export interface NodeSession {
  run: Run;
  close(): Promise<void>;
}

export async function startNodeRun(scenario: Scenario): Promise<NodeSession> {
  const clientWorker = new Worker(new URL('../../workers/client.node.ts', import.meta.url));
  const serverWorker = new Worker(new URL('../../workers/server.node.ts', import.meta.url));
  const client = Comlink.wrap<ClientSideApi>(nodeEndpoint(clientWorker));
  const server = Comlink.wrap<ServerSideApi>(nodeEndpoint(serverWorker));
  const close = async (): Promise<void> => {
    client[Comlink.releaseProxy]();
    server[Comlink.releaseProxy]();
    await Promise.all([clientWorker.terminate(), serverWorker.terminate()]);
  };
  try {
    return { run: await Run.start(scenario, { client, server }), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs a scenario to its end in fresh workers and returns the trace. */
export async function runHeadless(scenario: Scenario): Promise<TraceEvent[]> {
  const session = await startNodeRun(scenario);
  try {
    await session.run.runToEnd();
    return session.run.trace;
  } finally {
    await session.close();
  }
}
