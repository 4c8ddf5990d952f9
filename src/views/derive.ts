/**
 * The small views read straight off the events: the connection log, the ledger, the negotiated
 * version, errors, and the sides' logs. Each is pure: the same trace gives the same view,
 * whether it was recorded live, replayed, or run headless.
 */
import { dirKey, indexTrace, type StopEvent, type TraceEvent, type TraceIndex } from '../trace/index.ts';

export interface ConnectionRow {
  t: number;
  event: string;
  stream: number | null;
  by: 'client' | 'server' | null;
  detail: string;
}

/** The transport's lifecycle: connected, streams opened and closed (by whom), sessions. */
export function connectionLog(trace: readonly TraceEvent[]): ConnectionRow[] {
  const rows: ConnectionRow[] = [];
  for (const e of trace) {
    if (e.kind === 'connection') rows.push({ t: e.t, event: e.event, stream: e.stream ?? null, by: e.by ?? null, detail: e.detail });
  }
  return rows;
}

export interface LedgerEntry {
  t: number;
  key: string;
  value: string;
  requestId: string | number;
  /** The client call whose tools/call request committed it; null when no call of the client's made that request. */
  call: string | null;
  /** When that call was first stopped; null when it never was. */
  stopAt: number | null;
  /** When it was committed, against that call's Stop: the one sentence the Ledger tab and an embed show. */
  summary: string;
}

/**
 * The client call whose request committed this: the tools/call with that id written before the
 * commit, latest first (ids start again on a reconnect, and the engine forgets every handler at
 * one, so a commit belongs to the newest request with its id). Its `call` is per connection.
 */
function committingCall(index: TraceIndex, commit: TraceEvent, requestId: string | number): string | null {
  const requests = index.requestsById.get(dirKey('c2s', requestId)) ?? [];
  const req = requests.findLast((r) => r.method === 'tools/call' && r.frame.seq < commit.seq);
  return req?.call ?? null;
}

function commitSummary(t: number, call: string | null, requestId: string | number, stop: StopEvent | undefined, commitSeq: number): string {
  const at = `committed at ${t} ms`;
  if (call === null) return `${at} — request ${JSON.stringify(requestId)} matches no call of the client's`;
  if (!stop) return `${at} — the call was never stopped`;
  if (commitSeq < stop.seq) return `${at} — Stop at ${stop.t} ms — not rolled back`;
  return `${at}, ${t - stop.t} ms after Stop at ${stop.t} ms — not rolled back`;
}

/** What the server committed (`ledger_write`), each against the Stop of the call that asked for it. */
export function ledger(trace: readonly TraceEvent[], index: TraceIndex = indexTrace(trace)): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const e of trace) {
    if (e.kind !== 'handler' || e.note.type !== 'ledger-commit') continue;
    const { requestId, key, value } = e.note;
    const call = committingCall(index, e, requestId);
    const stop = call === null ? undefined : index.stops.find((s) => s.action.call === call);
    entries.push({ t: e.t, key, value, requestId, call, stopAt: stop?.t ?? null, summary: commitSummary(e.t, call, requestId, stop, e.seq) });
  }
  return entries;
}

export interface Negotiated {
  protocolVersion: string;
  era: string;
  t: number;
}

/**
 * The protocol version the two sides agreed on, as the client reported it once connected: on
 * the latest connection (a reconnect negotiates again). Whether that connection still stands
 * is the connection status's to say (see run-view.ts).
 */
export function negotiated(trace: readonly TraceEvent[]): Negotiated | null {
  const last = trace.findLast((e) => e.kind === 'handler' && e.note.type === 'connected');
  return last?.kind === 'handler' && last.note.type === 'connected' ? { protocolVersion: last.note.protocolVersion, era: last.note.era, t: last.t } : null;
}

export function traceErrors(trace: readonly TraceEvent[]): { t: number; message: string }[] {
  const errors: { t: number; message: string }[] = [];
  for (const e of trace) if (e.kind === 'error') errors.push({ t: e.t, message: e.message });
  return errors;
}

export interface LogLine {
  t: number;
  /** `log`: a line of an imported log that carried no message (whose side the log may not say). */
  side: 'client' | 'server' | 'log';
  text: string;
  /** For an emulation's note: the upstream source it follows. */
  source?: string;
}

/**
 * What each side wrote to its stderr, what the emulations did differently, and an imported log's
 * lines that carried no message, in order.
 */
export function sideLogs(trace: readonly TraceEvent[]): LogLine[] {
  const lines: LogLine[] = [];
  for (const e of trace) {
    if (e.kind === 'observed' && e.what === 'note') lines.push({ t: e.t, side: 'log', text: e.text });
    if (e.kind !== 'handler') continue;
    if (e.note.type === 'stderr') lines.push({ t: e.t, side: e.side, text: e.note.text });
    else if (e.note.type === 'emulation') lines.push({ t: e.t, side: e.side, text: `[emulated ${e.note.profile}] ${e.note.what}`, source: e.note.source });
    else if (e.note.type === 'server-exited') lines.push({ t: e.t, side: e.side, text: `process exited with code ${e.note.code} (${e.note.reason})` });
  }
  return lines;
}
