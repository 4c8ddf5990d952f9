/**
 * The derived views (src/views/): what the panels show, read off real runs of library
 * scenarios and off hand-built traces. Each assertion is a text or a state a user sees: a wire
 * row's "what" and delivery, a call's states and outcome, the ledger, the negotiated version.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { callViews, describeCall } from '../../src/views/call-views.ts';
import { connectionLog, ledger, negotiated, sideLogs, traceErrors } from '../../src/views/derive.ts';
import { wireRows } from '../../src/views/wire-rows.ts';
import { deriveRunView } from '../../src/views/run-view.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';

const sides = createNodeSides();
after(() => sides.close());

const runs = new Map<string, { scenario: Scenario; trace: TraceEvent[] }>();
const IDS = [
  'race-r1-cancel-after-response',
  'race-r2-strict-host-reconnects',
  'race-r7-server-crash-mid-request',
  'sdk-sessionful-http-stream-left-open',
  'seed-000-strict-host-python-v1',
  'seed-003-request-8-stdio-notification',
  'stop-after-commit-is-not-rollback',
  'server-cancels-its-elicitation',
  'stop-while-elicitation-pending',
];
before(async () => {
  for (const id of IDS) {
    const entry = libraryEntry(id);
    assert.ok(entry, id);
    runs.set(id, { scenario: entry.scenario, trace: await runHeadless(entry.scenario, sides) });
  }
});

function run(id: string): { scenario: Scenario; trace: TraceEvent[] } {
  const found = runs.get(id);
  assert.ok(found, id);
  return found;
}

/** A wire row as a user reads it: frame, sent, delivered (or why not), direction, what, id. */
function rowTexts(trace: readonly TraceEvent[]): string[] {
  return wireRows(trace).map((r) => {
    const delivered = r.droppedBecause !== null ? `never (${r.droppedBecause})` : r.deliveredAt !== null ? String(r.deliveredAt) : r.fault ?? 'in flight';
    const where = r.stream === null ? '' : ` #${r.stream} ${r.framing ?? ''}`;
    return `${r.frame} ${r.sentAt}→${delivered} ${r.direction}${where} | ${r.what} | ${r.id}${r.fault ? ` [${r.fault}]` : ''}${r.injected ? ' [injected]' : ''}`;
  });
}

describe('wire rows of real runs', () => {
  test('stdio: a delayed cancel and the result it crosses', () => {
    assert.deepEqual(rowTexts(run('race-r1-cancel-after-response').trace), [
      '0 0→5 client → server | initialize | 0',
      '1 5→10 server → client | result of initialize | 0',
      '2 10→15 client → server | notifications/initialized | ',
      '3 20→25 client → server | tools/call | 1',
      '4 60→265 client → server | notifications/cancelled | 1 [delayed]',
      '5 125→130 server → client | result of tools/call | 1',
    ]);
  });

  test('a strict host reconnects: frames in flight on the old connection reach nobody, ids start again', () => {
    assert.deepEqual(rowTexts(run('race-r2-strict-host-reconnects').trace), [
      '0 0→50 client → server | initialize | 0',
      '1 50→100 server → client | result of initialize | 0',
      '2 100→150 client → server | notifications/initialized | ',
      '3 200→250 client → server | tools/call | 1',
      '4 350→400 server → client | result of tools/call | 1',
      '5 370→never (its connection was closed before it arrived) client → server | notifications/cancelled | 1',
      '6 400→never (its connection was closed before it arrived) client → server | end of stream (EOF) | ',
      '7 400→450 client → server | initialize | 0',
      '8 450→500 server → client | result of initialize | 0',
      '9 500→550 client → server | notifications/initialized | ',
      '10 600→650 client → server | tools/call | 1',
      '11 650→700 server → client | result of tools/call | 1',
    ]);
  });

  test('Streamable HTTP: every frame has its stream and framing; heads and ends carry no message', () => {
    const { trace } = run('sdk-sessionful-http-stream-left-open');
    const rows = wireRows(trace);
    assert.deepEqual(rowTexts(trace).slice(0, 4), [
      '0 0→5 client → server #1 POST /mcp | initialize | 0',
      '1 5→10 server → client #1 200 text/event-stream |  | ',
      '2 5→10 server → client #1 SSE event: message | result of initialize | 0',
      '3 5→10 server → client #1 end of response (server) |  | ',
    ]);
    assert.deepEqual(
      rows.filter((r) => !r.carriesMessage).map((r) => r.framing),
      ['200 text/event-stream', 'end of response (server)', '202 (no body)', 'end of response (server)', 'GET /mcp', '200 text/event-stream', '200 text/event-stream', '202 (no body)', 'end of response (server)'],
    );
    const post = rows[0];
    assert.ok(post);
    assert.deepEqual(
      post.headers.map(([name]) => name),
      ['accept', 'content-type'],
    );
    const cancel = rows.find((r) => r.what === 'notifications/cancelled');
    assert.equal(cancel?.id, '1', 'a cancel row shows the id it names');
  });
});

describe('call views of real runs', () => {
  test('Stop on a stubborn tool: stopped locally, the late result ignored, the server sent it anyway', () => {
    const [a] = callViews(run('race-r1-cancel-after-response').trace);
    assert.ok(a);
    assert.equal(describeCall(a), 'A stubborn: client STOPPED_LOCALLY (1 late response after Stop), server response sent');
    assert.deepEqual(
      a.clientHistory.map((h) => h.to),
      ['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY', 'STOPPED_LOCALLY'],
    );
    assert.deepEqual(
      a.serverHistory.map((h) => h.to),
      ['running', 'returned', 'response sent'],
    );
    assert.equal(a.outcome, 'rejected: user pressed Stop');
    assert.equal(a.lost, false);
  });

  test('a crash loses the call in flight; a call on the new connection with the same id has its own server states', () => {
    const [a, b] = callViews(run('race-r7-server-crash-mid-request').trace);
    assert.ok(a && b);
    assert.equal(describeCall(a), 'A ledger_write: client FAILED, server crashed, lost with its connection');
    assert.equal(describeCall(b), 'B quick: client SUCCEEDED, server response sent');
    assert.deepEqual([a.requestId, b.requestId], [1, 1]);
    assert.deepEqual(
      a.serverHistory.map((h) => h.to),
      ['running', 'crashed'],
    );
    assert.deepEqual(
      b.serverHistory.map((h) => h.to),
      ['running', 'returned', 'response sent'],
    );
  });

  test('python-sdk 1.x behind a strict host: answered early, the other call lost with the connection', () => {
    assert.deepEqual(callViews(run('seed-000-strict-host-python-v1').trace).map(describeCall), [
      'A slow_count: client STOPPED_LOCALLY (1 late response after Stop), server response sent',
      'B stubborn: client FAILED, server running, lost with its connection',
      'C quick: client SUCCEEDED, server response sent',
    ]);
  });

  test('progress reaches the call view; an observed cancel suppresses the response', () => {
    const [a] = callViews(run('seed-003-request-8-stdio-notification').trace);
    assert.ok(a);
    assert.equal(describeCall(a), 'A slow_count: client STOPPED_LOCALLY, server response suppressed');
    assert.equal(a.requestId, 0);
    assert.equal(a.progress, 1);
  });
});

describe('requests the server sent mid-call, under their call', () => {
  const said = (id: string): string[] =>
    callViews(run(id).trace).flatMap((c) => c.nested.map((n) => `${c.call} ${n.method} ${n.requestId}: server ${n.serverHistory.map((h) => h.to).join(' → ')}; client handler ${n.clientHistory.map((h) => h.to).join(' → ')}`));

  test('the server cancels its elicitation: awaiting → cancelled, and the client handler sees it and writes nothing', () => {
    assert.deepEqual(said('server-cancels-its-elicitation'), ['A elicitation/create 0: server awaiting → cancelled; client handler running → cancellation seen → threw → response suppressed']);
  });

  test('Stop while the elicitation is pending: the elicitation is still answered, later', () => {
    assert.deepEqual(said('stop-while-elicitation-pending'), ['A elicitation/create 0: server awaiting → answered; client handler running → returned → response sent']);
  });
});

describe('the other views of real runs', () => {
  test('ledger: the side effect committed before Stop stays', () => {
    assert.deepEqual(ledger(run('stop-after-commit-is-not-rollback').trace), [
      { t: 125, key: 'order-42', value: 'paid', requestId: 1, call: 'A', stopAt: 200, summary: 'committed at 125 ms — Stop at 200 ms — not rolled back' },
    ]);
  });

  test('connection log: connected, the strict host closes and reconnects, connected again', () => {
    assert.deepEqual(
      connectionLog(run('race-r2-strict-host-reconnects').trace).map((c) => `${c.t} ${c.event}${c.by ? ` by ${c.by}` : ''}: ${c.detail}`),
      [
        '100 connected: protocol 2025-11-25 (legacy era) over stdio',
        '400 disconnected by client: the client closed its end (stdin EOF)',
        '400 reconnecting by client: strict host: connection error on an unknown id',
        '500 connected: protocol 2025-11-25 (legacy era) over stdio',
      ],
    );
  });

  test('negotiated: the version and era the client reported once connected', () => {
    assert.deepEqual(negotiated(run('seed-003-request-8-stdio-notification').trace), { protocolVersion: '2026-07-28', era: 'modern', t: 40 });
    assert.equal(negotiated([]), null);
  });

  test('side logs: the emulation notes with their sources, and a process exit', () => {
    const crash = sideLogs(run('race-r7-server-crash-mid-request').trace);
    assert.deepEqual(crash, [{ t: 200, side: 'server', text: 'process exited with code 137 (killed by the user)' }]);
    const emulated = sideLogs(run('seed-000-strict-host-python-v1').trace).filter((l) => l.source !== undefined);
    assert.ok(emulated.length > 0);
    assert.ok(emulated.every((l) => l.text.startsWith('[emulated ')));
  });

  test('trace errors: none on a library run, each error event otherwise', () => {
    assert.deepEqual(traceErrors(run('race-r1-cancel-after-response').trace), []);
    const b = traceBuilder();
    b.at(7);
    b.trace.push({ seq: 0, kind: 'error', t: 7, message: 'only a stdio server process can be made to crash' });
    assert.deepEqual(traceErrors(b.trace), [{ t: 7, message: 'only a stdio server process can be made to crash' }]);
  });
});

describe('hand-built traces', () => {
  test('a response says what it answers; one with no request is "(unknown id)"; an injected frame is marked', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1);
    b.deliver(b.result('s2c', 1, { content: [] }));
    b.deliver(b.error('s2c', 99, -32603, 'nobody asked', { injected: true }));
    b.frame('c2s', null, { raw: 'not json at all\n' });
    assert.deepEqual(rowTexts(b.trace).slice(3), [
      '3 15→20 client → server | tools/call | 1',
      '4 20→25 server → client | result of tools/call | 1',
      '5 25→30 server → client | error (unknown id) | 99 [injected]',
      '6 30→in flight client → server | (not JSON) | ',
    ]);
  });

  test('a call the server never saw: server "never received"', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1, { deliver: false });
    assert.deepEqual(callViews(b.trace).map(describeCall), ['A slow_count: client RUNNING, server never received']);
  });
});

describe('the run view', () => {
  test('a finished run: connected, the negotiated version, the setting, the findings of the checker', () => {
    const { scenario, trace } = run('seed-000-strict-host-python-v1');
    const view = deriveRunView(scenario, trace);
    assert.equal(view.status, 'connected');
    assert.equal(view.negotiated?.protocolVersion, '2025-11-25');
    assert.equal(view.setting, '2025-11-25 · stdio · server py-v1 (emulated) · client strict-host (emulated)');
    assert.deepEqual(
      view.findings.filter((f) => f.verdict === 'violated').map((f) => `${f.severity} ${f.rule}`),
      ['warning CANCEL-NO-RESPONSE', 'warning CANCEL-IGNORE-LATE-RESPONSE', 'error CANCEL-RACE-GRACEFUL'],
    );
    assert.equal(view.wire.length, wireRows(trace).length);
    assert.deepEqual(view.calls.map(describeCall), callViews(trace).map(describeCall));
    assert.deepEqual(view.holding, { c2s: false, s2c: false });
    assert.equal(view.lastT, trace.at(-1)?.t);
  });

  test('while the server is dead (a prefix of the crash run) it is not connected and has no negotiated version', () => {
    const { scenario, trace } = run('race-r7-server-crash-mid-request');
    const view = deriveRunView(
      scenario,
      trace.filter((e) => e.t < 250),
    );
    assert.equal(view.status, 'crashed');
    assert.equal(view.negotiated, null);
    assert.equal(deriveRunView(scenario, trace).status, 'connected');
  });

  test('holds are read from the trace: hold sets one direction, release clears it', () => {
    const b = traceBuilder();
    b.action({ type: 'hold', dir: 's2c' });
    const { scenario } = run('race-r1-cancel-after-response');
    assert.deepEqual(deriveRunView(scenario, b.trace).holding, { c2s: false, s2c: true });
    b.action({ type: 'release', dir: 's2c' });
    assert.deepEqual(deriveRunView(scenario, b.trace).holding, { c2s: false, s2c: false });
  });
});

describe('after a reconnect, request ids start again: nothing is paired across connections', () => {
  test('a late response on the old connection answers the old request, not the new one with its id', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1);
    b.reconnect();
    handshake(b);
    b.deliver(b.request('c2s', 1, 'ping'));
    // The old server's answer to tools/call 1, written on connection 0 after the reconnect.
    b.result('s2c', 1, { content: [] }, { connection: 0 });
    b.deliver(b.result('s2c', 1, {}));
    assert.deepEqual(rowTexts(b.trace).slice(-3), ['7 35→40 client → server | ping | 1', '8 40→in flight server → client | result of tools/call | 1', '9 40→45 server → client | result of ping | 1']);
  });

  test('a response for an id only the old connection used is for an unknown id', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 7);
    b.reconnect();
    handshake(b);
    b.deliver(b.result('s2c', 7, {}, { injected: true }));
    assert.equal(wireRows(b.trace).at(-1)?.what, 'result (unknown id)');
  });

  test('a call keeps the server states of its own connection: a handler for its id on the next connection is not its', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1);
    b.server(1, null, 'running');
    b.reconnect();
    handshake(b);
    toolCall(b, 'B', 2);
    b.server(2, null, 'running');
    // A handler for id 1 on the new connection (a forged request): not A's.
    b.server(1, null, 'running');
    b.server(1, 'running', 'returned');
    const [a, bee] = callViews(b.trace);
    assert.ok(a && bee);
    assert.deepEqual(
      a.serverHistory.map((h) => h.to),
      ['running'],
    );
    assert.deepEqual(
      bee.serverHistory.map((h) => h.to),
      ['running'],
    );
  });
});

describe('negotiated and the run view after a reconnect', () => {
  test('negotiated: the version of the latest connection', () => {
    const b = traceBuilder();
    b.note('client', { type: 'connected', protocolVersion: '2025-06-18', era: 'legacy' });
    b.at(100).reconnect();
    b.note('client', { type: 'connected', protocolVersion: '2025-11-25', era: 'legacy' });
    assert.deepEqual(negotiated(b.trace), { protocolVersion: '2025-11-25', era: 'legacy', t: 100 });
  });
});

describe('the run view after a strict host reconnects', () => {
  test('while it reconnects it says so and names no version; once connected again, the new connection’s', () => {
    const { scenario, trace } = run('race-r2-strict-host-reconnects');
    const between = deriveRunView(
      scenario,
      trace.filter((e) => e.t <= 450),
    );
    assert.notEqual(between.status, 'connected');
    assert.equal(between.negotiated, null);
    const end = deriveRunView(scenario, trace);
    assert.equal(end.status, 'connected');
    assert.deepEqual(end.negotiated, { protocolVersion: '2025-11-25', era: 'legacy', t: 500 });
  });
});

describe('a wire fault’s copy', () => {
  test('reads as the frame it copies: the duplicate of a result says what it answers', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1);
    const result = b.result('s2c', 1, {});
    const copy = b.frame('s2c', result.msg, { raw: result.raw, injected: true });
    copy.fault = 'duplicated';
    assert.deepEqual(rowTexts(b.trace).slice(-2), ['4 20→in flight server → client | result of tools/call | 1', '5 20→duplicated server → client | result of tools/call | 1 [duplicated] [injected]']);
  });
});
