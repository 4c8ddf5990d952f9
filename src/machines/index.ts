/** The machines layer: the lifecycle tables as data, and the one function that steps them. */
import { clientHandlerMachine } from './client-handler.ts';
import { clientRequestMachine } from './client-request.ts';
import { connectionMachine } from './connection.ts';
import { serverHandlerMachine } from './server-handler.ts';
import { serverRequestMachine } from './server-request.ts';

export * from './client-handler.ts';
export * from './client-request.ts';
export * from './connection.ts';
export * from './machine.ts';
export * from './server-handler.ts';
export * from './server-request.ts';

/**
 * Every lifecycle table the engine steps (the diagrams and the coverage test list them from
 * here): a request each way, from its sender's side and its receiver's, and the connection.
 */
export const LIFECYCLE_TABLES = [clientRequestMachine, serverHandlerMachine, serverRequestMachine, clientHandlerMachine, connectionMachine] as const;
