/**
 * A JSON-RPC batch in the wire log: its row names every message it holds (what), reads as its
 * first for the method filter and the id, and stays in the "messages only" view.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { LIBRARY } from '../../src/scenario/library.ts';
import { wireCells } from '../../src/views/wire-cells.ts';
import { wireRows } from '../../src/views/wire-rows.ts';
import { traceBuilder } from './fixtures/trace-builder.ts';

const sides = createNodeSides();
after(() => sides.close());

describe('a batch row in the wire log', () => {
  test('a cancel POSTed in a batch of one (the library scenario) says what the batch holds', async () => {
    const entry = LIBRARY.find((e) => e.id === 'cancel-in-a-batch-2025-03-26') ?? assert.fail('in the library');
    const rows = wireRows(await runHeadless(entry.scenario, sides));
    const batch = rows.find((r) => r.what.startsWith('batch'));
    assert.ok(batch, rows.map((r) => r.what).join(' | '));
    const cells = wireCells(batch);
    assert.equal(cells.what, 'batch of 1: notifications/cancelled');
    assert.equal(cells.method, 'notifications/cancelled');
    assert.equal(cells.framingOnly, false);
    assert.notEqual(cells.id, '');
  });

  test('a stdio batch of a request, a response and a stray element names each', () => {
    const b = traceBuilder();
    b.request('c2s', 1, 'tools/call', { name: 'quick', arguments: {} });
    b.frame('s2c', null, { raw: `${JSON.stringify([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, 7])}\n` });
    const [, row] = wireRows(b.trace);
    assert.equal(row?.what, 'batch of 3: result of tools/call, notifications/progress, (not a message)');
    assert.equal(row?.method, 'tools/call');
    assert.equal(row?.id, '1');
  });
});
