/**
 * The small views read straight off the events: the connection log, the ledger, the negotiated
 * version, errors, and the sides' logs. Each is pure: the same trace gives the same view,
 * whether it was recorded live, replayed, or run headless.
 */
import type { TraceEvent } from '../trace/index.ts';

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
}

export function ledger(trace: readonly TraceEvent[]): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const e of trace) {
    if (e.kind === 'handler' && e.note.type === 'ledger-commit') {
      entries.push({ t: e.t, key: e.note.key, value: e.note.value, requestId: e.note.requestId });
    }
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
  side: 'client' | 'server';
  text: string;
  /** For an emulation's note: the upstream source it follows. */
  source?: string;
}

/** What each side wrote to its stderr, and what the emulations did differently, in order. */
export function sideLogs(trace: readonly TraceEvent[]): LogLine[] {
  const lines: LogLine[] = [];
  for (const e of trace) {
    if (e.kind !== 'handler') continue;
    if (e.note.type === 'stderr') lines.push({ t: e.t, side: e.side, text: e.note.text });
    else if (e.note.type === 'emulation') lines.push({ t: e.t, side: e.side, text: `[emulated ${e.note.profile}] ${e.note.what}`, source: e.note.source });
    else if (e.note.type === 'server-exited') lines.push({ t: e.t, side: e.side, text: `process exited with code ${e.note.code} (${e.note.reason})` });
  }
  return lines;
}
