/**
 * A scenario's schedule space and the schedule a run takes in it (src/scenario/space.ts,
 * src/engine/schedule.ts, schedule-order.ts): the default schedule is the scenario's own run,
 * byte for byte; each kind of choice changes what the wire carries as it says; the lookahead's
 * batches still write the step-by-step trace; and a bad space or schedule string is refused in
 * words.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { Sides } from '../../src/engine/index.ts';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { formatSchedule, libraryEntry, parseSchedule, parseScenario, scenarioJsonSchema, type Scenario } from '../../src/scenario/index.ts';
import { serializeTrace, traceHash, type FrameEvent, type TraceEvent } from '../../src/trace/index.ts';
import { batchOf, call, deliveriesOf, framesOf, oneStepAtATime, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

function library(id: string): Scenario {
  const entry = libraryEntry(id);
  assert.ok(entry, id);
  return entry.scenario;
}

function withSpace(s: Scenario, explore: Scenario['explore']): Scenario {
  const parsed = parseScenario({ ...s, explore });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('; '));
  return parsed.scenario;
}

/** The frame written with this method (or the response to request `id`), in this direction. */
function frame(trace: readonly TraceEvent[], dir: 'c2s' | 's2c', match: (f: FrameEvent) => boolean): FrameEvent {
  const found = framesOf(trace).find((f) => f.dir === dir && match(f));
  assert.ok(found, 'the frame is on the wire');
  return found;
}

const toolsCall = (f: FrameEvent): boolean => f.msg?.method === 'tools/call';
const cancel = (f: FrameEvent): boolean => f.msg?.method === 'notifications/cancelled';
const toolResponse = (trace: readonly TraceEvent[]) => (f: FrameEvent): boolean => f.msg?.method === undefined && f.msg?.id === frame(trace, 'c2s', toolsCall).msg?.id;

function deliveredAt(trace: readonly TraceEvent[], f: FrameEvent): number | null {
  return deliveriesOf(trace).find((d) => d.frame === f.frame)?.t ?? null;
}

describe('the default schedule', () => {
  test('is the scenario\'s own run, byte for byte: R2 with latency ranges still gives its recorded trace', async () => {
    const entry = libraryEntry('race-r2-response-crosses-cancel');
    assert.ok(entry);
    const spaced = withSpace(entry.scenario, { c2s: [1, 50], s2c: [1, 50], ties: true, frames: [{ dir: 'c2s', match: 'notifications/cancelled', drop: true }], at: { '1': [200, 400] } });
    const own = await runHeadless(entry.scenario, sides);
    const trace = await runHeadless(spaced, sides);
    assert.equal(serializeTrace(trace), serializeTrace(own));
    assert.equal(await traceHash(trace), entry.trace);
  });
});

describe('each choice', () => {
  const r2 = library('race-r2-response-crosses-cancel');

  test('a latency range: the chosen value is the frame\'s latency on the wire', async () => {
    // Decisions in order: initialize (c2s), its result (s2c), initialized (c2s), tools/call (c2s).
    const s = withSpace(r2, { c2s: [10, 30, 10], schedule: formatSchedule([0, 0, 2]) });
    const trace = await runHeadless(s, sides);
    const sent = frame(trace, 'c2s', toolsCall);
    assert.equal((sent.deliverAt ?? 0) - sent.t, 20, 'options [50, 10, 20, 30]: choice 2 is 20 ms');
    const init = frame(trace, 'c2s', (f) => f.msg?.method === 'initialize');
    assert.equal((init.deliverAt ?? 0) - init.t, 50, 'choice 0 is the scenario\'s own latency');
  });

  test('an at window: the step runs at the chosen time', async () => {
    const s = withSpace(r2, { at: { '1': [300, 340, 20] }, schedule: 's1.3' });
    const trace = await runHeadless(s, sides);
    assert.equal(frame(trace, 'c2s', cancel).t, 340, 'options [370, 300, 320, 340]: choice 3 is 340 ms');
  });

  test('a call name keys the window of the step that makes the call', async () => {
    const s = withSpace(r2, { at: { A: [100, 300, 100] }, schedule: 's1.1' });
    const trace = await runHeadless(s, sides);
    assert.equal(frame(trace, 'c2s', toolsCall).t, 100);
  });

  test('a drop choice for a matched frame: the cancel never reaches the server', async () => {
    const s = withSpace(r2, { frames: [{ dir: 'c2s', match: 'notifications/cancelled', drop: true }], schedule: 's1.1' });
    const trace = await runHeadless(s, sides);
    const sent = frame(trace, 'c2s', cancel);
    assert.equal(sent.fault, 'dropped');
    assert.equal(deliveredAt(trace, sent), null);
  });

  test('a tie choice: Stop at the instant the response arrives runs first, and the response crosses the cancel', async () => {
    const s = scenario([call(200, 'A', 'stubborn', { ms: 100 }), stop(310, 'A')], { endAt: 1000, explore: { ties: true } });
    const plain = await runHeadless(s, sides);
    const response = frame(plain, 's2c', toolResponse(plain));
    assert.equal(deliveredAt(plain, response), 310, 'the response arrives at the Stop\'s instant');
    assert.equal(framesOf(plain).some(cancel), false, 'by the tie rule the response comes first: nothing to cancel');
    const reordered = await runHeadless({ ...s, explore: { ties: true, schedule: 's1.1' } }, sides);
    const sent = frame(reordered, 'c2s', cancel);
    const answered = frame(reordered, 's2c', toolResponse(reordered));
    assert.equal(sent.t, 310);
    assert.ok(sent.seq < (reordered.find((e) => e.kind === 'delivery' && e.frame === answered.frame)?.seq ?? -1), 'the cancel is written before the response is delivered');
    assert.ok(answered.t < (deliveredAt(reordered, sent) ?? Infinity), 'the response was written before the cancel arrived');
  });

  test('a choice a decision does not have is an engine error in the trace, not a silent other run', async () => {
    const s = withSpace(r2, { at: { '1': [300, 400, 100] }, schedule: 's1.9' });
    const trace = await runHeadless(s, sides);
    const error = trace.find((e) => e.kind === 'error');
    assert.ok(error?.kind === 'error');
    assert.match(error.message, /the schedule's choice 9 at decision 1 \(the time of step 1 \(stop A\)\) is not one of its 3 options/);
  });
});

describe('the lookahead with a schedule space', () => {
  // Worker threads answer batches; the pair in this thread (`sides`) is asked one step at a time.
  const threaded = createNodeSides({ threads: true });
  after(() => threaded.close());
  const threadedOneByOne = oneStepAtATime(threaded);

  test('batches write the step-by-step trace for random schedules of latency ranges', async () => {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 30, stepMs: 3 }), call(25, 'B', 'stubborn', { ms: 40 }), stop(70, 'A')], { endAt: 400 });
    for (let n = 0; n < 6; n++) {
      const choices = Array.from({ length: 40 }, (_, i) => (i * 7 + n * 3) % 5);
      const spaced = { ...s, explore: { c2s: [1, 9, 2] as [number, number, number], s2c: [2, 6] as [number, number], schedule: formatSchedule(choices) } };
      assert.equal(serializeTrace(await runHeadless(spaced, threaded)), serializeTrace(await runHeadless(spaced, sides)), formatSchedule(choices));
    }
  });

  test('a latency range still lets the sides run ahead; same-instant reorders do not', async () => {
    let planned = 0;
    const counting: Sides = {
      client: { ...threaded.client, batch: async (plan) => (planned++, batchOf(threaded.client)(plan)) },
      server: { ...threaded.server, batch: async (plan) => (planned++, batchOf(threaded.server)(plan)) },
    };
    const s = scenario([call(20, 'A', 'slow_count', { steps: 20, stepMs: 1 })], { endAt: 200, latency: { c2s: 50, s2c: 50 }, explore: { s2c: [10, 50] } });
    const ranged = await runHeadless(s, counting);
    assert.ok(planned > 0, 'batches ran');
    assert.equal(serializeTrace(ranged), serializeTrace(await runHeadless(s, threadedOneByOne)));
    planned = 0;
    await runHeadless({ ...s, explore: { ties: true } }, counting);
    assert.equal(planned, 0, 'a tie the schedule may reorder could change what reaches a side');
  });
});

describe('schedule strings and spaces', () => {
  test('a schedule string round-trips, runs of zeros folded and trailing zeros left off', () => {
    const choices = [0, 0, 0, 5, 0, 40, 0, 0];
    const text = formatSchedule(choices);
    assert.equal(text, 's1.-3.5.0.14');
    assert.deepEqual(parseSchedule(text), { ok: true, choices: [0, 0, 0, 5, 0, 40] });
    assert.equal(formatSchedule([]), 's1');
  });

  test('a bad schedule string or space is refused with its path and why', () => {
    const base = library('race-r2-response-crosses-cancel');
    const errors = (explore: unknown): string[] => {
      const parsed = parseScenario({ ...base, explore });
      return parsed.ok ? [] : parsed.errors;
    };
    assert.match(errors({ schedule: 'x1.2' }).join('\n'), /^explore\.schedule: a schedule string: "s1", then "\.n" per choice in base 36/m);
    assert.match(errors({ c2s: [50, 10] }).join('\n'), /^explore\.c2s: a range runs from low to high: 50 is above 10$/m);
    assert.match(errors({ at: { '7': [1, 2] } }).join('\n'), /^explore\.at\.7: "7" names no step: a step's index \(0 to 1\) or a call a step makes$/m);
    assert.match(errors({ at: { '0': [1, 2], A: [3, 4] } }).join('\n'), /^explore\.at\.A: step 0 already has a window \("0"\)$/m);
    assert.match(errors({ frames: [{ dir: 'c2s' }] }).join('\n'), /^explore\.frames\.0: a frame rule gives a latency range/m);
    assert.match(errors({ s2c: [0, 100_000] }).join('\n'), /^explore\.s2c: a range stands for 10,000 values at most/m);
    assert.match(errors({ latency: [1, 2] }).join('\n'), /^explore: Unrecognized key: "latency"$/m);
    // A run of zeros is counted before it is made: this one stands for 1.7 million zeros (and "-zzzzzzzz" for 2.8 trillion).
    assert.match(errors({ schedule: 's1.-zzzz' }).join('\n'), /^explore\.schedule: this schedule string stands for more than 100,000 choices$/m);
    assert.match(errors({ schedule: 's1.-zzzzzzzz' }).join('\n'), /^explore\.schedule: this schedule string stands for more than 100,000 choices$/m);
    assert.deepEqual(parseSchedule(`s1.-${(99_999).toString(36)}.1`).ok, true, 'the bound itself is a schedule');
  });

  test('the published JSON Schema takes a scenario with a space, and refuses a range of four numbers', () => {
    const validate = new CfWorkerJsonSchemaValidator({ shortcircuit: false }).getValidator(scenarioJsonSchema() as never);
    const spaced = { ...library('race-r2-response-crosses-cancel'), explore: { c2s: [1, 50], frames: [{ dir: 's2c', match: 'response', ms: [0, 100, 10], drop: true }], ties: true, at: { '1': [200, 400] }, schedule: 's1.-3.5' } };
    assert.ok(parseScenario(spaced).ok);
    assert.equal(validate(spaced).valid, true);
    assert.equal(validate({ ...spaced, explore: { c2s: [1, 2, 3, 4] } }).valid, false);
  });
});
