/** The trace layer. */
export * from './events.ts';
export * from './hash.ts';
export * from './http-frames.ts';
export * from './http-status.ts';
export * from './trace-index.ts';
