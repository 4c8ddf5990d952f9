// Node entry (worker_threads) of one lane of the explorer's pool (src/explore/pool.ts): whole
// schedules run here, both sides in this thread (src/host/in-thread.ts) and their coordinator too.
import { parentOfThread } from './thread-start.node.ts';

const parent = parentOfThread('explore.node.ts');
// Imported once the compile cache is on (thread-start.node.ts says why).
const [{ serveSchedules }, { createNodeSides }, { nodePort }] = await Promise.all([
  import('../src/explore/index.ts'),
  import('../src/host/index.ts'),
  import('./side-channel.ts'),
]);
serveSchedules(nodePort(parent), createNodeSides());
