/**
 * A byte stream delivers in order: on stdio each direction's pipe, on HTTP each request's and
 * each response's own stream. A frame that drew a shorter latency than the one before it (the
 * explorer's ranges give each frame its own), or one behind a delayed frame, arrives no sooner
 * than that one; separate POSTs may still overtake each other.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { explore } from '../../src/explore/index.ts';
import { libraryEntry, parseScenario, withSchedule, choicesOf, type Scenario } from '../../src/scenario/index.ts';
import type { FrameEvent, TraceEvent } from '../../src/trace/index.ts';
import { call, deliveriesOf, framesOf, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

/** The frames of each channel (the pipe one way, or one HTTP stream one way), by when they were delivered, are in the order written. */
function assertInOrder(trace: readonly TraceEvent[], what: string): void {
  const written = new Map(framesOf(trace).map((f) => [f.frame, f]));
  const last = new Map<string, FrameEvent>();
  for (const d of deliveriesOf(trace)) {
    const f = written.get(d.frame);
    assert.ok(f);
    const channel = `${f.connection} ${f.dir} ${f.http?.stream ?? 'pipe'}`;
    const before = last.get(channel);
    assert.ok(before === undefined || before.frame < f.frame, `${what}: frame ${f.frame} arrived after frame ${before?.frame} on ${channel}, though written before it`);
    last.set(channel, f);
  }
}

function withSpace(id: string, space: unknown): Scenario {
  const entry = libraryEntry(id);
  assert.ok(entry);
  const parsed = parseScenario({ ...entry.scenario, explore: space });
  assert.ok(parsed.ok);
  return parsed.scenario;
}

test('on stdio a delayed tools/call holds back the cancel written after it: the cancel never overtakes its request on the pipe', async () => {
  const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 100 }), stop(40, 'A')], { faults: [{ dir: 'c2s', action: 'delay', match: 'tools/call', ms: 100 }] });
  const trace = await runHeadless(s, sides);
  const frames = framesOf(trace);
  const request = frames.find((f) => f.msg?.method === 'tools/call');
  const cancel = frames.find((f) => f.msg?.method === 'notifications/cancelled');
  assert.ok(request && cancel);
  assert.equal(request.deliverAt, 125);
  assert.equal(cancel.deliverAt, 125, 'due at 45 ms, it waits behind the request');
  assertInOrder(trace, 'delay fault');
});

test("explored with a latency range each way, stdio's frames and each HTTP stream's parts arrive in the order written, and every HTTP schedule connects", async () => {
  for (const [id, space] of [
    ['race-r6-progress-after-cancel', { at: { '1': [120, 620, 50] }, c2s: [10, 40, 10] }],
    ['batch-holds-a-request-and-its-cancel-2025-03-26', { c2s: [5, 45, 10], s2c: [5, 45, 10] }],
  ] as const) {
    const s = withSpace(id, space);
    const found = await explore(s, { lanes: [sides], budget: 40, seed: 'order' });
    assert.equal(found.records.filter((r) => r.outcome.includes('never connected')).length, 0, `${id}: every schedule connects`);
    for (const r of found.records.slice(0, 12)) assertInOrder(await runHeadless(withSchedule(s, choicesOf(r.schedule)), sides), `${id} ${r.schedule}`);
  }
});

test("the explorer's same-instant reorders never deliver a frame before one written before it on its byte stream", async () => {
  // The last progress and the result are written at the same ms, on the same pipe and on the same HTTP stream: due together, in the order written.
  for (const transport of ['stdio', 'streamable-http'] as const) {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 100 })], { transport, explore: { ties: true } });
    const found = await explore(s, { lanes: [sides], budget: 50 });
    for (const r of found.records) assertInOrder(await runHeadless(withSchedule(s, choicesOf(r.schedule)), sides), `${transport} ${r.schedule}`);
  }
});
