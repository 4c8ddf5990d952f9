/** The diagrams layer. */
export * from './sequence-diagram.ts';
export * from './state-diagram.ts';
