/**
 * Event orders that really happen are steps of the tables, never engine errors.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { call, framesOf, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const errorsOf = (trace: readonly TraceEvent[]): string[] => trace.flatMap((e) => (e.kind === 'error' ? [e.message] : []));
const handlerSteps = (trace: readonly TraceEvent[]): string[] =>
  trace.flatMap((e) => (e.kind === 'server-state' ? [`${JSON.stringify(e.requestId)}: ${e.from ?? '∅'} → ${e.to}`] : []));
const DUPLICATE_CALL = [{ dir: 'c2s' as const, action: 'duplicate' as const, match: 'tools/call', nth: 1 }];

describe('a duplicated tools/call (found by the lifecycle fuzz)', () => {
  test('runs two handlers for one id, each answering: two results on the wire, no engine error', async () => {
    const trace = await runHeadless(scenario([call(20, 'A', 'quick')], { faults: DUPLICATE_CALL, endAt: 500 }), sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace), ['1: ∅ → running', '1: running → returned', '1: returned → response sent', '1: ∅ → running', '1: running → returned', '1: returned → response sent']);
    const second = trace.filter((e) => e.kind === 'server-state' && e.from === null).at(1);
    assert.match(second?.kind === 'server-state' ? second.because : '', /the same request received again/);
    const results = framesOf(trace).filter((f) => f.dir === 's2c' && f.msg?.id === 1 && f.msg.result !== undefined);
    assert.equal(results.length, 2, 'the server answers both copies');
  });

  test('Stop aborts the newest handler (the SDK keeps one abort controller per id): the older one runs on and answers after the cancel', async () => {
    const s = scenario([call(20, 'A', 'work', { ms: 300, onCancel: 'observe' }), stop(100, 'A')], { faults: DUPLICATE_CALL, endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace), [
      '1: ∅ → running',
      '1: ∅ → running',
      '1: running → cancellation seen',
      '1: cancellation seen → threw',
      '1: threw → response suppressed',
      '1: running → returned',
      '1: returned → response sent',
    ]);
    const late = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === 1 && f.msg.result !== undefined);
    assert.ok(late && late.t > 300, `the older handler's result leaves at ${late?.t} ms`);
  });
});
