/**
 * Virtual time on the wire: a frame written at t with one-way latency L is delivered at
 * exactly t + L, including frames written by timers at instants no user step names; handler
 * timers fire exactly when due; and driving a run in increments changes nothing.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Run } from '../../src/engine/run.ts';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { serializeTrace, type FrameEvent, type TraceEvent } from '../../src/trace/index.ts';
import {
  assertNoEngineErrors,
  assertWireInvariants,
  call,
  clientStates,
  defined,
  deliveriesOf,
  deliveryOf,
  framesOf,
  framesWithMethod,
  requestIdOf,
  responsesFor,
  scenario,
  stop,
  toolCallFrame,
} from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

function progressOf(trace: readonly TraceEvent[], token: unknown): FrameEvent[] {
  return framesWithMethod(trace, 'notifications/progress', 's2c').filter((f) => f.msg?.params?.progressToken === token);
}

function tokenOf(frame: FrameEvent): unknown {
  return (frame.msg?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
}

describe('symmetric latency 5/5, slow_count {steps:3, stepMs:100}, no Stop', () => {
  const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 100 })]);

  test('every delivery happens at its frame time + 5', async () => {
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    const frames = new Map(framesOf(trace).map((f) => [f.frame, f]));
    const deliveries = deliveriesOf(trace);
    assert.equal(deliveries.length, frames.size, 'every frame is delivered (the run ends long after the last one)');
    for (const d of deliveries) {
      const f = frames.get(d.frame);
      assert.ok(f, `frame ${d.frame} exists`);
      assert.equal(d.t, f.t + 5, `frame ${d.frame} written at ${f.t} is delivered at ${f.t + 5}`);
    }
  });

  test('progress is written at exactly arrival + 100, +200, +300, then the result', async () => {
    const trace = await runHeadless(s, sides);
    const callFrame = toolCallFrame(trace, 'A');
    const arrival = deliveryOf(trace, callFrame).t;
    assert.equal(arrival, 25);
    const progress = progressOf(trace, tokenOf(callFrame));
    assert.deepEqual(
      progress.map((p) => [p.t, p.msg?.params?.progress, p.msg?.params?.total]),
      [
        [arrival + 100, 1, 3],
        [arrival + 200, 2, 3],
        [arrival + 300, 3, 3],
      ],
    );
    const responses = responsesFor(trace, requestIdOf(trace, 'A'));
    assert.equal(responses.length, 1);
    assert.equal(defined(responses[0]).t, arrival + 300);
    assert.ok(defined(responses[0]).frame > defined(progress[2]).frame, 'the result follows the last progress');
    assert.deepEqual(
      clientStates(trace, 'A').map((e) => [e.t, e.to]),
      [
        [20, 'RUNNING'],
        [arrival + 305, 'SUCCEEDED'],
      ],
    );
  });
});

/**
 * Asymmetric latency, c2s 7 / s2c 13, and tools whose timers fall on odd instants:
 *   A slow_count {6, 37} at 20 → arrives 27; progress written 64, 101, 138, 175, 212, 249 (+13 to arrive)
 *   B slow_count {4, 41} at 31 → arrives 38; progress written 79, 120; Stop at 133 = the instant
 *     B's 2nd progress arrives; the cancel arrives at 140, before B's 3rd step (161)
 *   C quick at 94 → arrives 101, the instant A's 2nd-step timer fires on the server
 *   D quick at 144 → arrives 151, the instant A's 3rd progress (written 138) arrives at the client
 * None of 64, 79, 101, 120, 138, 175, … is a step's time: those frames are written by timers.
 */
const ASYM: Scenario = scenario(
  [
    call(20, 'A', 'slow_count', { steps: 6, stepMs: 37 }),
    call(31, 'B', 'slow_count', { steps: 4, stepMs: 41 }),
    call(94, 'C', 'quick'),
    stop(133, 'B'),
    call(144, 'D', 'quick'),
  ],
  { latency: { c2s: 7, s2c: 13 } },
);

describe('asymmetric latency 7/13 with timers at odd instants', () => {
  test('each frame is delivered at exactly its write time + its direction latency', async () => {
    const trace = await runHeadless(ASYM, sides);
    assertNoEngineErrors(trace);
    assertWireInvariants(ASYM, trace);
    const stepTimes = new Set(ASYM.steps.map((st) => st.at));
    const timerWritten = framesOf(trace).filter((f) => !stepTimes.has(f.t) && f.dir === 's2c');
    assert.ok(timerWritten.length >= 8, 'many frames were written at instants that are no step time');
    for (const f of framesOf(trace)) {
      assert.equal(deliveryOf(trace, f).t, f.t + (f.dir === 'c2s' ? 7 : 13), `frame ${f.frame} ${f.msg?.method ?? 'response'}`);
    }
  });

  test('progress frames are written exactly when the handler timers are due', async () => {
    const trace = await runHeadless(ASYM, sides);
    const a = toolCallFrame(trace, 'A');
    const b = toolCallFrame(trace, 'B');
    assert.equal(deliveryOf(trace, a).t, 27);
    assert.equal(deliveryOf(trace, b).t, 38);
    const aProgress = progressOf(trace, tokenOf(a));
    assert.deepEqual(
      aProgress.map((p) => p.t),
      [64, 101, 138, 175, 212, 249],
    );
    assert.deepEqual(
      aProgress.map((p) => deliveryOf(trace, p).t),
      [77, 114, 151, 188, 225, 262],
    );
    const bProgress = progressOf(trace, tokenOf(b));
    assert.deepEqual(
      bProgress.map((p) => [p.t, deliveryOf(trace, p).t]),
      [
        [79, 92],
        [120, 133],
      ],
    );
    const cancel = framesWithMethod(trace, 'notifications/cancelled');
    assert.deepEqual(
      cancel.map((f) => [f.t, deliveryOf(trace, f).t, f.msg?.params?.requestId]),
      [[133, 140, requestIdOf(trace, 'B')]],
    );
    assert.deepEqual(responsesFor(trace, requestIdOf(trace, 'B')), []);
    assert.deepEqual(
      responsesFor(trace, requestIdOf(trace, 'A')).map((f) => [f.t, deliveryOf(trace, f).t]),
      [[249, 262]],
    );
  });

  test('a frame arriving at a server timer instant waits for the timer; both replies keep their write order', async () => {
    const trace = await runHeadless(ASYM, sides);
    const aProgress2 = defined(progressOf(trace, tokenOf(toolCallFrame(trace, 'A')))[1]);
    const cCall = toolCallFrame(trace, 'C');
    const cDelivery = deliveryOf(trace, cCall);
    assert.equal(cDelivery.t, 101);
    assert.equal(aProgress2.t, 101);
    assert.ok(aProgress2.seq < cDelivery.seq, 'timer (progress 2) before the frame arrival at the same ms');
    const cResponse = responsesFor(trace, requestIdOf(trace, 'C'));
    assert.equal(cResponse.length, 1);
    assert.equal(defined(cResponse[0]).t, 101);
    assert.ok(defined(cResponse[0]).frame > aProgress2.frame);
    // Both are delivered at 114, in the order they were written.
    const d1 = deliveryOf(trace, aProgress2);
    const d2 = deliveryOf(trace, defined(cResponse[0]));
    assert.deepEqual([d1.t, d2.t], [114, 114]);
    assert.ok(d1.seq < d2.seq);
  });

  test('frames in opposite directions due at the same ms are delivered in write order', async () => {
    const trace = await runHeadless(ASYM, sides);
    const aProgress3 = defined(progressOf(trace, tokenOf(toolCallFrame(trace, 'A')))[2]);
    const dCall = toolCallFrame(trace, 'D');
    assert.deepEqual([aProgress3.t, dCall.t], [138, 144]);
    const d1 = deliveryOf(trace, aProgress3);
    const d2 = deliveryOf(trace, dCall);
    assert.deepEqual([d1.t, d2.t], [151, 151]);
    assert.ok(d1.seq < d2.seq, 's2c frame written at 138 arrives before the c2s frame written at 144');
  });
});

describe('driving a run in pieces', () => {
  async function runToEndInOneGo(s: Scenario): Promise<TraceEvent[]> {
    const run = await Run.start(s, sides);
    await run.runToEnd();
    return run.trace;
  }

  for (const increment of [50, 13]) {
    test(`runUntil(x) for x = 0, ${increment}, 2·${increment}, … gives the same trace as runToEnd`, async () => {
      const full = await runToEndInOneGo(ASYM);
      const run = await Run.start(ASYM, sides);
      for (let x = 0; x <= ASYM.endAt; x += increment) {
        await run.runUntil(x);
        assert.equal(run.virtualTime, x, 'runUntil moves the clock to its target');
        // Exactly the events of the full run up to x have happened, no more, no fewer.
        const upToX = full.filter((e) => e.t <= x);
        assert.equal(run.trace.length, upToX.length, `event count at ${x}`);
      }
      await run.runUntil(ASYM.endAt);
      assert.equal(serializeTrace(run.trace), serializeTrace(full));
    });
  }

  test('step() one event at a time up to endAt gives the same trace as runToEnd', async () => {
    const full = await runToEndInOneGo(ASYM);
    const run = await Run.start(ASYM, sides);
    let steps = 0;
    for (let next = run.nextEventTime(); next !== null && next <= ASYM.endAt; next = run.nextEventTime()) {
      assert.equal(await run.step(), true);
      steps++;
    }
    assert.ok(steps > 20);
    assert.equal(serializeTrace(run.trace), serializeTrace(full));
  });

  test('a Stop scheduled mid-run equals the same Stop in the scenario', async () => {
    const full = await runToEndInOneGo(ASYM);
    const withoutStop: Scenario = { ...ASYM, steps: ASYM.steps.filter((st) => st.action.type !== 'stop') };
    const run = await Run.start(withoutStop, sides);
    await run.runUntil(100);
    // Scheduled last, as the scenario's stop would be ordered among same-ms actions (none here).
    run.schedule(stop(133, 'B'));
    await run.runToEnd();
    assert.equal(serializeTrace(run.trace), serializeTrace(full));
  });

  test('an action scheduled in the past happens at the present instant', async () => {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 })]);
    const run = await Run.start(s, sides);
    await run.runUntil(260);
    run.schedule(stop(50, 'A'));
    await run.runToEnd();
    const stops = run.trace.filter((e) => e.kind === 'user-action' && e.action.type === 'stop');
    assert.deepEqual(
      stops.map((e) => e.t),
      [260],
    );
    const cancel = framesWithMethod(run.trace, 'notifications/cancelled');
    assert.deepEqual(
      cancel.map((f) => f.t),
      [260],
    );
  });
});
