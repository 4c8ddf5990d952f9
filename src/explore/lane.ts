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

/** The job run on sides in this thread's coordinator. */
export function runJobOn(sides: Sides, scenario: Scenario, job: ScheduleJob): Promise<Ran> {
  const draw = job.random === undefined ? null : randomInts(job.random.seed, job.random.n);
  return runSchedule(scenario, sides, job.forced, draw === null ? null : (d) => draw(d.options));
}

export function runJob(lane: Lane, scenario: Scenario, job: ScheduleJob): Promise<Ran> {
  return isRunner(lane) ? lane.runJob(scenario, job) : runJobOn(lane, scenario, job);
}
