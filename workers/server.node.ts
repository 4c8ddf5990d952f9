// Node entry (worker_threads): the same side as in the browser, for headless runs in worker threads.
import { parentOfThread } from './thread-start.node.ts';

const parent = parentOfThread('server.node.ts');
// Imported once the compile cache is on (thread-start.node.ts says why).
const [{ serverSide }, { withBatches }, { exposeSide, nodePort }] = await Promise.all([import('./server-side.ts'), import('./runtime.ts'), import('./side-channel.ts')]);
exposeSide(withBatches(serverSide), nodePort(parent));
