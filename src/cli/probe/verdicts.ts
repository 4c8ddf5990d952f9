/**
 * The probe's verdicts: the recorded trace judged by the same checker as `check`, plus what the
 * probe saw that a trace from outside cannot show, and each check's status from the findings
 * that fall in it.
 *
 * The checker judges an observed trace for what the wire shows; two rules it leaves to "can't
 * tell" or misses, the probe sees for itself:
 *   - CANCEL-RACE-GRACEFUL: the probe watched the server's process and made a follow-up call
 *     after each check, so a server that a cancel takes down (it exits, closes the connection
 *     or fails the next call) is a finding, violated, and one that comes through every check is
 *     satisfied;
 *   - STDIO-FRAMING: a line on stdout that is not JSON is a note in the trace (the stdio-log
 *     importer keeps such lines as notes), so the probe reports them itself.
 * The cancels the probe writes on purpose are set aside by the checker itself, since the trace
 * names the probe as its recorder (src/rules/probe-trace.ts), as they are under `check`.
 */
import { SERVER_EXIT_NOTE, type Finding } from '../../rules/index.ts';
import type { Revision, TransportKind } from '../../scenario/index.ts';
import type { TraceEvent } from '../../trace/index.ts';
import { findingTone, isNotable, type FindingTone } from '../../views/index.ts';
import type { CheckRun } from './battery.ts';
import { NOT_JSON } from './stdio-transport.ts';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'info' | 'not-run' | 'incomplete' | 'missed';

export interface CheckVerdict {
  run: CheckRun;
  status: CheckStatus;
  /** The notable findings that fall in this check (a witness among its frames), worst first. */
  findings: Finding[];
}

/** The frame number each frame event's `seq` stands for (a delivery stands for its frame). */
function frameOfSeq(trace: readonly TraceEvent[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of trace) if (e.kind === 'frame' || e.kind === 'delivery') out.set(e.seq, e.frame);
  return out;
}

function seqsOfFrames(trace: readonly TraceEvent[], [from, to]: [number, number]): number[] {
  return trace.filter((e) => e.kind === 'frame' && e.frame >= from && e.frame < to).map((e) => e.seq);
}

/** Replaces the rule's findings from the checker with the probe's own, keeping the catalog's order and the rule's severity. */
function replace(findings: Finding[], rule: string, own: (severity: Finding['severity']) => Finding[]): Finding[] {
  const at = findings.findIndex((f) => f.rule === rule);
  const first = findings[at];
  if (first === undefined || first.verdict === 'not-applicable') return findings;
  const mine = own(first.severity);
  if (mine.length === 0) return findings;
  return [...findings.slice(0, at), ...mine, ...findings.slice(at).filter((f) => f.rule !== rule)];
}

/** The note of the server's process exit after `after` (a seq), when there is one. */
function exitNote(trace: readonly TraceEvent[], after: number): TraceEvent | undefined {
  return trace.find((e) => e.kind === 'observed' && e.what === 'note' && e.seq > after && e.text.startsWith(SERVER_EXIT_NOTE));
}

function graceful(trace: readonly TraceEvent[], runs: readonly CheckRun[], severity: Finding['severity']): Finding[] {
  const ran = runs.filter((r) => r.frames !== null);
  if (ran.length === 0) return [];
  const down = ran.filter((r) => r.took === 'down' || r.followUp === 'failed');
  if (down.length === 0) {
    const made = ran.filter((r) => r.followUp === 'answered').length;
    if (made === 0) return [];
    return [{ rule: 'CANCEL-RACE-GRACEFUL', severity, verdict: 'satisfied', witnesses: [], why: `Seen by the probe: the server stayed up through ${made === 1 ? 'its check' : `all ${made} checks`}, and the follow-up call after each was answered.` }];
  }
  return down.map((r): Finding => {
    const frames = r.frames ? seqsOfFrames(trace, r.frames) : [];
    const exit = r.took === 'down' ? exitNote(trace, frames[0] ?? 0) : undefined;
    const seqs = [...frames, ...(exit ? [exit.seq] : [])];
    const how = r.took === 'down' ? `the server went: ${r.wentBecause ?? 'it stopped answering'}` : 'the server stayed up but the follow-up call failed';
    return { rule: 'CANCEL-RACE-GRACEFUL', severity, verdict: 'violated', witnesses: seqs, why: `Seen by the probe in "${r.title}": ${how}, so it did not come through the cancel gracefully.` };
  });
}

function framing(trace: readonly TraceEvent[], severity: Finding['severity']): Finding[] {
  const notes = trace.filter((e) => e.kind === 'observed' && e.what === 'note' && e.text.includes(NOT_JSON));
  const first = notes[0];
  if (first === undefined || first.kind !== 'observed') return [];
  const line = first.text.slice(first.text.indexOf(NOT_JSON) + NOT_JSON.length).trim();
  return [
    {
      rule: 'STDIO-FRAMING',
      severity,
      verdict: 'violated',
      witnesses: notes.slice(0, 20).map((n) => n.seq),
      why: `Seen by the probe: the server wrote ${notes.length === 1 ? 'a line' : `${notes.length} lines`} to stdout that ${notes.length === 1 ? 'is' : 'are'} not JSON-RPC (the first: ${JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)}); the trace keeps ${notes.length === 1 ? 'it as a note' : 'them as notes'}.`,
    },
  ];
}

/** The checker's findings with the probe's own in place of the rules it saw for itself. */
export function probeFindings(checked: Finding[], trace: readonly TraceEvent[], runs: readonly CheckRun[], transport: TransportKind): Finding[] {
  let out = replace(checked, 'CANCEL-RACE-GRACEFUL', (severity) => graceful(trace, runs, severity));
  if (transport === 'stdio') out = replace(out, 'STDIO-FRAMING', (severity) => framing(trace, severity));
  return out;
}

const RANK: Record<FindingTone, number> = { error: 0, warning: 1, info: 2 };
const STATUS: Record<FindingTone, CheckStatus> = { error: 'fail', warning: 'warn', info: 'info' };

/** Each check's status: the worst notable finding with a witness among its frames. */
export function checkVerdicts(findings: readonly Finding[], trace: readonly TraceEvent[], runs: readonly CheckRun[], setting: { revision: Revision; transport: TransportKind }): CheckVerdict[] {
  const frameOf = frameOfSeq(trace);
  return runs.map((run): CheckVerdict => {
    const range = run.frames;
    if (range === null) return { run, status: 'not-run', findings: [] };
    const inside = (f: Finding): boolean =>
      f.witnesses.some((w) => {
        const frame = frameOf.get(w);
        return frame !== undefined && frame >= range[0] && frame < range[1];
      });
    const mine = findings.filter((f) => isNotable(f, setting) && inside(f)).sort((a, b) => RANK[findingTone(a)] - RANK[findingTone(b)]);
    const worst = mine[0];
    const status = worst !== undefined ? STATUS[findingTone(worst)] : 'pass';
    // A check that did not get to what it tests has no pass to give.
    const unfinished = run.stuck !== null ? 'incomplete' : run.missed !== null ? 'missed' : null;
    return { run, status: unfinished !== null && status === 'pass' ? unfinished : status, findings: mine };
  });
}
