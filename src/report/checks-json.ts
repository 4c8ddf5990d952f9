/**
 * Findings in the shape of the MCP conformance suite's `checks.json`, so that results look
 * familiar to SDK authors: one check per finding, with the rule's name and description, a
 * status, the spec references (the quote's lines at the pinned commit) and the details.
 *
 * Status: not applicable or can't tell → SKIPPED; an info finding (a race the spec allows, an
 * ambiguity, a descriptive rule) → INFO; violated error → FAILURE; violated warning → WARNING;
 * satisfied → SUCCESS. The conformance suite requires a timestamp
 * (https://github.com/modelcontextprotocol/conformance/blob/c321dd32035556e6769d3724a8ee97d87c3faaac/src/types.ts#L17-L33):
 * the time the run started when one is passed (the runner does), else now. A finding that rests
 * on an open point of the spec (U-n) references its section of the open-points page too.
 */
import type { Revision, Scenario } from '../scenario/index.ts';
import { CATALOG, clauseFor, type Finding, type Rule, type TransportKind } from '../rules/index.ts';
import { citedOpenPoints, openPointHref } from './open-points.ts';
import { RUN_CHECK, type RunOutcome } from './run-outcome.ts';

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

export interface SpecReference {
  id: string;
  url: string;
}

export interface CheckOptions {
  /** ISO 8601; now by default. */
  timestamp?: string;
  /** The site's address, for the open-points links (relative to the site's root without it). */
  site?: string;
}

export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: CheckStatus;
  timestamp: string;
  specReferences: SpecReference[];
  details: Record<string, unknown>;
  errorMessage?: string;
}

export function statusOf(finding: Finding): CheckStatus {
  if (finding.verdict === 'not-applicable' || finding.verdict === 'cannot-tell') return 'SKIPPED';
  if (finding.severity === 'info') return 'INFO';
  if (finding.verdict === 'satisfied') return 'SUCCESS';
  return finding.severity === 'error' ? 'FAILURE' : 'WARNING';
}

/**
 * One check per finding, in the findings' order. A rule with several findings numbers them
 * (`CANCEL-NO-RESPONSE#1`, `#2`, …); a rule with one keeps its bare id.
 */
export function toChecks(
  catalog: readonly Rule[],
  revision: Revision,
  transport: TransportKind,
  findings: readonly Finding[],
  options: CheckOptions = {},
): ConformanceCheck[] {
  const timestamp = options.timestamp ?? new Date().toISOString();
  const rules = new Map(catalog.map((rule) => [rule.id, rule]));
  const total = new Map<string, number>();
  for (const f of findings) total.set(f.rule, (total.get(f.rule) ?? 0) + 1);
  const seen = new Map<string, number>();
  return findings.map((finding): ConformanceCheck => {
    const n = (seen.get(finding.rule) ?? 0) + 1;
    seen.set(finding.rule, n);
    const rule = rules.get(finding.rule);
    const clause = rule ? clauseFor(rule, revision, transport) : undefined;
    const quotes = clause ? [clause, ...(clause.also ?? [])] : [];
    const status = statusOf(finding);
    return {
      id: (total.get(finding.rule) ?? 0) > 1 ? `${finding.rule}#${n}` : finding.rule,
      name: rule?.name ?? finding.rule,
      description: rule?.description ?? '',
      status,
      timestamp,
      specReferences: [
        ...quotes.map((q) => ({
          id: `MCP ${q.source.repo === 'modelcontextprotocol/ext-tasks' ? 'ext-tasks' : revision} ${q.source.path}:${q.source.lines[0]}-${q.source.lines[1]}`,
          url: q.source.url,
        })),
        ...citedOpenPoints(finding.why).map((id) => ({ id: `MCP Cancel Lab open point ${id}`, url: openPointHref(id, options.site) })),
      ],
      details: {
        verdict: finding.verdict,
        severity: finding.severity,
        revision,
        transport,
        ...(clause && { keyword: clause.keyword, quote: clause.quote }),
        witnesses: finding.witnesses,
        why: finding.why,
      },
      ...((status === 'FAILURE' || status === 'WARNING') && { errorMessage: finding.why }),
    };
  });
}

/** `toChecks` as the JSON text of a checks.json file. */
export function toChecksJson(
  catalog: readonly Rule[],
  revision: Revision,
  transport: TransportKind,
  findings: readonly Finding[],
  options: CheckOptions = {},
): string {
  return `${JSON.stringify(toChecks(catalog, revision, transport, findings, options), null, 2)}\n`;
}

/** The checks.json file of a run: its findings against the catalog's rules for its revision and transport. */
export function runChecksJson(setting: Pick<Scenario, 'revision' | 'transport'>, findings: readonly Finding[], options: CheckOptions = {}): string {
  return toChecksJson(CATALOG, setting.revision, setting.transport, findings, options);
}

/**
 * A judged run's checks: one per finding, and the run's own check when something kept it from
 * a plain verdict (bad input, a run that could not complete, a client that never connected).
 */
export function outcomeChecks(outcome: RunOutcome, options: Pick<CheckOptions, 'site'> = {}): ConformanceCheck[] {
  const checks = outcome.setting ? toChecks(CATALOG, outcome.setting.revision, outcome.setting.transport, outcome.findings, { ...options, timestamp: outcome.timestamp }) : [];
  if (outcome.problem === null) return checks;
  const problem: ConformanceCheck = {
    ...RUN_CHECK,
    status: 'FAILURE',
    timestamp: outcome.timestamp,
    specReferences: [],
    details: { problem: outcome.problem.kind, exitCode: outcome.problem.exitCode },
    errorMessage: outcome.problem.message,
  };
  return [problem, ...checks];
}
