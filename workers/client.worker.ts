// Browser entry: the page (through the coordinator) drives this side over side-channel.ts.
import { clientSide } from './client-side.ts';
import { withBatches } from './runtime.ts';
import { exposeSide, webPort } from './side-channel.ts';

exposeSide(withBatches(clientSide), webPort(self));
