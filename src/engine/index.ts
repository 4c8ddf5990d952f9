/** The engine layer. */
export * from './run.ts';
export * from './side-protocol.ts';
