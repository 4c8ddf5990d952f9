// Browser entry: the page (through the coordinator) drives this side with Comlink.
import * as Comlink from 'comlink';
import { clientSide } from './client-side.ts';
import { withBatches } from './runtime.ts';

Comlink.expose(withBatches(clientSide));
