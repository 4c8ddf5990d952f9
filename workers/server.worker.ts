// Browser entry: the page (through the coordinator) drives this side with Comlink.
import * as Comlink from 'comlink';
import { serverSide } from './server-side.ts';

Comlink.expose(serverSide);
