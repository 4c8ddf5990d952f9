// Node entry (worker_threads): the same side as in the browser, for headless runs in worker threads.
import { parentPort } from 'node:worker_threads';
import { serverSide } from './server-side.ts';
import { withBatches } from './runtime.ts';
import { exposeSide, nodePort } from './side-channel.ts';

if (!parentPort) throw new Error('server.node.ts must run in a worker thread');
exposeSide(withBatches(serverSide), nodePort(parentPort));
