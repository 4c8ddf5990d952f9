/**
 * The trace checker: a pure function from (catalog, revision, transport, trace) to findings.
 *
 * It is re-run on the growing trace, so it keeps no state: one pass builds the trace index
 * (src/trace/trace-index.ts: requests, responses, cancels, stream closes, progress, task
 * statuses, handler notes, client states), then each judged rule's judge (judges/, one file per
 * section of the catalog) walks the index, looking things up through maps.
 * That is linear in the trace for the lab's traces (about 25 ms for 6,000 events in Node).
 *
 * What a side "wrote" is judged, so the index leaves out a wire fault's copy of a frame
 * (`fault: 'duplicated'`) and a stdio end-of-stream; a delivery that reached nobody (`dropped`)
 * is no delivery. Forged frames (`injected`) are judged like the side's own, since they stand
 * for a misbehaving peer, and every sentence that names one says "forged"; a forged response
 * does not complete a request on the side that did not write it. Ids match within a
 * connection (a reconnect starts a new session).
 *
 * Findings. Every rule of the catalog yields at least one finding:
 * - not on this revision or transport: `not-applicable` (severity info);
 * - not judged (the catalog says why): `cannot-tell`;
 * - on a trace observed from outside (an import), a rule that needs what only the lab's own
 *   sides record (its judge's `inside`): `cannot-tell`, saying so;
 * - judged: one finding per subject (a cancel, a late response, a Stop, a progress
 *   notification that breaks a rule…). A rule with nothing to judge in the trace gives one
 *   `satisfied` finding with no witnesses (TIMEOUT-CANCEL gives `cannot-tell`: no timeout seen).
 *   Rules over many messages (ids, framing, progress) report only departures, and one
 *   `satisfied` summary when there are none.
 *
 * Severity. MUST / MUST NOT → error, SHOULD / SHOULD NOT → warning, MAY / descriptive → info,
 * taken from the clause that governs the revision and transport. A finding that rests on a
 * race the spec allows (R1, R2 with the response already on the wire, R3, R11) or on one of
 * the digest's §8 ambiguities (U-1 … U-14) is always `info`, never an error.
 *
 * Verdict. `violated` means the trace goes against the words of the rule; with severity info
 * that is a point the spec leaves open (a duplicate cancel, U-9). `satisfied` means the trace
 * keeps the rule, or departs from its letter only in a way the spec allows (a race: info).
 *
 * Witnesses are the `seq` numbers, ascending, of the fewest events that show the finding:
 * usually the frames (wire-log rows) involved plus the delivery event that proves what one
 * side had received and when. For example, a response after a cancel: [the cancel frame, its
 * delivery to the receiver, the response frame].
 *
 * Time. Order is by `seq` (the trace is appended in time order, ties broken by the
 * coordinator). "The server answered after it received the cancel" means the response frame
 * comes after the cancel's delivery event; one written before that delivery was already
 * decided when the cancel arrived (a race).
 */
import type { Revision } from '../scenario/index.ts';
import { indexTrace, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import { clauseFor, severityOf, type Rule, type Severity, type TransportKind } from './catalog/rule.ts';
import { JUDGES } from './judges/index.ts';

/** How a finding on an imported trace says that the rule needs what only the lab's own sides see. */
const OUTSIDE_PREFIX = 'Can’t tell from this trace';

export type Verdict = 'violated' | 'satisfied' | 'not-applicable' | 'cannot-tell';

export interface Finding {
  /** The rule's id in the catalog. */
  rule: string;
  severity: Severity;
  verdict: Verdict;
  /** `seq` of the trace events that show it, ascending. */
  witnesses: number[];
  /** One sentence. */
  why: string;
}

/** Witnesses as a finding shows them: known, once each, ascending. */
function tidy(witnesses: readonly (number | undefined)[]): number[] {
  return [...new Set(witnesses.filter((w): w is number => w !== undefined))].sort((a, b) => a - b);
}

/**
 * Judges `trace` against every rule of `catalog` for a run on `revision` over `transport`.
 * Pure: the same arguments give the same findings, in catalog order, each rule's findings by
 * their first witness. `idx` is the trace's index when the caller has built it already (the run
 * view indexes each trace once for all its parts); it must be `indexTrace(trace)`.
 */
export function check(
  catalog: readonly Rule[],
  revision: Revision,
  transport: TransportKind,
  trace: readonly TraceEvent[],
  idx: TraceIndex = indexTrace(trace),
): Finding[] {
  const findings: Finding[] = [];
  for (const rule of catalog) {
    const clause = clauseFor(rule, revision, transport);
    if (!clause) {
      findings.push({
        rule: rule.id,
        severity: 'info',
        verdict: 'not-applicable',
        witnesses: [],
        why: rule.revisions[revision]
          ? `The rule does not apply on ${transport} in ${revision}.`
          : `The rule is not part of revision ${revision}.`,
      });
      continue;
    }
    const severity = severityOf(clause.keyword);
    if (!rule.judged) {
      findings.push({ rule: rule.id, severity, verdict: 'cannot-tell', witnesses: [], why: `Not judged: ${rule.reason}` });
      continue;
    }
    const judge = JUDGES[rule.id];
    if (judge.inside !== undefined && idx.outside) {
      findings.push({ rule: rule.id, severity, verdict: 'cannot-tell', witnesses: [], why: `${OUTSIDE_PREFIX}: it was observed from outside the lab's sides, and this rule needs ${judge.inside}.` });
      continue;
    }
    const drafts = judge.judge({ revision, transport, idx, trace });
    if (drafts.length === 0) {
      findings.push({ rule: rule.id, severity, verdict: judge.nothingVerdict ?? 'satisfied', witnesses: [], why: judge.nothing });
      continue;
    }
    const mine = drafts.map(
      (d): Finding => ({ rule: rule.id, severity: d.severity ?? severity, verdict: d.verdict, witnesses: tidy(d.witnesses), why: d.why }),
    );
    mine.sort((a, b) => (a.witnesses[0] ?? -1) - (b.witnesses[0] ?? -1) || (a.witnesses.at(-1) ?? -1) - (b.witnesses.at(-1) ?? -1));
    findings.push(...mine);
  }
  return findings;
}
