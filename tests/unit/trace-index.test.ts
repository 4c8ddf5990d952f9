/**
 * The trace index's per-frame and per-call answers (src/trace/trace-index.ts), on hand-built
 * traces: what a frame carries and what it pairs with, a wire fault's copy, which call a
 * tools/call carries, and the server handler's steps per connection across a reconnect.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { frameEntry, indexTrace, serverStatesOf } from '../../src/trace/trace-index.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';

describe('the trace index', () => {
  test('per frame: a response its request, a cancel its target, an abort the request its stream carried', () => {
    const b = traceBuilder();
    handshake(b);
    const call = toolCall(b, 'A', 1);
    const cancel = b.cancel('c2s', 1);
    const result = b.result('s2c', 1);
    const post = b.post(4, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_count' } });
    const abort = b.abort(4);
    const idx = indexTrace(b.trace);
    assert.equal(frameEntry(idx, result.frame)?.responses[0]?.req?.frame, call);
    assert.equal(frameEntry(idx, cancel.frame)?.cancels[0]?.target?.frame, call);
    assert.equal(frameEntry(idx, abort.frame)?.abort?.target?.frame, post);
    assert.deepEqual(frameEntry(idx, call.frame)?.requests.map((r) => r.method), ['tools/call']);
  });

  test('a forged answer or cancel is indexed, but not as the SDK’s own: the SDK’s first answer after a forged one is its first', () => {
    const b = traceBuilder();
    handshake(b);
    const call = toolCall(b, 'A', 1);
    const forgedCancel = b.cancel('c2s', 1, { injected: true });
    const forged = b.result('s2c', 1, {}, { injected: true });
    const own = b.result('s2c', 1);
    const idx = indexTrace(b.trace);
    const req = frameEntry(idx, call.frame)?.requests[0];
    assert.deepEqual(req?.responses.map((r) => [r.frame.frame, r.own]), [[forged.frame, false], [own.frame, true]]);
    assert.deepEqual(req?.ownResponses.map((r) => r.frame.frame), [own.frame]);
    assert.deepEqual(req?.cancels.map((c) => [c.frame.frame, c.own]), [[forgedCancel.frame, false]]);
  });

  test('a wire fault’s copy is left out of the index but reads as the frame it copies', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1);
    const result = b.result('s2c', 1);
    const copy = b.frame('s2c', result.msg, { raw: result.raw, injected: true });
    copy.fault = 'duplicated';
    const idx = indexTrace(b.trace);
    assert.equal(idx.byFrame.has(copy.frame), false);
    assert.equal(idx.responses.length, 2, 'initialize’s and tools/call’s, not the copy');
    assert.equal(frameEntry(idx, copy.frame)?.frame, result);
  });

  test('per call: its connection, its tools/call request, and the server handler’s steps on that connection only', () => {
    const b = traceBuilder();
    handshake(b);
    const first = toolCall(b, 'A', 1);
    b.server(1, null, 'running');
    b.server(1, 'running', 'crashed');
    b.reconnect();
    handshake(b);
    const second = toolCall(b, 'B', 1);
    b.server(1, null, 'running');
    const idx = indexTrace(b.trace);
    assert.equal(idx.connection, 1);
    const a = idx.calls.get('A');
    const bee = idx.calls.get('B');
    assert.ok(a && bee);
    assert.deepEqual([a.connection, bee.connection], [0, 1]);
    assert.equal(a.request?.frame, first);
    assert.equal(bee.request?.frame, second);
    assert.equal(bee.request?.call, 'B');
    assert.deepEqual(
      serverStatesOf(idx, a).map((e) => e.to),
      ['running', 'crashed'],
    );
    assert.deepEqual(
      serverStatesOf(idx, bee).map((e) => e.to),
      ['running'],
    );
  });

  test('a batch POSTed over HTTP: each request and cancel inside it is indexed and paired, the stream names its first request', () => {
    const b = traceBuilder();
    handshake(b);
    const call = b.post(4, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_count' } });
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quick' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    ]);
    const batch = b.frame('c2s', null, {
      http: { stream: 5, part: 'request', method: 'POST', url: 'http://mcp-server.invalid/mcp', headers: {} },
      raw: `POST /mcp HTTP/1.1\r\n\r\n${body}`,
    });
    const idx = indexTrace(b.trace);
    const entry = frameEntry(idx, batch.frame);
    assert.equal(entry?.batch?.length, 2);
    assert.deepEqual(entry?.requests.map((r) => r.id), [2]);
    assert.equal(entry?.cancels[0]?.target?.frame, call, 'the cancel inside the batch names request 1');
    assert.equal(idx.cancels.length, 1);
    assert.equal(idx.streams.get(5)?.req?.id, 2);
    assert.equal(frameEntry(idx, call.frame)?.batch, undefined, 'a single message is no batch');
  });

  test('a batch of responses on an SSE stream is read by the stream’s content type and pairs each response', () => {
    const b = traceBuilder();
    handshake(b);
    b.post(4, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick' } });
    b.head(4, 200);
    const data = JSON.stringify([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]);
    const chunk = b.chunk(4, null, `event: message\ndata: ${data}\n\n`);
    const idx = indexTrace(b.trace);
    const entry = frameEntry(idx, chunk.frame);
    assert.deepEqual(entry?.responses.map((r) => [r.id, r.req?.id]), [
      [1, 1],
      [9, undefined],
    ]);
    assert.deepEqual(idx.orphans.map((r) => r.id), [9]);
  });

  test('a notifications/… method is a notification even with an id: no request is indexed for it', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1, { token: 7 });
    const progress = b.frame('s2c', { jsonrpc: '2.0', id: 5, method: 'notifications/progress', params: { progressToken: 7, progress: 1 } });
    const idx = indexTrace(b.trace);
    const entry = frameEntry(idx, progress.frame);
    assert.deepEqual(entry?.requests, []);
    assert.equal(entry?.progress[0]?.owner?.id, 1);
    assert.equal(idx.requests.some((r) => r.dir === 's2c'), false);
  });
});
