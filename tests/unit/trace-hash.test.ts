/**
 * traceHash is the first 16 hex digits of the SHA-256 of the trace's JSON Lines (serializeTrace),
 * whatever its length: a long trace is hashed chunk by chunk, with or without pauses between
 * the chunks. Node's own SHA-256 is the reference, for both digests traceHash computes with: Node's
 * own, and the browsers' (@noble/hashes), here in a second copy of the module loaded where
 * process.getBuiltinModule is missing, as it is in a browser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createNodeSides, runHeadless } from '../../src/host/index.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { serializeTrace, traceHash as nodeTraceHash, type TraceEvent } from '../../src/trace/index.ts';

type Hash = typeof nodeTraceHash;

/** hash.ts loaded again (a query makes it a module of its own) while the thread lacks getBuiltinModule. */
async function browserTraceHash(): Promise<Hash> {
  const saved = process.getBuiltinModule;
  Reflect.deleteProperty(process, 'getBuiltinModule');
  try {
    return ((await import(new URL('../../src/trace/hash.ts?as-in-a-browser', import.meta.url).href)) as { traceHash: Hash }).traceHash;
  } finally {
    process.getBuiltinModule = saved;
  }
}

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
  for (const [digest, traceHash] of [['Node', nodeTraceHash], ['noble', await browserTraceHash()]] as const) {
    let pauses = 0;
    const paused = await traceHash(trace, async () => void pauses++);
    assert.ok(pauses >= 2);
    assert.equal(paused, reference(trace), digest);
    assert.equal(await traceHash(trace), reference(trace), digest);
    // At the edges: no event, one chunk exactly, and one event more.
    for (const n of [0, 1, 2_000, 2_001]) assert.equal(await traceHash(trace.slice(0, n)), reference(trace.slice(0, n)), `${digest}, ${n} events`);
  }
  // Text beyond ASCII goes in as UTF-8 both ways.
  const accented: TraceEvent[] = [{ ...(trace[0] as TraceEvent), seq: 0, kind: 'error', message: 'arrêté — 止まった 🛑' } as TraceEvent];
  assert.equal(await (await browserTraceHash())(accented), reference(accented));
  assert.equal(await nodeTraceHash(accented), reference(accented));
});
