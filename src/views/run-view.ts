/**
 * One derived view of a run, computed once per paint from (scenario, trace) and handed to
 * every panel. Panels render it and remember nothing of their own about the run, so nothing
 * they show can go stale: not the connection status, not the holds on the wire, not a finding.
 * The trace is indexed once here and every part reads that index.
 */
import { HANDSHAKE_STATES, type ConnectionState } from '../machines/index.ts';
import { checkRun, type Finding } from '../rules/index.ts';
import { settingLine, type Scenario } from '../scenario/index.ts';
import { createTraceIndex, type Direction, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import { callViews, type CallView } from './call-views.ts';
import { connectionLog, ledger, negotiated, sideLogs, traceErrors, type ConnectionRow, type LedgerEntry, type LogLine, type Negotiated } from './derive.ts';
import { findingBadges, findingSummary, type FindingBadge, type FindingSummary } from './findings.ts';
import { wireCells, type WireCells } from './wire-cells.ts';
import { wireRows, type WireRow } from './wire-rows.ts';

/** Where the connection stands, read off the connection lifecycle the engine records. */
/** `imported`: a trace captured outside the lab, whose connection no side of the lab holds. */
export type ConnectionStatus = 'connecting' | 'connected' | 'closed' | 'crashed' | 'reconnecting' | 'imported';

export interface RunView {
  readonly scenario: Scenario;
  readonly trace: readonly TraceEvent[];
  readonly index: TraceIndex;
  /** The scenario's setting in one line (revision, transport, server shape, emulations). */
  readonly setting: string;
  readonly wire: readonly WireRow[];
  /** What each wire row shows, cell by cell, with the badges of the findings it witnesses (same order as `wire`). */
  readonly cells: readonly WireCells[];
  readonly calls: readonly CallView[];
  readonly connections: readonly ConnectionRow[];
  readonly ledger: readonly LedgerEntry[];
  /** The version the client reported once connected on the current connection; null while not connected. */
  readonly negotiated: Negotiated | null;
  readonly status: ConnectionStatus;
  /** Which directions the wire holds now (a `hold` not yet released). */
  readonly holding: Readonly<Record<Direction, boolean>>;
  readonly logs: readonly LogLine[];
  readonly errors: readonly { t: number; message: string }[];
  readonly findings: readonly Finding[];
  /** The findings counted and sorted, and the notable ones (see findings.ts). */
  readonly verdict: FindingSummary;
  /** Badges of the notable findings by the `seq` of each witness. */
  readonly badges: ReadonlyMap<number, readonly FindingBadge[]>;
  /** Virtual time of the last event (0 for an empty trace). */
  readonly lastT: number;
}

/** The states after the handshake; every state of HANDSHAKE_STATES (the machine's) is `connecting`. */
const STATUS_OF: Partial<Record<ConnectionState, ConnectionStatus>> = {
  open: 'connected',
  closed: 'closed',
  crashed: 'crashed',
  reconnecting: 'reconnecting',
};

/** Where the connection stands at the end of a trace (its last connection-state change). */
export function connectionStatus(trace: readonly TraceEvent[]): ConnectionStatus {
  if (trace[0]?.kind === 'observed') return 'imported';
  const last = trace.findLast((e) => e.kind === 'connection-state');
  if (last?.kind !== 'connection-state' || HANDSHAKE_STATES.has(last.to)) return 'connecting';
  return STATUS_OF[last.to] ?? 'connecting';
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

/**
 * The handshake of the connection that stands now: none while not connected, and never one
 * from before the last reconnect (whose connection is gone, whatever it negotiated).
 */
function currentHandshake(trace: readonly TraceEvent[], status: ConnectionStatus): Negotiated | null {
  if (status !== 'connected') return null;
  const reconnect = trace.findLastIndex((e) => e.kind === 'connection-state' && e.to === 'reconnecting');
  return negotiated(reconnect < 0 ? trace : trace.slice(reconnect + 1));
}

/** Events indexed between two steps of runViewSteps: a few ms of work. */
const INDEX_SLICE = 2_000;

/**
 * The derivation in steps: it stops at each `yield`, where a page may let other work in, and
 * returns the view (the same view however it is stepped). A page deriving a long trace in one
 * go would hold its thread for the whole of it (indexing, rules, wire rows: well over 100 ms
 * for a replay near the event bound); stepped a task at a time, no part takes more than a few
 * tens of ms.
 */
export function* runViewSteps(scenario: Scenario, trace: readonly TraceEvent[]): Generator<void, RunView, void> {
  const builder = createTraceIndex();
  for (let i = 0; i < trace.length; i++) {
    if (i > 0 && i % INDEX_SLICE === 0) yield;
    builder.add(trace[i] as TraceEvent);
  }
  const index = builder.index;
  yield;
  const status = connectionStatus(trace);
  const findings = checkRun(scenario, trace, index);
  yield;
  const badges = findingBadges(findings, scenario);
  const wire = wireRows(trace, index);
  yield;
  const cells = wire.map((row) => wireCells(row, badges));
  const calls = callViews(trace, index);
  yield;
  return {
    scenario,
    trace,
    index,
    setting: settingLine(scenario),
    wire,
    cells,
    calls,
    connections: connectionLog(trace),
    ledger: ledger(trace, index),
    negotiated: currentHandshake(trace, status),
    status,
    holding: holds(trace),
    logs: sideLogs(trace),
    errors: traceErrors(trace),
    findings,
    verdict: findingSummary(findings, scenario),
    badges,
    lastT: trace.at(-1)?.t ?? 0,
  };
}

export function deriveRunView(scenario: Scenario, trace: readonly TraceEvent[]): RunView {
  const steps = runViewSteps(scenario, trace);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
