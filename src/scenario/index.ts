/** The scenario layer. */
export * from './combinations.ts';
export * from './json-schema.ts';
export * from './library.ts';
export * from './model.ts';
export * from './permalink.ts';
export * from './profiles.ts';
export * from './schema.ts';
export * from './tools.ts';
export * from './versions.ts';
