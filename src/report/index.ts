/**
 * The report layer: what leaves the lab as a document — the bug report (Markdown), the formats
 * a CI reads (checks.json, JUnit XML, SARIF), the open points of the spec that findings cite,
 * and the rule reference page's data (with the library scenario that breaks each rule, for its links).
 */
export { GITHUB_BODY_LIMIT, bugReport, type BugReportInput } from './bug-report.ts';
export {
  outcomeChecks,
  runChecksJson,
  statusOf,
  toChecks,
  toChecksJson,
  type CheckOptions,
  type CheckStatus,
  type ConformanceCheck,
  type SpecReference,
} from './checks-json.ts';
export { toJunitXml, type JunitOptions } from './junit.ts';
export { toSarif, type SarifOptions } from './sarif.ts';
export { OPEN_POINTS, OPEN_POINTS_PATH, citedOpenPoints, linkOpenPoints, openPointHref } from './open-points.ts';
export { RUN_CHECK, type RunOutcome, type RunProblem } from './run-outcome.ts';
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
