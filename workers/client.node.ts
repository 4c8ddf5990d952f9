// Node entry (worker_threads): the same side as in the browser, for headless runs in worker threads.
import { parentOfThread } from './thread-start.node.ts';

const parent = parentOfThread('client.node.ts');
// Imported once the compile cache is on (thread-start.node.ts says why).
const [{ clientSide }, { withBatches }, { exposeSide, nodePort }] = await Promise.all([import('./client-side.ts'), import('./runtime.ts'), import('./side-channel.ts')]);
exposeSide(withBatches(clientSide), nodePort(parent));
