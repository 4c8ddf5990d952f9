/**
 * The report layer: what leaves the lab as a document — the bug report (Markdown), the
 * checks.json export, what an embedded scenario renders at build time, and the rule reference
 * page's data (with the library scenario that breaks each rule, for its links).
 */
export { bugReport, type BugReportInput } from './bug-report.ts';
export { runChecksJson, statusOf, toChecks, toChecksJson, type CheckStatus, type ConformanceCheck, type SpecReference } from './checks-json.ts';
export { embedOutcome, type EmbedOutcome } from './embed-render.ts';
/** Kept for the static embed, which lists each call with it; the views layer owns it. */
export { describeCall } from '../views/index.ts';
export {
  REVISIONS,
  compactDiff,
  keywordLabel,
  quoteHtml,
  ruleSections,
  sourceLabel,
  transportList,
  type Cell,
  type Change,
  type RuleView,
  type WordDiffPart,
} from './rule-reference.ts';
