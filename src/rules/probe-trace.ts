/**
 * What the checker's findings mean on a trace `cancel-lab probe` recorded (its source event
 * names the probe as its `recorder`), wherever the trace is judged: by the probe itself, by
 * `cancel-lab check` and in the playground's Import panel.
 *   - The cancels the probe writes on purpose (after the response, for an id never issued, the
 *     same one twice) are forged frames, and they break the rules on what a sender may cancel
 *     by design: those findings judge the probe, not the server under test, so they are set
 *     aside as not applicable.
 *   - The probe notes the server's process exit (a stop the probe asked for is noted apart); an
 *     exit after a cancel is the server not coming through it, which a trace from outside could
 *     not otherwise tell (CANCEL-RACE-GRACEFUL needs a process exit the lab's sides see).
 */
import { PROBE_RECORDER, type FrameEvent, type TraceEvent } from '../trace/index.ts';
import type { Finding } from './checker.ts';

/** How the probe's note of a server process that exited on its own begins. */
export const SERVER_EXIT_NOTE = 'server process exited';

/** The rules on what the sender of a cancel may name, which the probe's own cancels break on purpose. */
const SENDER_RULES = new Set(['CANCEL-REF-ISSUED', 'CANCEL-REF-INPROGRESS']);

export function isProbeTrace(trace: readonly TraceEvent[]): boolean {
  const first = trace[0];
  return first?.kind === 'observed' && first.what === 'source' && first.recorder === PROBE_RECORDER;
}

function setAside(findings: readonly Finding[], trace: readonly TraceEvent[]): Finding[] {
  const forged = new Set(trace.flatMap((e) => (e.kind === 'frame' && e.injected === true ? [e.seq] : [])));
  return findings.map((f): Finding =>
    SENDER_RULES.has(f.rule) && f.witnesses.some((w) => forged.has(w))
      ? { ...f, severity: 'info', verdict: 'not-applicable', why: `The probe wrote this cancel on purpose, to see what the server does with it; the rule judges the sender, not the server. (${f.why})` }
      : f,
  );
}

function isCancel(e: TraceEvent): e is FrameEvent {
  return e.kind === 'frame' && e.dir === 'c2s' && e.msg?.method === 'notifications/cancelled';
}

/** The probe's notes of the server's exit, each after the last cancel written before it. */
function exitsAfterCancels(trace: readonly TraceEvent[], severity: Finding['severity']): Finding[] {
  const out: Finding[] = [];
  let cancel: FrameEvent | undefined;
  for (const e of trace) {
    if (isCancel(e)) cancel = e;
    if (e.kind !== 'observed' || e.what !== 'note' || !e.text.startsWith(SERVER_EXIT_NOTE) || cancel === undefined) continue;
    out.push({ rule: 'CANCEL-RACE-GRACEFUL', severity, verdict: 'violated', witnesses: [cancel.seq, e.seq], why: `Recorded by the probe: after the cancel in frame ${cancel.frame}, the ${e.text}, so it did not come through the cancel gracefully.` });
  }
  return out;
}

/** The server's exits in place of the checker's "can't tell" on CANCEL-RACE-GRACEFUL, in the catalog's order. */
function graceful(findings: Finding[], trace: readonly TraceEvent[]): Finding[] {
  const at = findings.findIndex((f) => f.rule === 'CANCEL-RACE-GRACEFUL');
  const first = findings[at];
  if (first === undefined || first.verdict !== 'cannot-tell') return findings;
  const exits = exitsAfterCancels(trace, first.severity);
  if (exits.length === 0) return findings;
  return [...findings.slice(0, at), ...exits, ...findings.slice(at).filter((f) => f.rule !== 'CANCEL-RACE-GRACEFUL')];
}

/** The checker's findings on a trace the probe recorded, judging the server; any other trace's unchanged. */
export function probeTraceFindings(findings: Finding[], trace: readonly TraceEvent[]): Finding[] {
  return isProbeTrace(trace) ? graceful(setAside(findings, trace), trace) : findings;
}
