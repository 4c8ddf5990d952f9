/**
 * The report layer: what leaves the lab as a document — the bug report (Markdown), the
 * checks.json export, and the rule reference page's data (with the library scenario that breaks each rule, for its links).
 */
export { GITHUB_BODY_LIMIT, bugReport, type BugReportInput } from './bug-report.ts';
export { runChecksJson, statusOf, toChecks, toChecksJson, type CheckStatus, type ConformanceCheck, type SpecReference } from './checks-json.ts';
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
