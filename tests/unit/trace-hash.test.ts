/**
 * traceHash is the first 16 hex digits of the SHA-256 of the trace's JSON Lines (serializeTrace),
 * whatever its length: a long trace is hashed chunk by chunk, with or without pauses between
 * the chunks. Node's own SHA-256 is the reference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createNodeSides, runHeadless } from '../../src/host/index.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { serializeTrace, traceHash, type TraceEvent } from '../../src/trace/index.ts';

const reference = (trace: readonly TraceEvent[]): string => createHash('sha256').update(serializeTrace(trace)).digest('hex').slice(0, 16);

test('a trace of thousands of events hashes to the SHA-256 of its JSON Lines, paused between chunks or not', async () => {
  const sides = createNodeSides();
  let trace: TraceEvent[];
  try {
    // slow_count of 1,500 steps of 1 ms: three events a step.
    const steps = 1500;
    trace = await runHeadless({ ...defaultScenario(), steps: [{ at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps, stepMs: 1 } } }], endAt: steps + 100 }, sides);
  } finally {
    await sides.close();
  }
  assert.ok(trace.length > 4_000, `${trace.length} events: more than two chunks`);
  let pauses = 0;
  const paused = await traceHash(trace, async () => void pauses++);
  assert.ok(pauses >= 2);
  assert.equal(paused, reference(trace));
  assert.equal(await traceHash(trace), reference(trace));
  // At the edges: no event, one chunk exactly, and one event more.
  for (const n of [0, 1, 2_000, 2_001]) assert.equal(await traceHash(trace.slice(0, n)), reference(trace.slice(0, n)), `${n} events`);
});
