/** The machines layer: the lifecycle tables as data, and the one function that steps them. */
import { clientRequestMachine } from './client-request.ts';
import { connectionMachine } from './connection.ts';
import { serverHandlerMachine } from './server-handler.ts';

export * from './client-request.ts';
export * from './connection.ts';
export * from './machine.ts';
export * from './server-handler.ts';

/** Every lifecycle table the engine steps (the diagrams and the coverage test list them from here). */
export const LIFECYCLE_TABLES = [clientRequestMachine, serverHandlerMachine, connectionMachine] as const;
