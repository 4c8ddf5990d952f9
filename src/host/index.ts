/** The host layer. */
export * from './node.ts';
