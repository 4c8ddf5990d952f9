// Browser entry: the page (through the coordinator) drives this side with Comlink.
import * as Comlink from 'comlink';
import { serverSide } from './server-side.ts';
import { withBatches } from './runtime.ts';

Comlink.expose(withBatches(serverSide));
