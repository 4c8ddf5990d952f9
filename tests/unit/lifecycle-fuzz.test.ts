/**
 * The lifecycle tables against random runs: whatever the user does, in any allowed setting,
 * with faults on the wire and short timeouts, every state change the runs make is one the
 * tables have (an engine `error` event naming a missing transition would show a gap), and
 * every run ends at its `endAt`, never on a bound or with a side down. Deterministic: a fixed
 * seed, so a failure names a scenario that fails every time.
 *
 * The sample is small so the unit tests stay fast; FUZZ_RUNS and FUZZ_SEED widen it
 * (`FUZZ_RUNS=600 node --test tests/unit/lifecycle-fuzz.test.ts`), and scripts/fuzz-engine.ts
 * sweeps many more and sorts what it finds. Each case a sweep found is a named test in
 * engine-robustness.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { haltOf } from '../../src/engine/index.ts';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { parseScenario } from '../../src/scenario/schema.ts';
import { runnableScenarioArbitrary } from './scenario-arbitrary.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 11);

const sides = createNodeSides();
after(() => sides.close());

test(`${RUNS} random runs (seed ${SEED}) in every allowed setting take only transitions the tables have, and end at their end`, async () => {
  for (const s of fc.sample(runnableScenarioArbitrary, { numRuns: RUNS, seed: SEED })) {
    const parsed = parseScenario(s);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('; '));
    const trace = await runHeadless(s, sides);
    const gaps = trace.filter((e) => e.kind === 'error' && e.message.includes('no transition'));
    assert.deepEqual(gaps, [], JSON.stringify(s));
    assert.equal(haltOf(trace), null, JSON.stringify(s));
  }
});
