/**
 * Steps that wait for an event ("after the server sends progress 2 for call A") rather than a
 * fixed virtual time: they happen `at` ms after the nth matching frame is written.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { parseScenario } from '../../src/scenario/schema.ts';
import { call, clientStates, framesWithMethod, requestIdOf, scenario, userActions } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

test('Stop 3 ms after the server writes progress 2 for call A', async () => {
  const s = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), { at: 3, after: { method: 'notifications/progress', dir: 's2c', call: 'A', nth: 2 }, action: { type: 'stop', call: 'A' } }]);
  assert.ok(parseScenario(s).ok, 'the schema accepts "after"');
  const trace = await runHeadless(s, sides);
  const progress = framesWithMethod(trace, 'notifications/progress', 's2c');
  assert.equal(progress[1]?.t, 225, 'progress 2 is written at 225');
  const stop = userActions(trace).find((e) => e.action.type === 'stop');
  assert.equal(stop?.t, 228);
  const cancel = framesWithMethod(trace, 'notifications/cancelled', 'c2s')[0];
  assert.equal(cancel?.msg?.params?.requestId, requestIdOf(trace, 'A'));
  assert.equal(cancel?.t, 228);
});

test('a trigger that never matches leaves its step unrun', async () => {
  const s = scenario([call(20, 'A', 'quick'), { at: 0, after: { method: 'notifications/progress', call: 'A' }, action: { type: 'stop', call: 'A' } }]);
  const trace = await runHeadless(s, sides);
  assert.equal(userActions(trace).filter((e) => e.action.type === 'stop').length, 0);
});

test('"response" matches a call’s result: a Stop as it is written crosses it on the wire (race R2)', async () => {
  const s = scenario([call(20, 'Q', 'quick'), { at: 0, after: { method: 'response', dir: 's2c', call: 'Q' }, action: { type: 'stop', call: 'Q' } }]);
  const trace = await runHeadless(s, sides);
  assert.equal(userActions(trace).find((e) => e.action.type === 'stop')?.t, 25);
  // The client still waits at 25; the result arrives at 30, after Stop, and is ignored.
  assert.deepEqual(
    clientStates(trace, 'Q').map((e) => [e.t, e.to]),
    [
      [20, 'RUNNING'],
      [25, 'CANCEL_REQUESTED'],
      [25, 'STOPPED_LOCALLY'],
      [30, 'STOPPED_LOCALLY'],
    ],
  );
});
