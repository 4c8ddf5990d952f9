/**
 * A run is a pure function of its scenario: the same scenario gives byte-identical traces,
 * run after run, on warm workers or fresh ones, whatever ran on the workers before.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { serializeTrace } from '../../src/trace/index.ts';
import {
  assertNoEngineErrors,
  call,
  clientStates,
  defined,
  framesOf,
  framesWithMethod,
  inject,
  notesOf,
  scenario,
  stop,
} from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const RUNS = 20;

const SCENARIOS: Record<string, Scenario> = {
  'slow_count + Stop after the 2nd progress': scenario([
    call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }),
    stop(240, 'A'),
  ]),
  'stubborn + Stop + injected late response': scenario([
    call(20, 'A', 'stubborn', { ms: 300 }),
    stop(100, 'A'),
    inject(150, 'A', 'result'),
  ]),
  'ledger_write and quick concurrently, asymmetric latency': scenario(
    [
      call(20, 'L', 'ledger_write', { key: 'k', value: 'v', commitAfterMs: 100, totalMs: 400 }),
      call(30, 'Q', 'quick'),
      stop(300, 'L'),
    ],
    { latency: { c2s: 3, s2c: 11 } },
  ),
};

const firstTraces = new Map<string, string>();

for (const [name, s] of Object.entries(SCENARIOS)) {
  test(`${name}: ${RUNS} runs give byte-identical traces`, async () => {
    const first = await runHeadless(s, sides);
    assertNoEngineErrors(first);
    assert.ok(framesWithMethod(first, 'tools/call').length >= 1, 'the run did real work (a tools/call went out)');
    const expected = serializeTrace(first);
    firstTraces.set(name, expected);
    for (let i = 1; i < RUNS; i++) {
      const again = serializeTrace(await runHeadless(s, sides));
      assert.equal(again, expected, `run ${i + 1} of ${name} differs from run 1`);
    }
  });
}

test('the three scenarios give three different traces (the comparison above is not vacuous)', () => {
  const all = [...firstTraces.values()];
  assert.equal(all.length, 3);
  assert.equal(new Set(all).size, 3);
});

test('the concurrent scenario has both calls settle their own way', async () => {
  const trace = await runHeadless(defined(SCENARIOS['ledger_write and quick concurrently, asymmetric latency']), sides);
  assert.equal(clientStates(trace, 'Q').at(-1)?.to, 'SUCCEEDED');
  assert.equal(clientStates(trace, 'L').at(-1)?.to, 'STOPPED_LOCALLY');
  assert.equal(notesOf(trace, 'ledger-commit').length, 1);
  const ids = framesWithMethod(trace, 'tools/call').map((f) => f.msg?.id);
  assert.equal(new Set(ids).size, 2, 'two distinct request ids');
  assert.ok(framesOf(trace).length > 0);
});

test('warm workers give the same trace as fresh ones, even after a run that ended with work pending', async () => {
  const s = defined(SCENARIOS['slow_count + Stop after the 2nd progress']);
  const fresh = serializeTrace(await runHeadless(s)); // its own worker pair, closed afterwards
  // Leave the warm workers mid-flight: a handler sleeping past endAt, client and server timers pending.
  const pending = scenario([call(20, 'X', 'stubborn', { ms: 50_000 }), call(25, 'Y', 'slow_count', { steps: 9, stepMs: 3000 })], {
    endAt: 5_000,
  });
  const leftover = await runHeadless(pending, sides);
  assert.equal(clientStates(leftover, 'X').at(-1)?.to, 'RUNNING', 'X was still running when that run ended');
  const warm = serializeTrace(await runHeadless(s, sides));
  assert.equal(warm, fresh);
});
