/**
 * Streams that resume and sessions that expire, read off the wire of runs with the real SDK v2
 * (issue 15 §4): the priming event's id and retry, the GET that resumes with Last-Event-ID (or,
 * typescript-sdk #2499, without it), the 404 for an expired session and who sends a new
 * initialize after it, and a batch that holds a request and its cancel.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { LIBRARY } from '../../src/scenario/library.ts';
import { requestBody, type FrameEvent, type HandlerNote, type TraceEvent } from '../../src/trace/index.ts';
import { wireRows } from '../../src/views/wire-rows.ts';
import { assertNoEngineErrors, framesOf, notesOf } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

async function run(id: string): Promise<TraceEvent[]> {
  const entry = LIBRARY.find((e) => e.id === id) ?? assert.fail(`${id} is in the library`);
  const trace = await runHeadless(entry.scenario, sides);
  assertNoEngineErrors(trace);
  return trace;
}

const requests = (trace: readonly TraceEvent[], method: string): FrameEvent[] => framesOf(trace).filter((f) => f.http?.part === 'request' && f.http.method === method);
const headOf = (trace: readonly TraceEvent[], stream: number): FrameEvent | undefined => framesOf(trace).find((f) => f.http?.part === 'response-head' && f.http.stream === stream);
const chunksOf = (trace: readonly TraceEvent[], stream: number): FrameEvent[] => framesOf(trace).filter((f) => f.http?.part === 'chunk' && f.http.stream === stream);
function settled(trace: readonly TraceEvent[], call: string): { t: number; note: Extract<HandlerNote, { type: 'call-settled' }> } {
  return notesOf(trace, 'call-settled').find((e) => e.note.call === call) ?? assert.fail(`call ${call} settled`);
}

describe('a stream the server closes mid-request, resumed (2025-11-25)', () => {
  test('the priming event carries an id and the retry, and the client resumes with the last id it saw, after the retry', async () => {
    const trace = await run('stream-resumes-after-server-close-2025-11-25');
    const post = requests(trace, 'POST').find((f) => f.msg?.method === 'tools/call') ?? assert.fail('the tools/call POST');
    const stream = post.http?.stream ?? assert.fail('on a stream');
    const [priming, progress] = chunksOf(trace, stream);
    assert.equal(priming?.raw, 'id: s2.1\nretry: 200\ndata: \n\n');
    assert.match(progress?.raw ?? '', /^event: message\nid: s2\.2\ndata: \{.*"notifications\/progress"/);
    const end = framesOf(trace).find((f) => f.http?.part === 'end' && f.http.stream === stream) ?? assert.fail('the server ends the stream');
    assert.equal(end.t, 150, 'closed by the close-stream step, before the response');
    const resume = requests(trace, 'GET').find((f) => f.http?.headers?.['last-event-id'] !== undefined) ?? assert.fail('a GET with Last-Event-ID');
    assert.equal(resume.http?.headers?.['last-event-id'], 's2.2');
    assert.equal(resume.t, 155 + 200, 'sent when the close reached the client plus the retry');
    const replayed = chunksOf(trace, resume.http?.stream ?? -1);
    assert.deepEqual(
      replayed.map((f) => /^id: (.*)$/m.exec(f.raw)?.[1]),
      ['s2.3', 's2.4', 's2.5', 's2.6', 's2.7', 's2.8'],
      'the events the client missed, then the rest, on the resumed stream',
    );
    assert.equal(replayed.at(-1)?.msg?.id, post.msg?.id, 'the response comes on the resumed stream');
    assert.equal(settled(trace, 'A').note.outcome, 'result');
  });

  test('the wire log names the SSE id and retry and the GET that resumes', async () => {
    const rows = wireRows(await run('stream-resumes-after-server-close-2025-11-25'));
    assert.ok(rows.some((r) => r.framing === 'SSE id: s2.1 · retry: 200'), rows.map((r) => r.framing).join(' | '));
    assert.ok(rows.some((r) => r.framing === 'SSE event: message · id: s2.2'));
    assert.ok(rows.some((r) => r.framing === 'GET /mcp · resume after s2.2'));
  });
});

describe('typescript-sdk #2499: a resumed stream closed before any event with an id', () => {
  test('the next reconnect GET carries no Last-Event-ID, the server refuses it as a second standalone stream, and the call hangs until its timeout', async () => {
    const trace = await run('reported-ts2499-resumed-stream-loses-last-event-id');
    const gets = requests(trace, 'GET');
    // The standalone GET after initialized, the first resume, then the reconnects of the resumed stream.
    assert.deepEqual(
      gets.map((g) => g.http?.headers?.['last-event-id'] ?? null),
      [null, 's2.1', null, null],
    );
    for (const g of gets.slice(2)) assert.equal(headOf(trace, g.http?.stream ?? -1)?.http?.status, 409);
    assert.ok(notesOf(trace, 'client-onerror').some((e) => e.note.message === 'Maximum reconnection attempts (2) exceeded.'));
    const result = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === 1 && f.msg.method === undefined);
    assert.equal(result, undefined, 'the result never reaches the wire');
    const a = settled(trace, 'A');
    assert.equal(a.note.code, 'REQUEST_TIMEOUT');
    assert.equal(a.t, 5020, 'the 5 s timeout of the call made at 20 ms');
  });
});

describe('a session that expires mid-call', () => {
  test('the real v2 client gets 404 for its session and never sends a new initialize; the call in flight waits for its timeout', async () => {
    const trace = await run('session-expires-mid-call-client-never-reinitializes');
    const after404 = framesOf(trace).filter((f) => f.t > 150 && f.http?.part === 'request');
    assert.ok(after404.length >= 2);
    for (const f of after404) {
      assert.equal(f.http?.headers?.['mcp-session-id'], 'session-1', 'the dead session id is kept');
      assert.equal(headOf(trace, f.http?.stream ?? -1)?.http?.status, 404);
    }
    assert.equal(framesOf(trace).filter((f) => f.msg?.method === 'initialize').length, 1, 'no second initialize');
    assert.match(settled(trace, 'B').note.message ?? '', /^Error POSTing to endpoint: .*Session not found/);
    assert.equal(settled(trace, 'A').note.code, 'REQUEST_TIMEOUT');
    assert.ok(trace.some((e) => e.kind === 'connection' && e.event === 'session-expired' && e.t === 150));
  });

  test('the strict host answers the 404 with an initialize without a session id, and the next call works on the new session', async () => {
    const trace = await run('strict-host-reinitializes-after-session-expiry');
    const inits = framesOf(trace).filter((f) => f.msg?.method === 'initialize');
    assert.equal(inits.length, 2);
    assert.equal(inits[1]?.http?.headers?.['mcp-session-id'], undefined, 'a new initialize carries no session id');
    assert.ok(framesOf(trace).some((f) => f.http?.part === 'response-head' && f.http.headers?.['mcp-session-id'] === 'session-2'));
    assert.equal(settled(trace, 'C').note.outcome, 'result');
  });

  test('claude-code #94273: when the re-initialize gets a 404 too, later calls fail without touching the wire', async () => {
    const trace = await run('reported-claude-code-94273-one-404-loses-the-server');
    const inits = framesOf(trace).filter((f) => f.msg?.method === 'initialize');
    assert.equal(inits.length, 2);
    assert.equal(headOf(trace, inits[1]?.http?.stream ?? -1)?.http?.status, 404);
    const c = settled(trace, 'C').note;
    assert.equal(c.message, 'MCP server "cancel-lab-server" is not connected');
    assert.equal(c.unsent, true);
    assert.equal(framesOf(trace).filter((f) => f.t >= 500).length, 0, 'nothing is written after the server is marked lost');
  });
});

describe('a 2025-03-26 batch holding a request and its cancel', () => {
  test('one POST carries both; the real v2 server opens an SSE stream, its handler starts cancelled, and nothing answers the request', async () => {
    const trace = await run('batch-holds-a-request-and-its-cancel-2025-03-26');
    const post = framesOf(trace).find((f) => f.injected === true) ?? assert.fail('the forged POST');
    const body: unknown = JSON.parse(requestBody(post));
    assert.ok(Array.isArray(body));
    assert.deepEqual(
      body.map((m: { method?: string }) => m.method),
      ['tools/call', 'notifications/cancelled'],
    );
    const stream = post.http?.stream ?? -1;
    assert.equal(headOf(trace, stream)?.http?.headers?.['content-type'], 'text/event-stream');
    assert.equal(framesOf(trace).filter((f) => f.dir === 's2c' && f.msg?.id === 'batch-1').length, 0, 'no response for batch-1');
    const started = trace.findIndex((e) => e.kind === 'handler' && e.note.type === 'handler-started');
    const seen = trace.findIndex((e) => e.kind === 'handler' && e.note.type === 'handler-cancel-seen');
    assert.ok(started >= 0 && seen > started && trace[seen]?.t === trace[started]?.t, 'the handler sees the cancel as it starts');
  });
});
