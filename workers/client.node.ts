// Node entry (worker_threads): the same side as in the browser, for headless runs.
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { clientSide } from './client-side.ts';
import { withBatches } from './runtime.ts';

if (!parentPort) throw new Error('client.node.ts must run in a worker thread');
Comlink.expose(withBatches(clientSide), nodeEndpoint(parentPort));
