/** The views layer. */
export * from './derive.ts';
export * from './run-view.ts';
