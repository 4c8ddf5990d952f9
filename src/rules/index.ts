/** The rules layer. */
export * from './catalog.ts';
export * from './checker.ts';
export * from './check-run.ts';
