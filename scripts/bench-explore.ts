/**
 * The explorer's figure for scripts/bench.ts: schedules per second headless, on the pool the
 * command line uses (one worker thread per core, each running whole schedules with both sides
 * and the coordinator in it), for the standard scenario with a latency range each way (a random
 * search: its space is far larger than the budget). Warm workers: their start-up is not timed, and
 * a search of WARM_UP schedules per worker first gets their code compiled as a long search has
 * it. The rate goes on rising long after the first hundreds: a pool of 2, alternately timed on
 * 300 schedules after 300 each and on 1,500 after 1,000 each, gave 723–848/s and 1,069–1,174/s.
 */
import os from 'node:os';
import { startExploreWorker } from '../src/host/index.ts';
import { explore, PooledLane } from '../src/explore/index.ts';
import type { Scenario } from '../src/scenario/index.ts';

const EXPLORE_BUDGET = 1500;
const WARM_UP = 1000;

export async function benchExplore(standard: Scenario): Promise<[string, string, string]> {
  const lanes = Array.from({ length: Math.max(1, os.availableParallelism()) }, () => new PooledLane(startExploreWorker));
  try {
    const s: Scenario = { ...standard, explore: { c2s: [1, 9], s2c: [1, 9] } };
    await explore(s, { lanes, budget: WARM_UP * lanes.length, seed: 'warm-up', strategy: 'random' });
    const t0 = performance.now();
    const found = await explore(s, { lanes, budget: EXPLORE_BUDGET, seed: 'bench' });
    const seconds = (performance.now() - t0) / 1000;
    const traces = new Set(found.records.map((r) => r.traceHash)).size;
    return ['explorer, headless', `${(found.records.length / seconds).toFixed(0)} schedules/s`, `${found.records.length} schedules of the standard scenario with c2s/s2c in [1, 9] ms (${found.strategy}, ${traces} distinct traces) on a pool of ${lanes.length} worker threads, each running whole schedules, after ${WARM_UP} each to warm up; aim ≥ 1,000/s`];
  } finally {
    await Promise.all(lanes.map((l) => l.close()));
  }
}
