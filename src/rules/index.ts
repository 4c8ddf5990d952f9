/**
 * The rules layer's public surface: the catalog of rules (with the lookups the docs, the
 * playground and the reports use) and `checkRun`, the one way to judge a run's trace, with the
 * findings it gives and `violatedRules`, what a library file records.
 */
export { CATALOG, ruleById } from './catalog.ts';
export { clauseFor, ruleTransports } from './catalog/rule.ts';
export type { Clause, Keyword, Rule, Section, SpecQuote, SpecSource, TransportKind } from './catalog/rule.ts';
export { checkRun, judgedRevision, violatedRules } from './check-run.ts';
export type { Finding } from './checker.ts';
export { SERVER_EXIT_NOTE } from './probe-trace.ts';
