/**
 * The large fuzz sweep of the engine: runs many random scenarios headlessly (the real SDK in
 * worker threads) and sorts what they show. A run should end at its `endAt`, taking only
 * transitions the lifecycle tables have; this lists every run that did not (a gap in a table,
 * a bound reached, a side that failed or never went quiet), each with its scenario as one line
 * of JSON to replay with `cancel-lab run` or to paste into a test, and counts the error events
 * that say a scenario asked for something that cannot happen at run time (progress forged before
 * any stream exists; a Stop for a call never made is refused by the schema before a run).
 *
 *   node scripts/fuzz-engine.ts [--runs 600] [--seed 1] [--space runnable|schema]
 *
 * `runnable` (the default) draws scenarios worth running: every allowed setting, the real
 * tools, timeouts, faults and connection events (the lifecycle fuzz test's space, which takes
 * a small sample of it); `schema` draws anything the scenario schema accepts. Exit 1 when a
 * run did not end well. A run takes a few ms to 100 ms: 600 take a minute or two.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { haltOf } from '../src/engine/index.ts';
import { createNodeSides, runHeadless, type NodeSides } from '../src/host/index.ts';
import { parseScenario } from '../src/scenario/index.ts';
import { runnableScenarioArbitrary, scenarioArbitrary } from '../tests/unit/scenario-arbitrary.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '600' },
    seed: { type: 'string', default: '1' },
    space: { type: 'string', default: 'runnable' },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed) || (values.space !== 'runnable' && values.space !== 'schema')) {
  console.error('usage: node scripts/fuzz-engine.ts [--runs N] [--seed S] [--space runnable|schema]');
  process.exit(2);
}
const space = values.space === 'schema' ? scenarioArbitrary : runnableScenarioArbitrary;

/** A side stuck this long in one step is reported; far above any real step (milliseconds). */
const SIDE_TIMEOUT_MS = 10_000;

/** An error message with its call names, ids and frames masked, so the same kind counts once. */
function kindOf(message: string): string {
  return message
    .replace(/^(Stop for unknown call |no request id known for call ).*$/s, '$1…')
    .replace(/^call .* already exists$/s, 'call … already exists')
    .replace(/\{.*\}|\b\d+\b/gs, '…');
}

let sides: NodeSides = createNodeSides();
const bad: { no: number; what: string; scenario: string }[] = [];
const impossible = new Map<string, number>();
let runsWithImpossible = 0;
let slowest = { ms: 0, no: -1 };
const started = Date.now();

for (const [no, scenario] of fc.sample(space, { numRuns: runs, seed }).entries()) {
  const parsed = parseScenario(scenario);
  if (!parsed.ok) {
    bad.push({ no, what: `the schema refuses its own sample: ${parsed.errors.join('; ')}`, scenario: JSON.stringify(scenario) });
    continue;
  }
  const t0 = Date.now();
  const trace = await runHeadless(parsed.scenario, sides, { sideTimeoutMs: SIDE_TIMEOUT_MS });
  const ms = Date.now() - t0;
  if (ms > slowest.ms) slowest = { ms, no };
  const halt = haltOf(trace);
  const gaps = trace.flatMap((e) => (e.kind === 'error' && e.message.includes('no transition') ? [e.message] : []));
  if (gaps.length > 0) bad.push({ no, what: `gaps in the tables: ${[...new Set(gaps)].join(' | ')}`, scenario: JSON.stringify(scenario) });
  if (halt) bad.push({ no, what: `halted (${halt.reason}): ${halt.message}`, scenario: JSON.stringify(scenario) });
  // A side that timed out or failed may be stuck or gone: the next run gets new workers.
  if (halt?.reason === 'side-busy' || halt?.reason === 'side-failed') {
    await sides.close();
    sides = createNodeSides();
  }
  const haltEvent = halt ? trace.at(-1) : undefined;
  const others = trace.flatMap((e) => (e.kind === 'error' && e !== haltEvent && !e.message.includes('no transition') ? [e.message] : []));
  if (others.length > 0) runsWithImpossible++;
  for (const message of others) impossible.set(kindOf(message), (impossible.get(kindOf(message)) ?? 0) + 1);
}
await sides.close();

console.log(`${runs} runs (space ${values.space}, seed ${seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s; slowest #${slowest.no}, ${slowest.ms} ms`);
console.log(`${bad.length} did not end well${bad.length ? ':' : ''}`);
for (const b of bad) console.log(`  #${b.no} ${b.what}\n    ${b.scenario}`);
console.log(`${runsWithImpossible} runs asked for something that cannot happen (error events, by kind):`);
for (const [kind, n] of [...impossible].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${kind}`);
process.exit(bad.length > 0 ? 1 : 0);
