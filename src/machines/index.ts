/** The machines layer. */
export * from './client-request.ts';
export * from './connection.ts';
export * from './machine.ts';
export * from './server-handler.ts';
