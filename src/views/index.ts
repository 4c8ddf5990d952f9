/** The views layer. */
export * from './derive.ts';
