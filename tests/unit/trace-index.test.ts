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
});
