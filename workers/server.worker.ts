// Browser entry: the page (through the coordinator) drives this side over side-channel.ts.
import { serverSide } from './server-side.ts';
import { withBatches } from './runtime.ts';
import { exposeSide, webPort } from './side-channel.ts';

exposeSide(withBatches(serverSide), webPort(self));
