/**
 * The Ledger tab's rows: each side effect the server committed, with the client call whose
 * request committed it and when that was against the call's Stop. Read off real runs of the
 * library scenarios and off a hand-built trace with a reconnect (ids start again).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { ledger } from '../../src/views/derive.ts';
import { embedSummary } from '../../src/views/embed-summary.ts';
import { deriveRunView } from '../../src/views/run-view.ts';
import { connected } from './fixtures/rules-new/prelude.ts';
import { handshake, toolCall } from './fixtures/trace-builder.ts';

const sides = createNodeSides();
after(() => sides.close());

const runs = new Map<string, { scenario: Scenario; trace: TraceEvent[] }>();
const IDS = ['stop-after-commit-is-not-rollback', 'retry-after-stop-commits-twice'];
before(async () => {
  for (const id of IDS) {
    const entry = libraryEntry(id);
    assert.ok(entry, id);
    runs.set(id, { scenario: entry.scenario, trace: await runHeadless(entry.scenario, sides) });
  }
});

function view(id: string): ReturnType<typeof deriveRunView> {
  const found = runs.get(id);
  assert.ok(found, id);
  return deriveRunView(found.scenario, found.trace);
}

/** A ledger row as the Ledger tab shows it: key, value, call, request id, when. */
const rowText = (e: ReturnType<typeof ledger>[number]): string => `${e.key}=${e.value} | ${e.call ?? '—'} | ${JSON.stringify(e.requestId)} | ${e.summary}`;

describe('the ledger of real runs', () => {
  test('Stop after the commit: committed before Stop, not rolled back', () => {
    const v = view('stop-after-commit-is-not-rollback');
    assert.deepEqual(v.ledger.map(rowText), ['order-42=paid | A | 1 | committed at 125 ms — Stop at 200 ms — not rolled back']);
    assert.deepEqual(
      v.ledger.map((e) => [e.t, e.call, e.stopAt]),
      [[125, 'A', 200]],
    );
  });

  test('a blind retry commits twice: the stopped call before its Stop, the retry never stopped', () => {
    assert.deepEqual(view('retry-after-stop-commits-twice').ledger.map(rowText), [
      'order-42=paid | A | 1 | committed at 125 ms — Stop at 200 ms — not rolled back',
      'order-42=paid | B | 2 | committed at 405 ms — the call was never stopped',
    ]);
  });

  test("the lesson embed's ledger line says the same sentence", () => {
    const lines = embedSummary(view('retry-after-stop-commits-twice')).lines.filter((l) => l.kind === 'ledger');
    assert.deepEqual(
      lines.map((l) => l.text),
      [
        'ledger: order-42 = paid committed at 125 ms — Stop at 200 ms — not rolled back (request 1, call A)',
        'ledger: order-42 = paid committed at 405 ms — the call was never stopped (request 2, call B)',
      ],
    );
  });
});

describe('the ledger of a hand-built trace', () => {
  /**
   * Connection 0: A (id 1) stopped at 240, committed at 150; C (id 2) stopped at 250, committed
   * at 300 (a stubborn handler). A reconnect; connection 1: B takes id 1 again and commits at
   * 400, never stopped. Then a commit for id 9, which no call of the client's made.
   */
  function trace(): TraceEvent[] {
    const b = connected('2025-11-25');
    toolCall(b, 'A', 1, { params: { name: 'ledger_write' } });
    toolCall(b.at(30), 'C', 2, { params: { name: 'ledger_write' } });
    b.at(150).note('server', { type: 'ledger-commit', requestId: 1, key: 'order-1', value: 'paid' });
    b.at(240).stop('A');
    b.at(250).stop('C');
    b.at(300).note('server', { type: 'ledger-commit', requestId: 2, key: 'order-2', value: 'paid' });
    b.at(350).reconnect();
    handshake(b);
    toolCall(b.at(380), 'B', 1, { params: { name: 'ledger_write' } });
    b.at(400).note('server', { type: 'ledger-commit', requestId: 1, key: 'order-3', value: 'paid' });
    b.at(420).note('server', { type: 'ledger-commit', requestId: 9, key: 'order-4', value: 'paid' });
    return b.trace;
  }

  test('each commit is read against its own call on its own connection', () => {
    assert.deepEqual(ledger(trace()).map(rowText), [
      'order-1=paid | A | 1 | committed at 150 ms — Stop at 240 ms — not rolled back',
      'order-2=paid | C | 2 | committed at 300 ms, 50 ms after Stop at 250 ms — not rolled back',
      'order-3=paid | B | 1 | committed at 400 ms — the call was never stopped',
      "order-4=paid | — | 9 | committed at 420 ms — request 9 matches no call of the client's",
    ]);
  });

  test('a commit at the very moment of Stop, recorded after it, is after Stop', () => {
    const b = connected('2025-11-25');
    toolCall(b, 'A', 1, { params: { name: 'ledger_write' } });
    b.at(240).stop('A');
    b.note('server', { type: 'ledger-commit', requestId: 1, key: 'k', value: 'v' });
    assert.deepEqual(
      ledger(b.trace).map((e) => e.summary),
      ['committed at 240 ms, 0 ms after Stop at 240 ms — not rolled back'],
    );
  });
});
