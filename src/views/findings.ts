/**
 * The checker's findings in words, the one description every output uses (the playground's
 * verdict panel and badges, the runner, the bug report, the embeds): which bucket a finding
 * falls in, its label, the counts, the order they are listed in, and which are notable.
 *
 * Every finding falls in exactly one bucket:
 *   - `error`: a MUST or MUST NOT broken; `warning`: a SHOULD or SHOULD NOT not followed;
 *   - `race`: info — an open point of the spec (violated, info), or a race the spec allows (a
 *     MUST or SHOULD rule judged info because of timing, with witnesses);
 *   - `satisfied` (the descriptive info rules, which every cancel satisfies, land here too),
 *     `cannot-tell`, `not-applicable`.
 * The first three are notable: they get badges, notes in the diagrams, lines in the report.
 */
import { clauseFor, ruleById, type Finding } from '../rules/index.ts';
import type { Scenario } from '../scenario/index.ts';
import { grouped, plural } from '../trace/index.ts';

/** What the findings are judged against: the rules of the run's revision and transport. */
export type FindingSetting = Pick<Scenario, 'revision' | 'transport'>;

export type FindingBucket = 'error' | 'warning' | 'race' | 'satisfied' | 'cannot-tell' | 'not-applicable';

/** The order findings are listed in, and counted in. */
export const FINDING_BUCKETS: readonly FindingBucket[] = ['error', 'warning', 'race', 'satisfied', 'cannot-tell', 'not-applicable'];

/** How a notable finding is marked: its colour and sign in badges and diagram notes. */
export type FindingTone = 'error' | 'warning' | 'info';

export const TONE_MARK: Record<FindingTone, string> = { error: '✖', warning: '⚠', info: 'ℹ' };

export function findingBucket(f: Finding, setting: FindingSetting): FindingBucket {
  if (f.verdict === 'violated') return f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'race';
  if (f.verdict === 'cannot-tell' || f.verdict === 'not-applicable') return f.verdict;
  return isAllowedRace(f, setting) ? 'race' : 'satisfied';
}

/** A MUST/SHOULD rule judged info because of timing: satisfied, info, with witnesses, and not an info rule. */
function isAllowedRace(f: Finding, setting: FindingSetting): boolean {
  if (f.severity !== 'info' || f.verdict !== 'satisfied' || f.witnesses.length === 0) return false;
  const rule = ruleById(f.rule);
  return rule !== undefined && clauseFor(rule, setting.revision, setting.transport)?.keyword !== 'info';
}

/** A finding worth a badge, a diagram note, a line in the bug report. */
export function isNotable(f: Finding, setting: FindingSetting): boolean {
  const bucket = findingBucket(f, setting);
  return bucket === 'error' || bucket === 'warning' || bucket === 'race';
}

/** The tone of a finding's badge: its severity when violated, else info. */
export function findingTone(f: Finding): FindingTone {
  return f.verdict === 'violated' ? f.severity : 'info';
}

/** A finding's label, as every output prints it. */
export function findingLabel(f: Finding, setting: FindingSetting): string {
  const bucket = findingBucket(f, setting);
  if (bucket === 'race') return f.verdict === 'violated' ? 'open point' : 'allowed race';
  return BUCKET_LABEL[bucket];
}

const BUCKET_LABEL: Record<Exclude<FindingBucket, 'race'>, string> = {
  error: 'MUST broken',
  warning: 'SHOULD not followed',
  satisfied: 'satisfied',
  'cannot-tell': 'can’t tell',
  'not-applicable': 'not applicable',
};

/** The findings in listing order: errors, warnings, races, then the rest; the checker's order within each. */
export function sortFindings(findings: readonly Finding[], setting: FindingSetting): Finding[] {
  const rank = (f: Finding): number => FINDING_BUCKETS.indexOf(findingBucket(f, setting));
  return findings
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ f }) => f);
}

export interface FindingSummary {
  /** How many findings fall in each bucket; they add up to `total`. */
  counts: Readonly<Record<FindingBucket, number>>;
  total: number;
  /** The notable findings, in listing order. */
  notable: readonly Finding[];
  /** A MUST or MUST NOT is broken (the runner exits 1). */
  mustBroken: boolean;
  /** The counts in one line. */
  text: string;
}

export function findingSummary(findings: readonly Finding[], setting: FindingSetting): FindingSummary {
  const counts: Record<FindingBucket, number> = { error: 0, warning: 0, race: 0, satisfied: 0, 'cannot-tell': 0, 'not-applicable': 0 };
  for (const f of findings) counts[findingBucket(f, setting)]++;
  const text = [
    `${plural(counts.error, 'error')} (MUST broken)`,
    `${plural(counts.warning, 'warning')} (SHOULD not followed)`,
    `${plural(counts.race, 'allowed race or open point', 'allowed races and open points')} (info)`,
    `${plural(counts.satisfied, 'rule')} satisfied`,
    `${grouped(counts['cannot-tell'])} can’t tell from this trace`,
    `${grouped(counts['not-applicable'])} not applicable`,
  ].join(' · ');
  return {
    counts,
    total: findings.length,
    notable: sortFindings(findings, setting).filter((f) => isNotable(f, setting)),
    mustBroken: counts.error > 0,
    text,
  };
}

/** A notable finding's badge on a wire row that witnesses it. */
export interface FindingBadge {
  /** `${tone}:${rule}`: one badge per tone and rule on a row. */
  key: string;
  tone: FindingTone;
  rule: string;
  text: string;
  title: string;
}

/** The badges of the notable findings, by the trace position (`seq`) of each witness. */
export function findingBadges(findings: readonly Finding[], setting: FindingSetting): Map<number, FindingBadge[]> {
  const bySeq = new Map<number, FindingBadge[]>();
  for (const f of findings) {
    if (!isNotable(f, setting)) continue;
    const tone = findingTone(f);
    const badge: FindingBadge = { key: `${tone}:${f.rule}`, tone, rule: f.rule, text: `${TONE_MARK[tone]} ${f.rule}`, title: `${tone}: ${f.rule}` };
    for (const seq of f.witnesses) {
      const list = bySeq.get(seq) ?? [];
      if (!list.some((b) => b.key === badge.key)) list.push(badge);
      bySeq.set(seq, list);
    }
  }
  return bySeq;
}

/** A notable finding as a note in a sequence diagram (the shape `sequenceDiagram` takes); notes go by their witnesses, in the checker's order. */
export interface FindingNote {
  witnesses: readonly number[];
  rule: string;
  severity: FindingTone;
}

export function findingNotes(findings: readonly Finding[], setting: FindingSetting): FindingNote[] {
  return findings
    .filter((f) => isNotable(f, setting))
    .map((f) => ({ witnesses: f.witnesses, rule: f.rule, severity: findingTone(f) }));
}
