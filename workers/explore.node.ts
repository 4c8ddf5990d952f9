// Node entry (worker_threads) of one lane of the explorer's pool (src/explore/pool.ts): whole
// schedules run here, both sides in this thread (src/host/in-thread.ts) and their coordinator too.
import { parentPort } from 'node:worker_threads';
import { serveSchedules } from '../src/explore/index.ts';
import { createNodeSides } from '../src/host/index.ts';
import { nodePort } from './side-channel.ts';

if (!parentPort) throw new Error('explore.node.ts must run in a worker thread');
serveSchedules(nodePort(parentPort), createNodeSides());
