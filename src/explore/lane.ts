/**
 * What the explorer runs schedules on: a pair of sides it drives itself (the coordinator in
 * this thread, the sides wherever they are), or a runner that runs whole schedules elsewhere
 * (a worker thread with its own sides and coordinator, pool.ts) and hands back their records.
 * Either way one schedule at a time per lane, and the same run for the same job.
 */
import type { Sides } from '../engine/index.ts';
import type { Scenario } from '../scenario/index.ts';
import { randomInts } from './prng.ts';
import { runSchedule, type Ran } from './run-one.ts';

/** One schedule to run: the forced choices, then (in the random search) the draws of schedule `n` of `seed`, else the defaults. */
export interface ScheduleJob {
  forced: readonly number[];
  random?: { seed: string; n: number };
}

export interface ScheduleRunner {
  runJob(scenario: Scenario, job: ScheduleJob): Promise<Ran>;
}

export type Lane = Sides | ScheduleRunner;

export function isRunner(lane: Lane): lane is ScheduleRunner {
  return 'runJob' in lane;
}

/**
 * The last schedule asked of each pair of sides. A pair runs one schedule at a time: a run
 * starts by resetting both sides, so two runs at once on one pair would run on each other's
 * state. One search never asks that of a pair; two searches given the same lanes (or a search
 * and the summary of another) take turns on them instead.
 */
const lastOn = new WeakMap<Sides, Promise<unknown>>();

/** The job run on sides in this thread's coordinator, after whatever the pair was asked before. */
export function runJobOn(sides: Sides, scenario: Scenario, job: ScheduleJob): Promise<Ran> {
  const draw = job.random === undefined ? null : randomInts(job.random.seed, job.random.n);
  const run = (): Promise<Ran> => runSchedule(scenario, sides, job.forced, draw === null ? null : (d) => draw(d.options));
  const before = lastOn.get(sides);
  // runSchedule never rejects (a run that fails is a record saying so), so the chain holds.
  const ran = before === undefined ? run() : before.then(run);
  lastOn.set(sides, ran);
  return ran;
}

export function runJob(lane: Lane, scenario: Scenario, job: ScheduleJob): Promise<Ran> {
  return isRunner(lane) ? lane.runJob(scenario, job) : runJobOn(lane, scenario, job);
}
