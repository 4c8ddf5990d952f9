/**
 * The sides run ahead in batches (src/engine/lookahead.ts) only where nothing else can reach
 * them first: a run with batches writes byte for byte the trace of the same run asked for one
 * step at a time, and the plan stops where the other side, a user action or a strict host's
 * restart could come in.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { Sides } from '../../src/engine/index.ts';
import { batchOf, oneStepAtATime } from './trace-helpers.ts';
import { planBatch, type Outlook } from '../../src/engine/lookahead.ts';
import { serializeTrace } from '../../src/trace/index.ts';
import { runnableScenarioArbitrary } from './scenario-arbitrary.ts';
import { call, scenario, stop } from './trace-helpers.ts';

// Worker threads: the sides that answer batches (a pair in this thread is asked one step at a time).
const sides = createNodeSides({ threads: true });
after(() => sides.close());

/** The same workers, asked for one step at a time; and a count of the steps batches ran. */
const oneByOne = oneStepAtATime(sides);
let batchedSteps = 0;
const counted: Sides = {
  client: { ...sides.client, batch: async (plan) => count(await batchOf(sides.client)(plan)) },
  server: { ...sides.server, batch: async (plan) => count(await batchOf(sides.server)(plan)) },
};
function count<T>(steps: T[]): T[] {
  batchedSteps += steps.length;
  return steps;
}

describe('a run with batches', () => {
  test('writes the trace of the step-by-step run: 200 steps of progress, 1 ms apart', async () => {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 200, stepMs: 1 }), stop(150, 'A')], { endAt: 400 });
    batchedSteps = 0;
    const batched = await runHeadless(s, counted);
    assert.ok(batchedSteps > 200, `the sides ran ${batchedSteps} steps in batches`);
    assert.equal(serializeTrace(batched), serializeTrace(await runHeadless(s, oneByOne)));
  });

  test('writes the trace of the step-by-step run, for 60 random scenarios', async () => {
    for (const s of fc.sample(runnableScenarioArbitrary, { numRuns: 60, seed: 17 })) {
      const single = serializeTrace(await runHeadless(s, oneByOne));
      assert.equal(serializeTrace(await runHeadless(s, sides)), single, JSON.stringify(s));
    }
  });
});

const quiet: Outlook = {
  side: 'server',
  timer: 100,
  otherTimer: null,
  toSide: [],
  toOther: [],
  latency: { c2s: 5, s2c: 5 },
  nextAction: null,
  clientRestartsServer: false,
  through: 10_000,
};

describe('a batch plan', () => {
  test('ends one round trip after its first step when the other side is idle', () => {
    assert.equal(planBatch(quiet)?.before, 110);
  });

  test('ends one latency after the other side’s next step, and before the next user action', () => {
    assert.equal(planBatch({ ...quiet, otherTimer: 102 })?.before, 107);
    assert.equal(planBatch({ ...quiet, nextAction: 103 })?.before, 103);
  });

  test('for a strict host, ends at the client’s next step (it may restart the server there)', () => {
    assert.equal(planBatch({ ...quiet, otherTimer: 102, clientRestartsServer: true })?.before, 102);
    assert.equal(planBatch({ ...quiet, otherTimer: 100, clientRestartsServer: true }), null);
  });

  test('is null when nothing but its next step is known to be safe, or it is past the end', () => {
    assert.equal(planBatch({ ...quiet, latency: { c2s: 0, s2c: 0 }, otherTimer: 100 }), null);
    assert.equal(planBatch({ ...quiet, through: 99 }), null);
  });
});
