/**
 * The wire log as an inspector: each row's call, method and duration (read off the trace
 * index), the filter a reader narrows the log with, and each call's outcome in words.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callViews } from '../../src/views/call-views.ts';
import { wireCells } from '../../src/views/wire-cells.ts';
import { filterRows, methodCounts, NO_FILTER } from '../../src/views/wire-filter.ts';
import { wireRows } from '../../src/views/wire-rows.ts';
import { connected } from './fixtures/rules-new/prelude.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';

/** Two calls: #1 reports progress twice and is cancelled at 60; #2 is answered at 45 (delivered at 50). */
function twoCalls() {
  const b = connected('2025-11-25');
  toolCall(b, '#1', 1, { token: 't1' });
  b.at(30);
  toolCall(b, '#2', 2);
  b.at(35);
  b.deliver(b.progress('s2c', 't1', 1));
  b.at(40);
  b.deliver(b.progress('s2c', 't1', 2));
  b.at(45);
  b.deliver(b.result('s2c', 2, { content: [{ type: 'text', text: 'counted to 3' }] }));
  b.at(60);
  b.stop('#1');
  b.deliver(b.cancel('c2s', 1));
  return b;
}

const cellsOf = (b: ReturnType<typeof traceBuilder>) => wireRows(b.trace).map((row) => wireCells(row));

describe('a wire row’s call, method and duration', () => {
  test('a request lasts until its response arrives, or else until its cancel; the rest of its frames name its call', () => {
    const rows = cellsOf(twoCalls()).map((c) => `${c.what} | ${c.method} | ${c.call} | ${c.duration}`);
    assert.deepEqual(rows, [
      'initialize | initialize |  | 10 ms',
      'result of initialize | initialize |  | ',
      'notifications/initialized | notifications/initialized |  | ',
      'tools/call | tools/call | #1 | 40 ms to cancel',
      'tools/call | tools/call | #2 | 20 ms',
      'notifications/progress | notifications/progress | #1 | ',
      'notifications/progress | notifications/progress | #1 | ',
      'result of tools/call | tools/call | #2 | ',
      'notifications/cancelled | notifications/cancelled | #1 | ',
    ]);
  });

  test('a response that arrives after the cancel (crossed it, or forged late) does not lengthen the call: it lasted until its cancel', () => {
    const b = twoCalls();
    b.at(90);
    b.deliver(b.result('s2c', 1, { content: [{ type: 'text', text: 'late' }] }));
    assert.equal(cellsOf(b).find((c) => c.what === 'tools/call' && c.call === '#1')?.duration, '40 ms to cancel');
    // Answered before the cancel was written (race R1), the call lasted until its response.
    const r1 = connected('2025-11-25');
    toolCall(r1, '#1', 1);
    r1.at(40);
    r1.deliver(r1.result('s2c', 1, { content: [{ type: 'text', text: 'done' }] }));
    r1.at(60);
    r1.stop('#1');
    r1.deliver(r1.cancel('c2s', 1));
    assert.equal(cellsOf(r1).find((c) => c.what === 'tools/call')?.duration, '25 ms');
  });

  test('a request still waiting shows no duration', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, '#1', 1);
    assert.equal(cellsOf(b).at(-1)?.duration, '');
  });
});

describe('the wire filter', () => {
  const cells = cellsOf(twoCalls());
  const whats = (filtered: typeof cells) => filtered.map((c) => `${c.frame} ${c.what}`);

  test('no filter keeps every row', () => {
    assert.equal(filterRows(cells, NO_FILTER).length, cells.length);
  });

  test('hiding notifications/progress keeps every other row, in order', () => {
    assert.deepEqual(whats(filterRows(cells, { ...NO_FILTER, hiddenMethods: ['notifications/progress'] })), [
      '0 initialize',
      '1 result of initialize',
      '2 notifications/initialized',
      '3 tools/call',
      '4 tools/call',
      '7 result of tools/call',
      '8 notifications/cancelled',
    ]);
  });

  test('by call, by direction, by request id (as written or bare) and by text', () => {
    assert.deepEqual(whats(filterRows(cells, { ...NO_FILTER, call: '#2' })), ['4 tools/call', '7 result of tools/call']);
    assert.deepEqual(whats(filterRows(cells, { ...NO_FILTER, direction: 'c2s', call: '#1' })), ['3 tools/call', '8 notifications/cancelled']);
    assert.deepEqual(whats(filterRows(cells, { ...NO_FILTER, id: '2' })), ['4 tools/call', '7 result of tools/call']);
    assert.deepEqual(whats(filterRows(cells, { ...NO_FILTER, text: 'COUNTED TO' })), ['7 result of tools/call']);
  });

  test('a string id matches written with or without its quotes', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, '#1', 'abc');
    const rows = cellsOf(b);
    assert.deepEqual(whats(filterRows(rows, { ...NO_FILTER, id: 'abc' })), ['3 tools/call']);
    assert.deepEqual(whats(filterRows(rows, { ...NO_FILTER, id: '"abc"' })), ['3 tools/call']);
    assert.deepEqual(filterRows(rows, { ...NO_FILTER, id: 'ab' }), []);
  });

  test('the method chips: each method present with its count, in first-seen order', () => {
    assert.deepEqual(methodCounts(cells), [
      { method: 'initialize', count: 2 },
      { method: 'notifications/initialized', count: 1 },
      { method: 'tools/call', count: 3 },
      { method: 'notifications/progress', count: 2 },
      { method: 'notifications/cancelled', count: 1 },
    ]);
  });
});

describe('a call’s outcome in words', () => {
  test('a tool error says what the server said, not just that it failed', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, '#1', 1);
    const text = 'Input validation error: Invalid arguments for tool slow_count: steps: Too small';
    b.deliver(b.result('s2c', 1, { content: [{ type: 'text', text }], isError: true }));
    b.state('#1', 1, 'RUNNING', 'FAILED', 'tool error');
    b.note('client', { type: 'call-settled', call: '#1', outcome: 'result', isError: true });
    const [call] = callViews(b.trace);
    assert.equal(call?.errorText, `tool error: ${text}`);
    assert.equal(call?.outcomeText, `FAILED — tool error: ${text}`);
  });

  test('a JSON-RPC error gives its message and code; a result its text; a running call says so', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, '#1', 1);
    toolCall(b, '#2', 2);
    toolCall(b, '#3', 3);
    b.deliver(b.error('s2c', 1, -32603, 'boom'));
    b.state('#1', 1, 'RUNNING', 'FAILED', 'error response');
    b.note('client', { type: 'call-settled', call: '#1', outcome: 'error', message: 'MCP error -32603: boom' });
    b.deliver(b.result('s2c', 2, { content: [{ type: 'text', text: 'done' }] }));
    b.state('#2', 2, 'RUNNING', 'SUCCEEDED', 'result');
    b.note('client', { type: 'call-settled', call: '#2', outcome: 'result' });
    const [one, two, three] = callViews(b.trace);
    assert.equal(one?.outcomeText, 'FAILED — boom (JSON-RPC error -32603)');
    assert.equal(two?.outcomeText, 'result: done');
    assert.equal(two?.errorText, null);
    assert.equal(three?.outcomeText, 'running');
  });
});
