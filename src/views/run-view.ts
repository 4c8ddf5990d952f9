/**
 * One derived view of a run, computed once per paint from (scenario, trace) and handed to
 * every panel. Panels render it and remember nothing of their own about the run, so nothing
 * they show can go stale: not the connection status, not the holds on the wire, not a finding.
 */
import { checkRun, type Finding } from '../rules/index.ts';
import { settingLine, type Scenario } from '../scenario/index.ts';
import { indexTrace, type Direction, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import {
  callViews,
  connectionLog,
  ledger,
  negotiated,
  sideLogs,
  traceErrors,
  wireRows,
  type CallView,
  type ConnectionRow,
  type LedgerEntry,
  type LogLine,
  type Negotiated,
  type WireRow,
} from './derive.ts';

/** Where the connection stands, read off the connection lifecycle the engine records. */
export type ConnectionStatus = 'connecting' | 'connected' | 'closed' | 'crashed' | 'reconnecting';

export interface RunView {
  readonly scenario: Scenario;
  readonly trace: readonly TraceEvent[];
  readonly index: TraceIndex;
  /** The scenario's setting in one line (revision, transport, server shape, emulations). */
  readonly setting: string;
  readonly wire: readonly WireRow[];
  readonly calls: readonly CallView[];
  readonly connections: readonly ConnectionRow[];
  readonly ledger: readonly LedgerEntry[];
  /** The version the client reported once connected on the current connection; null before. */
  readonly negotiated: Negotiated | null;
  readonly status: ConnectionStatus;
  /** Which directions the wire holds now (a `hold` not yet released). */
  readonly holding: Readonly<Record<Direction, boolean>>;
  readonly logs: readonly LogLine[];
  readonly errors: readonly { t: number; message: string }[];
  readonly findings: readonly Finding[];
  /** Virtual time of the last event (0 for an empty trace). */
  readonly lastT: number;
}

const STATUS_OF: Record<string, ConnectionStatus> = {
  connecting: 'connecting',
  initialized: 'connecting',
  discovered: 'connecting',
  open: 'connected',
  closed: 'closed',
  crashed: 'crashed',
  reconnecting: 'reconnecting',
};

function connectionStatus(trace: readonly TraceEvent[]): ConnectionStatus {
  const last = trace.findLast((e) => e.kind === 'connection-state');
  return last?.kind === 'connection-state' ? (STATUS_OF[last.to] ?? 'connecting') : 'connecting';
}

function holds(trace: readonly TraceEvent[]): Record<Direction, boolean> {
  const holding = { c2s: false, s2c: false };
  for (const e of trace) {
    if (e.kind !== 'user-action') continue;
    if (e.action.type === 'hold') holding[e.action.dir] = true;
    else if (e.action.type === 'release') holding[e.action.dir] = false;
  }
  return holding;
}

export function deriveRunView(scenario: Scenario, trace: readonly TraceEvent[]): RunView {
  const status = connectionStatus(trace);
  const agreed = negotiated(trace);
  return {
    scenario,
    trace,
    index: indexTrace(trace),
    setting: settingLine(scenario),
    wire: wireRows(trace),
    calls: callViews(trace),
    connections: connectionLog(trace),
    ledger: ledger(trace),
    negotiated: status === 'connected' ? agreed : null,
    status,
    holding: holds(trace),
    logs: sideLogs(trace),
    errors: traceErrors(trace),
    findings: checkRun(scenario, trace),
    lastT: trace.at(-1)?.t ?? 0,
  };
}
