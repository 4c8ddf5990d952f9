/**
 * The python-sdk 2.x client and the Go SDK server emulations, read off the wire: what each
 * writes when a call is cancelled, and what the other side then sees.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry, profileWhyNot, type ClientProfile, type ServerProfile, type Step } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { assertNoEngineErrors, call, framesOf, framesWithMethod, inject, notesOf, responsesFor, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

async function run(steps: Step[], clientProfile: ClientProfile, serverProfile: ServerProfile = 'ts-v2'): Promise<TraceEvent[]> {
  const trace = await runHeadless(scenario(steps, { clientProfile, serverProfile, endAt: 3000 }), sides);
  assertNoEngineErrors(trace);
  return trace;
}

const cancels = (trace: readonly TraceEvent[]): unknown[] => framesWithMethod(trace, 'notifications/cancelled', 'c2s').map((f) => f.msg?.params);
const settled = (trace: readonly TraceEvent[], call: string): Record<string, unknown> | undefined => notesOf(trace, 'call-settled').find((n) => n.note.call === call)?.note;

describe('python-sdk 2.x client (emulated)', () => {
  test('Stop sends a courtesy cancel "caller cancelled" and the call ends in CancelledError, without a code', async () => {
    const trace = await run([call(20, 'A', 'work', { ms: 1000, onCancel: 'observe' }), stop(200, 'A')], 'py-v2');
    assert.deepEqual(cancels(trace), [{ requestId: 1, reason: 'caller cancelled' }]);
    const a = settled(trace, 'A');
    assert.equal(a?.message, 'CancelledError: the caller cancelled the call');
    assert.equal(a?.code, undefined);
  });

  test('a timeout sends a courtesy cancel "timed out after 0.5s" and fails with MCPError -32001', async () => {
    const timed: Step = { at: 20, action: { type: 'call', call: 'A', tool: 'work', args: { ms: 2000, onCancel: 'ignore' }, timeoutMs: 500 } };
    const trace = await run([timed], 'py-v2');
    assert.deepEqual(cancels(trace), [{ requestId: 1, reason: 'timed out after 0.5s' }]);
    assert.deepEqual([settled(trace, 'A')?.code, settled(trace, 'A')?.message], [-32001, "Request 'tools/call' timed out"]);
  });

  test('a late response is dropped with a DEBUG line, not reported to onerror', async () => {
    const trace = await run([call(20, 'A', 'work', { ms: 1000, onCancel: 'observe' }), stop(200, 'A'), inject(300, 'A')], 'py-v2');
    assert.equal(notesOf(trace, 'client-onerror').length, 0);
    assert.ok(notesOf(trace, 'stderr').some((n) => n.note.text.includes('dropping response for unknown/late request id 1')));
  });

  test('the TypeScript v2 client, by contrast, gives its own abort reason', async () => {
    const trace = await run([call(20, 'A', 'work', { ms: 1000, onCancel: 'observe' }), stop(200, 'A')], 'ts-v2');
    assert.deepEqual(cancels(trace), [{ requestId: 1, reason: 'user pressed Stop' }]);
  });
});

describe('Go SDK server (emulated)', () => {
  test('a handler that stops on the cancel is still answered, with an isError "context canceled"', async () => {
    const trace = await run([call(20, 'A', 'work', { ms: 1000, onCancel: 'observe' }), stop(200, 'A')], 'ts-v2', 'go');
    const [answer, ...more] = responsesFor(trace, 1);
    assert.equal(more.length, 0);
    assert.deepEqual(answer?.msg?.result, { content: [{ type: 'text', text: 'context canceled' }], isError: true });
    assert.ok(notesOf(trace, 'client-onerror').some((n) => n.note.message.startsWith('Received a response for an unknown message ID')));
  });

  test('a handler that ignores the cancel has its full result written', async () => {
    const trace = await run([call(20, 'A', 'work', { ms: 300, onCancel: 'ignore' }), stop(100, 'A')], 'ts-v2', 'go');
    assert.deepEqual(responsesFor(trace, 1).map((f) => f.msg?.result), [{ content: [{ type: 'text', text: 'finished 300 ms of work' }] }]);
  });

  test('a call nobody cancelled is answered once, as by any server', async () => {
    const trace = await run([call(20, 'A', 'quick')], 'ts-v2', 'go');
    assert.equal(responsesFor(trace, 1).length, 1);
  });
});

describe('Go SDK server on 2026-07-28 Streamable HTTP (emulated admission, go-sdk #1212)', () => {
  test('a cancel POSTed without the _meta envelope gets HTTP 400 and a JSON-RPC error without id; the v2 client goes on', async () => {
    const entry = libraryEntry('go-sdk-1212-cancel-without-meta-refused-with-400');
    assert.ok(entry);
    const trace = await runHeadless(entry.scenario, sides);
    assertNoEngineErrors(trace);
    const [cancel] = framesWithMethod(trace, 'notifications/cancelled', 'c2s');
    const stream = cancel?.http?.stream;
    assert.ok(stream !== undefined);
    const answer = framesOf(trace).filter((f) => f.dir === 's2c' && f.http?.stream === stream);
    assert.equal(answer.find((f) => f.http?.part === 'response-head')?.http?.status, 400);
    const body = answer.find((f) => f.msg !== null)?.msg;
    assert.equal(body?.id, undefined, 'the error answers a notification: it has no id');
    assert.equal(body?.error?.code, -32602);
    assert.equal(framesWithMethod(trace, 'notifications/cancelled', 'c2s').length, 1, 'the v2 client itself POSTs no cancel: its Stop closes the stream');
    assert.equal(settled(trace, 'B')?.outcome, 'result', 'and its connection is not poisoned');
  });

  test('a cancel with the envelope, or any other POST, reaches the real server', async () => {
    const trace = await runHeadless(scenario([call(20, 'A', 'quick')], { revision: '2026-07-28', transport: 'streamable-http', httpServer: 'stateless', serverProfile: 'go', endAt: 500 }), sides);
    assert.ok(framesOf(trace).every((f) => f.http?.status === undefined || f.http.status === 200));
  });
});

test('both emulations wrap stdio and the 2025-era protocol only', () => {
  assert.match(profileWhyNot('2026-07-28', 'stdio', 'go', 'ts-v2') ?? '', /Go SDK server emulation/);
  assert.match(profileWhyNot('2026-07-28', 'stdio', 'ts-v2', 'py-v2') ?? '', /python-sdk 2\.x client emulation/);
  assert.match(profileWhyNot('2025-11-25', 'streamable-http', 'go', 'ts-v2') ?? '', /stdio/);
  assert.equal(profileWhyNot('2026-07-28', 'streamable-http', 'go', 'ts-v2'), null, 'except the Go emulation of a 2026-07-28 notification POST');
  assert.equal(profileWhyNot('2024-11-05', 'stdio', 'go', 'py-v2'), null);
});
