/**
 * Shared helpers for the unit tests: scenario builders and small queries over a trace.
 * Not a test file itself (the runner only picks up `*.test.ts`).
 */
import assert from 'node:assert/strict';
import { defaultScenario, type Scenario, type Step } from '../../src/scenario/index.ts';
import type { BatchPlan, BatchStep, SideApi, Sides } from '../../src/engine/index.ts';
import type {
  ClientStateEvent,
  DeliveryEvent,
  Direction,
  FrameEvent,
  HandlerEvent,
  HandlerNote,
  JsonRpcMessage,
  ServerStateEvent,
  TraceEvent,
  UserActionEvent,
} from '../../src/trace/index.ts';

export type RequestId = string | number;

/** The default scenario (2025-11-25, stdio, 5/5 ms, endAt 10 s) with the given steps and overrides. */
export function scenario(steps: Step[], overrides: Partial<Omit<Scenario, 'steps'>> = {}): Scenario {
  return { ...defaultScenario(), ...overrides, steps };
}

export function call(at: number, id: string, tool: string, args: Record<string, unknown> = {}): Step {
  return { at, action: { type: 'call', call: id, tool, args } };
}

export function stop(at: number, id: string): Step {
  return { at, action: { type: 'stop', call: id } };
}

export function inject(at: number, id: string, outcome: 'result' | 'error' = 'result'): Step {
  return { at, action: { type: 'inject-response', call: id, outcome } };
}

export function latencyOf(s: Scenario, dir: Direction): number {
  return dir === 'c2s' ? s.latency.c2s : s.latency.s2c;
}

export function framesOf(trace: readonly TraceEvent[]): FrameEvent[] {
  return trace.filter((e): e is FrameEvent => e.kind === 'frame');
}

export function deliveriesOf(trace: readonly TraceEvent[]): DeliveryEvent[] {
  return trace.filter((e): e is DeliveryEvent => e.kind === 'delivery');
}

export function handlerEvents(trace: readonly TraceEvent[]): HandlerEvent[] {
  return trace.filter((e): e is HandlerEvent => e.kind === 'handler');
}

/** Handler events whose note has the given type, with the note narrowed to that type. */
export function notesOf<T extends HandlerNote['type']>(
  trace: readonly TraceEvent[],
  type: T,
): (HandlerEvent & { note: Extract<HandlerNote, { type: T }> })[] {
  return handlerEvents(trace).filter(
    (e): e is HandlerEvent & { note: Extract<HandlerNote, { type: T }> } => e.note.type === type,
  );
}

export function userActions(trace: readonly TraceEvent[]): UserActionEvent[] {
  return trace.filter((e): e is UserActionEvent => e.kind === 'user-action');
}

export function clientStates(trace: readonly TraceEvent[], callId: string): ClientStateEvent[] {
  return trace.filter((e): e is ClientStateEvent => e.kind === 'client-state' && e.call === callId);
}

export function serverStates(trace: readonly TraceEvent[], requestId: RequestId): ServerStateEvent[] {
  return trace.filter((e): e is ServerStateEvent => e.kind === 'server-state' && e.requestId === requestId);
}

/** A JSON-RPC response (result or error): has an id and no method. */
export function isResponse(msg: JsonRpcMessage | null): msg is JsonRpcMessage & { id: RequestId } {
  return msg !== null && msg.method === undefined && msg.id !== undefined;
}

/** The s2c response frames (real or injected) that carry `requestId`. */
export function responsesFor(trace: readonly TraceEvent[], requestId: RequestId): FrameEvent[] {
  return framesOf(trace).filter((f) => f.dir === 's2c' && isResponse(f.msg) && f.msg.id === requestId);
}

export function framesWithMethod(trace: readonly TraceEvent[], method: string, dir?: Direction): FrameEvent[] {
  return framesOf(trace).filter((f) => f.msg?.method === method && (dir === undefined || f.dir === dir));
}

/** The one c2s `tools/call` frame for a call (matched by the request id the engine recorded for it). */
export function toolCallFrame(trace: readonly TraceEvent[], callId: string): FrameEvent {
  const id = requestIdOf(trace, callId);
  const found = framesWithMethod(trace, 'tools/call', 'c2s').filter((f) => f.msg?.id === id);
  assert.equal(found.length, 1, `exactly one tools/call frame for call ${callId} (id ${String(id)})`);
  return found[0] as FrameEvent;
}

/** The request id of a call, from the client-state event that opened it. */
export function requestIdOf(trace: readonly TraceEvent[], callId: string): RequestId {
  const opened = clientStates(trace, callId).find((e) => e.from === null);
  assert.ok(opened, `call ${callId} was opened`);
  assert.ok(opened.requestId !== null, `call ${callId} has a request id`);
  return opened.requestId;
}

export function deliveryOf(trace: readonly TraceEvent[], frame: FrameEvent): DeliveryEvent {
  const found = deliveriesOf(trace).filter((d) => d.frame === frame.frame);
  assert.equal(found.length, 1, `frame ${frame.frame} is delivered exactly once`);
  return found[0] as DeliveryEvent;
}

/** The engine reports impossible transitions and bad actions as `error` events; a clean run has none. */
export function assertNoEngineErrors(trace: readonly TraceEvent[]): void {
  assert.deepEqual(
    trace.filter((e) => e.kind === 'error'),
    [],
    'the trace has no engine error events',
  );
}

/**
 * Wire invariants that hold for every run: `seq` counts from 0, time never runs backwards,
 * every frame's deliverAt is t plus its direction's latency, and each delivery happens exactly
 * at its frame's deliverAt, once, after the frame was written.
 */
export function assertWireInvariants(s: Scenario, trace: readonly TraceEvent[]): void {
  trace.forEach((e, i) => assert.equal(e.seq, i, `seq of event ${i}`));
  for (let i = 1; i < trace.length; i++) {
    const prev = trace[i - 1] as TraceEvent;
    const cur = trace[i] as TraceEvent;
    assert.ok(cur.t >= prev.t, `time runs forward: event ${cur.seq} at ${cur.t} after ${prev.t}`);
  }
  const byNumber = new Map<number, FrameEvent>();
  for (const f of framesOf(trace)) {
    assert.ok(!byNumber.has(f.frame), `frame number ${f.frame} is unique`);
    byNumber.set(f.frame, f);
    assert.equal(f.deliverAt, f.t + latencyOf(s, f.dir), `frame ${f.frame} deliverAt = t + latency(${f.dir})`);
  }
  const delivered = new Set<number>();
  for (const d of deliveriesOf(trace)) {
    const f = byNumber.get(d.frame);
    assert.ok(f, `delivery of frame ${d.frame} refers to a written frame`);
    assert.ok(f.seq < d.seq, `frame ${d.frame} is written before it is delivered`);
    assert.equal(d.dir, f.dir, `delivery of frame ${d.frame} keeps its direction`);
    assert.equal(d.t, f.t + latencyOf(s, f.dir), `frame ${d.frame} (${f.dir}, written at ${f.t}) delivered at t + L`);
    assert.ok(!delivered.has(d.frame), `frame ${d.frame} is delivered once`);
    delivered.add(d.frame);
  }
  for (const f of byNumber.values()) {
    if (f.deliverAt !== null && f.deliverAt <= s.endAt) assert.ok(delivered.has(f.frame), `frame ${f.frame} (due ${f.deliverAt}) is delivered`);
  }
}

/** Asserts that a looked-up value exists and returns it, narrowed (instead of a non-null `!`). */
export function defined<T>(value: T | undefined | null, what = 'expected value'): T {
  assert.ok(value !== undefined && value !== null, `${what} is missing`);
  return value;
}

/** The same sides asked for one step at a time: without `batch`, the engine plans no batches (lookahead.ts). */
export function oneStepAtATime(sides: Sides): Sides {
  return { client: { ...sides.client, batch: undefined }, server: { ...sides.server, batch: undefined } };
}

/** A side's `batch`, which sides in worker threads answer (a pair in the test's own thread has none). */
export function batchOf<A>(side: SideApi<A>): (plan: BatchPlan) => Promise<BatchStep[]> {
  const { batch } = side;
  if (!batch) throw new Error('these sides take no batches: a pair in worker threads does');
  return (plan) => batch.call(side, plan);
}
