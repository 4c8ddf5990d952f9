/** The report layer. */
export * from './bug-report.ts';
export * from './checks-json.ts';
export * from './embed-render.ts';
export * from './rule-reference.ts';
