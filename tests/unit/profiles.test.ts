/**
 * Each profile's behaviour in sdk-behaviors.md §1 cases (a)–(f), on the wire:
 *   (a) cancel of an in-flight request whose handler observes it
 *   (b) cancel of an in-flight request whose handler ignores it and returns later
 *   (c) duplicate cancel            (d) cancel after the response
 *   (e) cancel for an unknown id    (f) a response for an unknown id arrives
 * and the client profiles' own differences. Also the two seed bugs, step by step.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { ClientProfile, Scenario, ServerProfile, Step } from '../../src/scenario/index.ts';
import type { FrameEvent, TraceEvent } from '../../src/trace/index.ts';
import { callViews } from '../../src/views/call-views.ts';
import { assertNoEngineErrors, call, clientStates, framesOf, notesOf, requestIdOf, scenario, serverStates, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

function run(steps: Step[], server: ServerProfile, client: ClientProfile = 'ts-v2', more: Partial<Scenario> = {}): Promise<TraceEvent[]> {
  return runHeadless(scenario(steps, { serverProfile: server, clientProfile: client, endAt: 3000, ...more }), sides);
}

const work = (at: number, id: string, onCancel: string, ms = 300, unwindMs = 0): Step =>
  call(at, id, 'work', { ms, onCancel, unwindMs });
const injectCancel = (at: number, target: { call: string } | { requestId: string | number } | { initialize: true }): Step => ({
  at,
  action: { type: 'inject-cancel', ...target },
});
const responseToServer = (at: number, requestId: number): Step => ({ at, action: { type: 'inject-response', outcome: 'result', to: 'server', requestId } });

/** Frames the server wrote that answer `id` (results or errors). */
function answers(trace: readonly TraceEvent[], id: string | number): FrameEvent[] {
  return framesOf(trace).filter((f) => f.dir === 's2c' && f.msg?.id === id && f.msg.method === undefined);
}

function serverCrashed(trace: readonly TraceEvent[]): boolean {
  return notesOf(trace, 'server-exited').length > 0;
}

describe('TypeScript SDK v2 server (real)', () => {
  test('(a) observed cancel: no response', async () => {
    const trace = await run([work(20, 'A', 'observe'), stop(100, 'A')], 'ts-v2');
    assertNoEngineErrors(trace);
    assert.deepEqual(answers(trace, requestIdOf(trace, 'A')), []);
  });
  test('(b) ignored cancel, handler returns later: still no response', async () => {
    const trace = await run([work(20, 'A', 'ignore'), stop(100, 'A')], 'ts-v2');
    const id = requestIdOf(trace, 'A');
    assert.ok(notesOf(trace, 'handler-returned').some((n) => n.note.requestId === id && n.note.aborted && n.t === 325));
    assert.deepEqual(answers(trace, id), []);
  });
  test('(c)(d)(e) duplicate, late and unknown cancels are silent no-ops', async () => {
    const trace = await run(
      [work(20, 'A', 'observe'), stop(100, 'A'), injectCancel(110, { call: 'A' }), call(200, 'Q', 'quick'), injectCancel(300, { call: 'Q' }), injectCancel(310, { requestId: 9999 })],
      'ts-v2',
    );
    assertNoEngineErrors(trace);
    assert.deepEqual(answers(trace, requestIdOf(trace, 'A')), []);
    assert.equal(answers(trace, requestIdOf(trace, 'Q')).length, 1);
    assert.equal(framesOf(trace).filter((f) => f.dir === 's2c' && f.t >= 300).length, 0, 'nothing answers the late or unknown cancels');
    assert.deepEqual(notesOf(trace, 'server-onerror'), []);
  });
  test('(f) a response for an unknown id goes to onerror; the connection stays', async () => {
    const trace = await run([responseToServer(50, 4242), call(100, 'Q', 'quick')], 'ts-v2');
    assert.match(notesOf(trace, 'server-onerror')[0]?.note.message ?? '', /unknown message ID/);
    assert.equal(clientStates(trace, 'Q').at(-1)?.to, 'SUCCEEDED');
  });
});

describe('python-sdk 1.x server (emulated)', () => {
  test('(a) slow_count + Stop: exactly one code-0 error response with the call id, and no crash', async () => {
    const trace = await run([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(250, 'A')], 'py-v1');
    assertNoEngineErrors(trace);
    const id = requestIdOf(trace, 'A');
    const errs = answers(trace, id);
    assert.equal(errs.length, 1);
    assert.equal(errs[0]?.raw, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":0,"message":"Request cancelled"}}\n`);
    assert.equal(errs[0]?.t, 255, 'sent the moment the cancel arrives');
    assert.equal(serverCrashed(trace), false);
    // The client had stopped waiting: the code-0 response is a late response, ignored.
    assert.equal(clientStates(trace, 'A').at(-1)?.because, 'ignored: arrived after Stop');
  });
  test('(b) seed 004: swallowing handler + Stop → code-0 response, then AssertionError crash, then Connection closed', async () => {
    const trace = await run([work(20, 'A', 'swallow', 1000), call(30, 'B', 'stubborn', { ms: 500 }), stop(100, 'A'), call(300, 'C', 'quick')], 'py-v1');
    assertNoEngineErrors(trace);
    const id = requestIdOf(trace, 'A');
    assert.equal(answers(trace, id)[0]?.msg?.error?.code, 0);
    const exit = notesOf(trace, 'server-exited')[0];
    assert.equal(exit?.note.code, 1);
    assert.equal(exit?.t, 105);
    assert.ok(notesOf(trace, 'stderr').some((n) => n.note.text.includes('AssertionError: Request already responded to')));
    assert.equal(serverStates(trace, id).at(-1)?.to, 'crashed');
    // The call in flight on the dead connection fails; so does the next one.
    const b = notesOf(trace, 'call-settled').find((n) => n.note.call === 'B');
    assert.match(b?.note.message ?? '', /Connection closed/);
    assert.equal(b?.t, 110, 'when the EOF reaches the client');
    assert.equal(clientStates(trace, 'C').at(-1)?.to, 'FAILED');
    assert.deepEqual(answers(trace, requestIdOf(trace, 'B')), [], 'stubborn never answers: its process is gone');
  });
  test('(b) a handler in non-cancellable work (ignore) returns normally → the same crash', async () => {
    const trace = await run([work(20, 'A', 'ignore', 300), stop(100, 'A')], 'py-v1');
    assert.equal(notesOf(trace, 'server-exited')[0]?.t, 325);
  });
  test('(a) a handler that unwinds on the cancel: "duplicate response suppressed", no crash', async () => {
    const trace = await run([work(20, 'A', 'observe'), stop(100, 'A'), call(200, 'Q', 'quick')], 'py-v1');
    assert.equal(serverCrashed(trace), false);
    assert.equal(clientStates(trace, 'Q').at(-1)?.to, 'SUCCEEDED');
  });
  test('(c) a second cancel while the handler cannot unwind → a second code-0 response for the same id', async () => {
    const trace = await run([work(20, 'A', 'shield', 300, 200), stop(100, 'A'), injectCancel(150, { call: 'A' })], 'py-v1');
    const id = requestIdOf(trace, 'A');
    assert.deepEqual(
      answers(trace, id).map((f) => [f.t, f.msg?.error?.code]),
      [
        [105, 0],
        [155, 0],
      ],
    );
    assert.equal(serverCrashed(trace), false, 'the shielded handler unwinds on CancelledError afterwards');
  });
  test('(c) a duplicate cancel after an observing handler unwound → ignored (one response)', async () => {
    const trace = await run([work(20, 'A', 'observe'), stop(100, 'A'), injectCancel(150, { call: 'A' })], 'py-v1');
    assert.equal(answers(trace, requestIdOf(trace, 'A')).length, 1);
  });
  test('(d)(e) cancel after the response, or for an unknown id: silent', async () => {
    const trace = await run([call(20, 'Q', 'quick'), injectCancel(100, { call: 'Q' }), injectCancel(120, { requestId: 9999 })], 'py-v1');
    assert.equal(answers(trace, requestIdOf(trace, 'Q')).length, 1);
    assert.equal(framesOf(trace).filter((f) => f.dir === 's2c' && f.t >= 100).length, 0);
  });
  test('(e) ids match exactly: a cancel naming "1" does not reach request 1', async () => {
    const trace = await run([work(20, 'A', 'observe', 300), injectCancel(100, { requestId: '1' })], 'py-v1');
    assert.equal(requestIdOf(trace, 'A'), 1);
    assert.deepEqual(answers(trace, 1).map((f) => f.msg?.result !== undefined), [true], 'the handler ran to the end and answered');
  });
  test('(f) a response with an unknown id → notifications/message "Internal Server Error"', async () => {
    const trace = await run([responseToServer(50, 4242)], 'py-v1');
    const message = framesOf(trace).find((f) => f.msg?.method === 'notifications/message');
    assert.deepEqual(message?.msg?.params, { level: 'error', logger: 'mcp.server.exception_handler', data: 'Internal Server Error' });
    assert.deepEqual(notesOf(trace, 'server-onerror'), []);
  });
});

describe('python-sdk 2.x server (emulated)', () => {
  test('(a)(b) never answers a cancelled request, and survives a handler that returns late', async () => {
    const trace = await run([work(20, 'A', 'swallow', 1000), stop(100, 'A'), call(300, 'Q', 'quick')], 'py-v2');
    assert.deepEqual(answers(trace, requestIdOf(trace, 'A')), []);
    assert.equal(serverCrashed(trace), false);
    assert.equal(clientStates(trace, 'Q').at(-1)?.to, 'SUCCEEDED');
  });
  test('(e) ids are coerced: a cancel naming "1" reaches request 1', async () => {
    const trace = await run([work(20, 'A', 'observe', 300), injectCancel(100, { requestId: '1' })], 'py-v2');
    assert.deepEqual(answers(trace, 1), []);
    assert.ok(notesOf(trace, 'handler-cancel-seen').some((n) => n.note.requestId === 1 && n.t === 105));
  });
  test('(f) a late or unknown response is dropped with a DEBUG line', async () => {
    const trace = await run([responseToServer(50, 4242)], 'py-v2');
    assert.ok(notesOf(trace, 'stderr').some((n) => n.note.text === 'DEBUG:mcp.shared.jsonrpc_dispatcher:dropping response for unknown/late request id 4242'));
    assert.deepEqual(notesOf(trace, 'server-onerror'), []);
    assert.equal(framesOf(trace).filter((f) => f.dir === 's2c' && f.t >= 50).length, 0);
  });
});

describe('TypeScript SDK v1 server (real, 1.32.2)', () => {
  test('(a) a cancel aborts the handler and nothing is written for it', async () => {
    const trace = await run([work(20, 'A', 'observe', 300), stop(100, 'A')], 'ts-v1');
    const id = requestIdOf(trace, 'A');
    assert.equal(id, 1, 'initialize took id 0');
    assert.equal(notesOf(trace, 'handler-cancel-seen').find((n) => n.note.requestId === id)?.t, 105);
    assert.deepEqual(answers(trace, id), []);
  });
  test('(b) progress the handler sends after its cancel is dropped; the v2 server writes it', async () => {
    const steps = [call(20, 'A', 'slow_count', { steps: 4, stepMs: 100, onCancel: 'ignore' }), stop(150, 'A')];
    const progressAfterCancel = (trace: readonly TraceEvent[]): number[] =>
      framesOf(trace).flatMap((f) => (f.dir === 's2c' && f.msg?.method === 'notifications/progress' && f.t > 155 ? [f.t] : []));
    assert.deepEqual(progressAfterCancel(await run(steps, 'ts-v1')), []);
    assert.deepEqual(progressAfterCancel(await run(steps, 'ts-v2')), [225, 325, 425]);
  });
  test('it answers the revision the v2 client pins, over sessionful Streamable HTTP too', async () => {
    const trace = await run([work(20, 'A', 'observe', 300), stop(100, 'A')], 'ts-v1', 'ts-v2', { revision: '2025-03-26', transport: 'streamable-http', httpServer: 'sessionful' });
    assertNoEngineErrors(trace);
    assert.equal(notesOf(trace, 'connected')[0]?.note.protocolVersion, '2025-03-26');
    assert.ok(notesOf(trace, 'handler-cancel-seen').some((n) => n.note.requestId === requestIdOf(trace, 'A')));
    assert.deepEqual(answers(trace, requestIdOf(trace, 'A')), []);
  });
});

describe('client profiles', () => {
  test('strict host + python-sdk 1.x (seed 000): the code-0 response closes the transport, a new initialize follows', async () => {
    const trace = await run([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), call(30, 'B', 'stubborn', { ms: 500 }), stop(250, 'A'), call(600, 'C', 'quick')], 'py-v1', 'strict-host');
    assertNoEngineErrors(trace);
    const codeZero = answers(trace, requestIdOf(trace, 'A'))[0];
    assert.equal(codeZero?.msg?.error?.code, 0);
    assert.ok(notesOf(trace, 'stderr').some((n) => n.side === 'client' && /^Connection error: Received a response for an unknown message ID/.test(n.note.text)));
    const eof = framesOf(trace).find((f) => f.dir === 'c2s' && f.eof);
    assert.equal(eof?.t, 260, 'the host closes stdin as soon as the response arrives');
    const inits = framesOf(trace).filter((f) => f.msg?.method === 'initialize');
    assert.deepEqual(inits.map((f) => [f.t, f.connection]), [[0, 0], [260, 1]]);
    assert.match(notesOf(trace, 'call-settled').find((n) => n.note.call === 'B')?.note.message ?? '', /Connection closed/, 'the call in flight fails');
    assert.equal(clientStates(trace, 'C').at(-1)?.to, 'SUCCEEDED', 'the new connection works');
  });
  test('strict host + TypeScript SDK v2 server: nothing unknown arrives, nothing is closed', async () => {
    const trace = await run([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(250, 'A')], 'ts-v2', 'strict-host');
    assert.equal(framesOf(trace).filter((f) => f.msg?.method === 'initialize').length, 1);
  });
  test('TypeScript SDK v2 client: an unknown-id response goes to onerror; the connection stays', async () => {
    const trace = await run([{ at: 50, action: { type: 'inject-response', outcome: 'result', requestId: 77 } }, call(100, 'Q', 'quick')], 'ts-v2');
    assert.match(notesOf(trace, 'client-onerror')[0]?.note.message ?? '', /unknown message ID/);
    assert.equal(clientStates(trace, 'Q').at(-1)?.to, 'SUCCEEDED');
  });
  test('python-sdk 1.x client: Stop sends nothing; the late result is a RuntimeError the default handler ignores', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 200 }), stop(100, 'A')], 'ts-v2', 'py-v1');
    assert.deepEqual(framesOf(trace).filter((f) => f.msg?.method === 'notifications/cancelled'), []);
    assert.equal(clientStates(trace, 'A').at(-1)?.to, 'STOPPED_LOCALLY');
    assert.ok(notesOf(trace, 'stderr').some((n) => n.side === 'client' && n.note.text.includes('RuntimeError: Received response with an unknown request ID')));
    assert.deepEqual(notesOf(trace, 'client-onerror'), []);
  });
  test('python-sdk 1.x client: a timeout fails the call locally with code 408 and sends no cancel', async () => {
    const trace = await run([{ at: 20, action: { type: 'call', call: 'A', tool: 'stubborn', args: { ms: 500 }, timeoutMs: 100 } }], 'ts-v2', 'py-v1');
    const settled = notesOf(trace, 'call-settled').find((n) => n.note.call === 'A');
    assert.equal(settled?.note.code, 408);
    assert.equal(settled?.t, 120);
    assert.deepEqual(framesOf(trace).filter((f) => f.msg?.method === 'notifications/cancelled'), []);
  });
  test('TypeScript SDK v1 client: Stop after the call finished cancels an answered id; the real v2 sends nothing', async () => {
    const steps = [call(20, 'Q', 'quick'), stop(100, 'Q')];
    const v1 = await run(steps, 'ts-v2', 'ts-v1');
    const cancels = framesOf(v1).filter((f) => f.msg?.method === 'notifications/cancelled');
    assert.deepEqual(cancels.map((f) => [f.t, f.msg?.params?.requestId]), [[100, requestIdOf(v1, 'Q')]]);
    const v2 = await run(steps, 'ts-v2', 'ts-v2');
    assert.deepEqual(framesOf(v2).filter((f) => f.msg?.method === 'notifications/cancelled'), []);
  });
  test('TypeScript SDK v1 client: timeout then Stop sends two cancels for one id', async () => {
    const trace = await run([{ at: 20, action: { type: 'call', call: 'A', tool: 'stubborn', args: { ms: 500 }, timeoutMs: 100 } }, stop(200, 'A')], 'ts-v2', 'ts-v1');
    const cancels = framesOf(trace).filter((f) => f.msg?.method === 'notifications/cancelled');
    assert.deepEqual(cancels.map((f) => f.t), [120, 200]);
    assert.equal(new Set(cancels.map((f) => f.msg?.params?.requestId)).size, 1);
  });
  test('TypeScript SDK v1 client: a connect timeout also cancels initialize; v2 does not', async () => {
    const slow = { latency: { c2s: 5, s2c: 200 }, connectTimeoutMs: 100 };
    const v1 = await run([], 'ts-v2', 'ts-v1', slow);
    const cancel = framesOf(v1).find((f) => f.msg?.method === 'notifications/cancelled');
    assert.equal(cancel?.msg?.params?.requestId, 0);
    assert.equal(cancel?.t, 100);
    const v2 = await run([], 'ts-v2', 'ts-v2', slow);
    assert.deepEqual(framesOf(v2).filter((f) => f.msg?.method === 'notifications/cancelled'), []);
  });
  test('TypeScript SDK v1 client: a call in flight when the server dies fails with McpError -32000, and the calls table says it was lost', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 500 }), { at: 100, action: { type: 'crash-server' } }], 'ts-v1', 'ts-v1');
    assert.equal(notesOf(trace, 'call-settled').find((n) => n.note.call === 'A')?.note.message, 'MCP error -32000: Connection closed');
    assert.equal(callViews(trace).find((c) => c.call === 'A')?.lost, true);
  });
  test('TypeScript SDK v1 client: Stop rejects with McpError -32001, as a timeout does', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 500 }), stop(100, 'A')], 'ts-v2', 'ts-v1');
    const settled = notesOf(trace, 'call-settled').find((n) => n.note.call === 'A');
    assert.equal(settled?.note.code, -32001);
    assert.equal(settled?.note.message, 'MCP error -32001: user pressed Stop');
  });
  test('TypeScript SDK v1 client: maxTotalTimeout rejects without a cancel, and the timer it leaves armed sends one later', async () => {
    const steps: Step[] = [
      { at: 20, action: { type: 'call', call: 'A', tool: 'slow_count', args: { steps: 8, stepMs: 100 }, timeoutMs: 300, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 250 } },
    ];
    const cancels = (trace: readonly TraceEvent[]): number[] => framesOf(trace).flatMap((f) => (f.msg?.method === 'notifications/cancelled' ? [f.t] : []));
    const v1 = await run(steps, 'ts-v2', 'ts-v1');
    assert.equal(notesOf(v1, 'call-settled').find((n) => n.note.call === 'A')?.t, 330);
    // Rejected at 330 ms by the progress of 230 + 100; the request timer re-armed at 230 ms for 300 ms still fires.
    assert.deepEqual(cancels(v1), [530]);
    assert.deepEqual(cancels(await run(steps, 'ts-v2', 'ts-v2')), []);
  });
});

describe('faults', () => {
  test('a dropped cancel: the server never hears of it and answers; the client ignores the answer', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 200 }), stop(50, 'A')], 'ts-v2', 'ts-v2', {
      faults: [{ dir: 'c2s', action: 'drop', match: 'notifications/cancelled' }],
    });
    const cancel = framesOf(trace).find((f) => f.msg?.method === 'notifications/cancelled');
    assert.equal(cancel?.fault, 'dropped');
    assert.equal(cancel?.deliverAt, null);
    assert.equal(answers(trace, requestIdOf(trace, 'A')).length, 1);
  });
  test('a delayed cancel overtaken by the result (race R1): the cancel arrives after the response, and is ignored', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 100 }), stop(60, 'A')], 'ts-v2', 'ts-v2', {
      faults: [{ dir: 'c2s', action: 'delay', match: 'notifications/cancelled', ms: 200 }],
    });
    const cancel = framesOf(trace).find((f) => f.msg?.method === 'notifications/cancelled');
    assert.equal(cancel?.deliverAt, 60 + 5 + 200);
    assert.equal(answers(trace, requestIdOf(trace, 'A'))[0]?.t, 125);
  });
  test('a duplicated frame is marked injected', async () => {
    const trace = await run([call(20, 'A', 'work', { ms: 100, onCancel: 'observe' }), stop(50, 'A')], 'ts-v2', 'ts-v2', {
      faults: [{ dir: 'c2s', action: 'duplicate', match: 'notifications/cancelled' }],
    });
    const cancels = framesOf(trace).filter((f) => f.msg?.method === 'notifications/cancelled');
    assert.deepEqual(cancels.map((f) => [f.injected ?? false, f.fault ?? null]), [[false, null], [true, 'duplicated']]);
  });
  test('hold and release: frames wait, then arrive one latency after the release, in order', async () => {
    const trace = await run(
      [{ at: 15, action: { type: 'hold', dir: 's2c' } }, call(20, 'A', 'slow_count', { steps: 2, stepMs: 50 }), { at: 300, action: { type: 'release', dir: 's2c' } }],
      'ts-v2',
    );
    const held = framesOf(trace).filter((f) => f.dir === 's2c' && f.fault === 'held');
    assert.equal(held.length, 3, 'two progress notifications and the result');
    const deliveries = trace.filter((e) => e.kind === 'delivery' && held.some((f) => f.frame === e.frame));
    assert.deepEqual(deliveries.map((d) => d.t), [305, 305, 305]);
    assert.equal(clientStates(trace, 'A').at(-1)?.t, 305);
  });
  test('crash the server, then restart it: calls in flight are lost, a new connection works', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 500 }), { at: 100, action: { type: 'crash-server' } }, { at: 200, action: { type: 'reconnect' } }, call(300, 'B', 'quick')], 'ts-v2');
    assertNoEngineErrors(trace);
    assert.equal(notesOf(trace, 'server-exited')[0]?.note.code, 137);
    assert.match(notesOf(trace, 'call-settled').find((n) => n.note.call === 'A')?.note.message ?? '', /Connection closed/);
    assert.equal(clientStates(trace, 'B').at(-1)?.to, 'SUCCEEDED');
    assert.deepEqual(
      trace.filter((e) => e.kind === 'connection' && ['connected', 'crashed', 'disconnected', 'reconnecting'].includes(e.event)).map((e) => (e.kind === 'connection' ? e.event : '')),
      ['connected', 'crashed', 'disconnected', 'reconnecting', 'connected'],
    );
  });
  test('disconnect: the client closes stdin; its calls in flight fail', async () => {
    const trace = await run([call(20, 'A', 'stubborn', { ms: 500 }), { at: 100, action: { type: 'disconnect' } }], 'ts-v2');
    assert.ok(framesOf(trace).some((f) => f.dir === 'c2s' && f.eof && f.t === 100));
    assert.equal(clientStates(trace, 'A').at(-1)?.to, 'FAILED');
  });
});
