/**
 * Judged runs as JUnit XML, the report format every CI reads: a `<testsuite>` per scenario, a
 * `<testcase>` per rule the checker judges (of the revision the run negotiated), a `<failure>`
 * for a violated MUST or SHOULD (its `type` says which; only MUST sets the exit code), `<skipped>`
 * for a rule that did not apply or could not be told, and the run's own testcase when the run
 * did not give a verdict: a `<failure>` when the client never connected, an `<error>` for bad
 * input or a run that could not complete.
 *
 * Written by hand: the project has no runtime dependency that writes XML (the XML libraries in
 * node_modules come with a test-only reader), and the format is small. Every string goes
 * through `xmlText`/`xmlAttr`, which escape markup and replace what XML 1.0 cannot hold.
 */
import { clauseFor, ruleById, type Finding } from '../rules/index.ts';
import { linkOpenPoints } from './open-points.ts';
import { RUN_CHECK, type RunOutcome } from './run-outcome.ts';

export interface JunitOptions {
  /** The site's address, for the open-points links. */
  site?: string;
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]; a lone
// surrogate is not a character either. Anything else becomes U+FFFD.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function xmlText(s: string): string {
  return s.replace(NOT_XML_CHAR, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value in double quotes; tabs and line breaks as references, since a parser would turn them into spaces. */
function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
}

type CaseResult = { kind: 'pass' } | { kind: 'skipped'; message: string } | { kind: 'failure' | 'error'; type: string; message: string; body: string };

interface Case {
  name: string;
  result: CaseResult;
}

/** One rule's findings as one testcase. */
function ruleCase(outcome: RunOutcome, rule: string, findings: readonly Finding[], options: JunitOptions): Case {
  const known = ruleById(rule);
  const name = known ? `${rule}: ${known.name}` : rule;
  const violated = findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
  const first = violated[0];
  if (first !== undefined) {
    const setting = outcome.setting;
    const clause = known && setting ? clauseFor(known, setting.revision, setting.transport) : undefined;
    const must = violated.some((f) => f.severity === 'error');
    const lines = [
      ...violated.map((f) => `${f.severity === 'error' ? 'MUST broken' : 'SHOULD not followed'}: ${f.why}${f.witnesses.length ? ` [events ${f.witnesses.map((w) => `#${w}`).join(' ')}]` : ''}`),
      ...(clause ? ['', `${clause.keyword}: ${clause.quote}`, clause.source.url] : []),
    ];
    const body = linkOpenPoints(lines.join('\n'), (id, href) => `${id} (${href})`, options.site);
    return { name, result: { kind: 'failure', type: must ? 'MUST' : 'SHOULD', message: first.why, body } };
  }
  if (findings.every((f) => f.verdict === 'not-applicable' || f.verdict === 'cannot-tell')) {
    return { name, result: { kind: 'skipped', message: findings.some((f) => f.verdict === 'cannot-tell') ? 'cannot tell from this trace' : 'not applicable to this run' } };
  }
  return { name, result: { kind: 'pass' } };
}

function casesOf(outcome: RunOutcome, options: JunitOptions): Case[] {
  const byRule = new Map<string, Finding[]>();
  for (const f of outcome.findings) {
    // A rule the checker cannot judge from a trace is no test: the rule reference says why.
    if (ruleById(f.rule)?.judged === false) continue;
    const list = byRule.get(f.rule);
    if (list) list.push(f);
    else byRule.set(f.rule, [f]);
  }
  const cases = [...byRule].map(([rule, findings]) => ruleCase(outcome, rule, findings, options));
  const problem = outcome.problem;
  if (problem === null) return cases;
  const result: CaseResult = { kind: problem.exitCode === 1 ? 'failure' : 'error', type: problem.kind, message: problem.message, body: problem.message };
  return [{ name: `${RUN_CHECK.id}: ${RUN_CHECK.name}`, result }, ...cases];
}

function caseXml(suite: string, c: Case): string[] {
  const open = `    <testcase${attrs({ classname: suite, name: c.name })}`;
  const r = c.result;
  if (r.kind === 'pass') return [`${open}/>`];
  if (r.kind === 'skipped') return [`${open}>`, `      <skipped${attrs({ message: r.message })}/>`, '    </testcase>'];
  return [`${open}>`, `      <${r.kind}${attrs({ type: r.type, message: r.message })}>${xmlText(r.body)}</${r.kind}>`, '    </testcase>'];
}

function count(cases: readonly Case[], kind: CaseResult['kind']): number {
  return cases.filter((c) => c.result.kind === kind).length;
}

/** The JUnit XML document of one or more judged runs. */
export function toJunitXml(outcomes: readonly RunOutcome[], options: JunitOptions = {}): string {
  const suites = outcomes.map((o) => ({ outcome: o, cases: casesOf(o, options) }));
  const all = suites.flatMap((s) => s.cases);
  const totals = (cases: readonly Case[]) => ({ tests: cases.length, failures: count(cases, 'failure'), errors: count(cases, 'error'), skipped: count(cases, 'skipped') });
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${attrs({ name: 'cancel-lab', ...totals(all) })}>`];
  for (const { outcome, cases } of suites) {
    const props = outcome.setting ? { revision: outcome.setting.revision, transport: outcome.setting.transport } : {};
    lines.push(`  <testsuite${attrs({ name: outcome.name, ...totals(cases), timestamp: outcome.timestamp })}>`);
    lines.push('    <properties>', ...Object.entries({ ...props, exitCode: outcome.exitCode }).map(([name, value]) => `      <property${attrs({ name, value })}/>`), '    </properties>');
    lines.push(...cases.flatMap((c) => caseXml(outcome.name, c)), '  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
