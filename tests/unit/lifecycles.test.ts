/**
 * The lifecycle stepper (src/engine/lifecycles.ts) on hand-made events: what each table does
 * with what happened, that a step a table lacks becomes an error event (never a throw), and
 * that the connection is stepped by the trace, its handshake found through the trace index.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Lifecycles } from '../../src/engine/lifecycles.ts';
import { createTraceIndex } from '../../src/trace/trace-index.ts';
import type { ConnectionEvent, Direction, JsonRpcMessage, NewTraceEvent, TraceEvent } from '../../src/trace/index.ts';

function harness() {
  const trace: TraceEvent[] = [];
  const index = createTraceIndex();
  let now = 0;
  let frameNo = 0;
  const lifecycles: Lifecycles = new Lifecycles((e) => push(e), index.index, () => now);
  function push(e: NewTraceEvent): void {
    const full = { seq: trace.length, ...e } as TraceEvent;
    trace.push(full);
    index.add(full);
    lifecycles.observe(full);
  }
  return {
    trace,
    lifecycles,
    at(t: number) {
      now = t;
    },
    /** Writes a frame and returns its number. */
    frame(dir: Direction, msg: JsonRpcMessage, connection = 0, injected = false): number {
      const frame = frameNo++;
      push({ kind: 'frame', t: now, frame, dir, raw: `${JSON.stringify(msg)}\n`, msg, deliverAt: now + 5, connection, ...(injected && { injected: true as const }) });
      return frame;
    },
    deliver(frame: number, dir: Direction, dropped?: string) {
      push({ kind: 'delivery', t: now, frame, dir, ...(dropped !== undefined && { dropped }) });
    },
    transport(event: ConnectionEvent['event']) {
      push({ kind: 'connection', t: now, event, detail: event });
    },
    connection(): string[] {
      return trace.flatMap((e) => (e.kind === 'connection-state' ? [`${e.from} --${e.on}--> ${e.to}`] : []));
    },
    errors(): string[] {
      return trace.flatMap((e) => (e.kind === 'error' ? [e.message] : []));
    },
  };
}

const initialize = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, method: 'initialize', params: {} });
/** An initialize result the client can take (it has the negotiated version). */
const result = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25' } });

describe('the connection, stepped by the trace', () => {
  test('a step the table lacks is an error event, and the state stays', () => {
    const h = harness();
    h.transport('connected');
    h.transport('disconnected');
    h.transport('disconnected');
    assert.deepEqual(h.errors(), ['connection: connection: no transition from connecting on connected']);
    assert.deepEqual(h.connection(), ['connecting --disconnected--> closed', 'closed --disconnected--> closed']);
  });

  test('the answer to the handshake under way opens it; a reconnect sends a new handshake and starts again', () => {
    const h = harness();
    h.frame('c2s', initialize(0));
    const answer = h.frame('s2c', result(0));
    h.at(10);
    h.deliver(answer, 's2c');
    h.transport('connected');
    h.at(50);
    h.transport('crashed');
    h.transport('reconnecting');
    h.frame('c2s', initialize(0), 1);
    assert.deepEqual(h.errors(), []);
    assert.deepEqual(h.connection(), [
      'connecting --initialize-result--> initialized',
      'initialized --connected--> open',
      'open --crashed--> crashed',
      'crashed --reconnecting--> reconnecting',
      'reconnecting --handshake-sent--> connecting',
    ]);
  });

  test('a result without the negotiated version (a forged one) is refused like an error', () => {
    const h = harness();
    h.frame('c2s', initialize(0));
    h.deliver(h.frame('s2c', { jsonrpc: '2.0', id: 0, result: { content: [] } }, 0, true), 's2c');
    assert.deepEqual(h.connection(), ['connecting --handshake-error--> closed']);
  });

  test('an answer that reached nobody, or a second answer, moves nothing', () => {
    const h = harness();
    h.frame('c2s', initialize(0));
    const first = h.frame('s2c', result(0));
    const forged = h.frame('s2c', { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'forged' } }, 0, true);
    h.deliver(first, 's2c', 'its connection was closed before it arrived');
    assert.deepEqual(h.connection(), []);
    h.deliver(forged, 's2c');
    h.deliver(first, 's2c');
    assert.deepEqual(h.connection(), ['connecting --handshake-error--> closed'], 'the first answer delivered counts, the next one is ignored');
    assert.deepEqual(h.errors(), []);
  });
});

describe('calls and handlers, stepped by what happened', () => {
  test('a response is offered to the calls with its id on its connection; only one no longer waiting takes it', () => {
    const h = harness();
    h.lifecycles.openCall('A', 1, 0);
    h.lifecycles.openCall('B', 1, 1);
    h.lifecycles.responseArrived(0, 1);
    h.lifecycles.stepCall('A', 'result');
    h.lifecycles.responseArrived(0, 1);
    const steps = h.trace.flatMap((e) => (e.kind === 'client-state' ? [`${e.call}: ${e.from} --${e.on}--> ${e.to}`] : []));
    assert.deepEqual(steps, ['A: null --null--> RUNNING', 'B: null --null--> RUNNING', 'A: RUNNING --result--> SUCCEEDED', 'A: SUCCEEDED --late-response--> SUCCEEDED']);
    assert.deepEqual(h.errors(), []);
  });

  test('the error that settles a stopped call ends its wait; a second settle is an error event', () => {
    const h = harness();
    h.lifecycles.openCall('A', 1, 0);
    h.lifecycles.stepCall('A', 'stop');
    h.lifecycles.stepCall('A', 'error');
    h.lifecycles.stepCall('A', 'result');
    assert.deepEqual(
      h.trace.flatMap((e) => (e.kind === 'client-state' ? [e.to] : [])),
      ['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY'],
    );
    assert.deepEqual(h.errors(), ['call A: client-request: no transition from STOPPED_LOCALLY on result']);
  });

  test('a finished handler is settled by the wire: the server’s own earlier answer stands, a forged one does not', () => {
    for (const [forged, expected] of [
      [false, 'response sent'],
      [true, 'response suppressed'],
    ] as const) {
      const h = harness();
      h.frame('c2s', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} });
      h.lifecycles.startHandler(7, 'work');
      // python-sdk 1.x answers a cancel with code 0 while the handler runs; here the answer is the server's or forged.
      h.frame('s2c', { jsonrpc: '2.0', id: 7, error: { code: 0, message: 'Request cancelled' } }, 0, forged);
      if (!forged) h.lifecycles.stepHandler(7, 'response-sent');
      h.lifecycles.stepHandler(7, 'cancel-seen');
      h.lifecycles.stepHandler(7, 'throw');
      h.lifecycles.stepEnded('server');
      const states = h.trace.flatMap((e) => (e.kind === 'server-state' ? [e.to] : []));
      assert.equal(states.at(-1), expected, forged ? 'a forged answer is not the server’s' : 'its earlier answer stands');
      assert.deepEqual(h.errors(), []);
    }
  });

  test('the process exiting crashes the handlers still running and leaves the answered ones', () => {
    const h = harness();
    h.lifecycles.startHandler(1, 'stubborn');
    h.lifecycles.startHandler(2, 'quick');
    h.lifecycles.stepHandler(2, 'return');
    h.lifecycles.stepHandler(2, 'response-sent');
    h.lifecycles.serverExited();
    const final = new Map(h.trace.flatMap((e) => (e.kind === 'server-state' ? [[e.requestId, e.to] as const] : [])));
    assert.deepEqual([...final], [
      [1, 'crashed'],
      [2, 'response sent'],
    ]);
    assert.deepEqual(h.errors(), []);
  });

  test('a request received twice gets two handlers: a cancel reaches the newer, and a finished one is told apart by its signal', () => {
    const h = harness();
    h.lifecycles.startHandler(4, 'work');
    h.lifecycles.startHandler(4, 'work');
    h.lifecycles.stepHandler(4, 'cancel-seen');
    h.lifecycles.stepHandler(4, 'return', false);
    h.lifecycles.stepHandler(4, 'response-sent');
    h.lifecycles.stepEnded('server');
    h.lifecycles.stepHandler(4, 'throw', true);
    h.lifecycles.stepEnded('server');
    const steps = h.trace.flatMap((e) => (e.kind === 'server-state' ? [`${e.from ?? '∅'} → ${e.to}`] : []));
    assert.deepEqual(steps, ['∅ → running', '∅ → running', 'running → cancellation seen', 'running → returned', 'returned → response sent', 'cancellation seen → threw', 'threw → response suppressed']);
    assert.deepEqual(h.errors(), []);
  });
});
