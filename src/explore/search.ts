/**
 * The search over a scenario's schedule space. Every schedule is a list of choices (choice 0
 * the default); the search takes them in one deterministic order and runs each on one of
 * several lanes (pairs of sides, or runners of whole schedules), keeping results by their place in the order, never by which pair
 * finished first.
 *
 * Exhaustive: the default schedule first, then every schedule one choice away from it, then two,
 * and so on (each wave made from the last: a schedule's children change one choice after the
 * last one it forced). Each schedule of the tree comes up exactly once; a budget cuts the order.
 * Random: schedule n of seed s takes, at each decision, a choice drawn from its own seeded
 * stream; schedule 0 is the default one. The strategy is chosen from the default run: exhaustive
 * when its decisions multiply to no more than the budget.
 *
 * Shards: in the exhaustive order, the schedules one choice away are dealt out round robin and
 * each shard searches the subtrees under its own; in the random one, schedule n goes to shard
 * n mod N. Each shard takes the first `budget` of its part, so the first `budget` of all the
 * parts together are the unsharded search's (merge.ts).
 */
import type { Sides } from '../engine/index.ts';
import { compareChoices, type Scenario } from '../scenario/index.ts';
import { isRunner, runJob, type Lane } from './lane.ts';
import type { Ran, ScheduleRecord } from './run-one.ts';

export type Strategy = 'exhaustive' | 'random';

export interface Shard {
  /** 1-based. */
  k: number;
  n: number;
}

export interface ExploreOptions {
  /**
   * What to run on, one schedule at a time each: pairs of sides (one per core, say), driven from
   * this thread, or runners of whole schedules (pool.ts). A pair that broke in a run is replaced
   * here, by `renew`; a runner replaces its own.
   */
  lanes: Lane[];
  /** A fresh pair for one that failed or hung in a run (closing the old one); without it, the broken pair runs on. */
  renew?: (broken: Sides) => Promise<Sides>;
  /** The most schedules to run; 200 when neither this nor `seconds` is given. */
  budget?: number;
  /** Start no schedule this many seconds of wall-clock time after the default one ran (the result then depends on the machine). */
  seconds?: number;
  seed?: string;
  shard?: Shard;
  /** Auto (the default) picks from the default run's decisions. */
  strategy?: Strategy | 'auto';
  /** Start no schedule once this is aborted (a page's Stop); what ran is the result. */
  signal?: AbortSignal;
  /** Called after each schedule run, with its record and how many have run (a live histogram's feed). */
  onRecord?: (record: ScheduleRecord, done: number) => void;
  /**
   * Schedules of this same search (its scenario and seed) run before, by `scheduleKey`: a
   * stopped search's, so that the search taken up again runs only what it had not, and gives the
   * records a search never stopped would. Each schedule run is added to it.
   */
  known?: Map<string, Ran>;
}

/** A search's schedules, each run and judged: what a shard file holds, and what merging joins. */
export interface Exploration {
  scenario: Scenario;
  strategy: Strategy;
  seed: string;
  budget: number | null;
  seconds: number | null;
  shard: Shard | null;
  /** Every schedule of the space was run (a budget or the clock cut nothing). */
  exhausted: boolean;
  /** In the search's order. */
  records: ScheduleRecord[];
}

export const DEFAULT_BUDGET = 200;
/** With only a time limit, the exhaustive search is chosen for spaces up to this size. */
const EXHAUSTIVE_UNBOUNDED = 10_000;

interface Job {
  forced: number[];
  n?: number;
}

/** A schedule's key in `known`: its forced choices, and in the random search its seed and number (which fix the rest). */
function scheduleKey(job: Job, random: boolean, seed: string): string {
  return random && job.n !== undefined ? `${seed}#${job.n}:${job.forced.join(',')}` : job.forced.join(',');
}

/** Runs the jobs on the lanes, each lane one at a time; results in the jobs' order, null for one the clock left unstarted. */
async function runJobs(scenario: Scenario, o: ExploreOptions, jobs: readonly Job[], random: boolean, seed: string, deadline: number, done: (record: ScheduleRecord) => void): Promise<(Ran | null)[]> {
  const results: (Ran | null)[] = jobs.map(() => null);
  let next = 0;
  const lane = async (l: number): Promise<void> => {
    for (let i = next++; i < jobs.length && Date.now() < deadline && o.signal?.aborted !== true; i = next++) {
      const job = jobs[i] as Job;
      const key = scheduleKey(job, random, seed);
      const before = o.known?.get(key);
      let ran: Ran;
      // Copies in and out of `known`: the search sets a record's number, and the exhaustive one takes it off the default's.
      if (before !== undefined) ran = { ...before, record: { ...before.record } };
      else {
        const on = o.lanes[l] as Lane;
        ran = await runJob(on, scenario, { forced: job.forced, ...(random && job.n !== undefined && { random: { seed, n: job.n } }) });
        if (ran.broken && o.renew && !isRunner(on)) o.lanes[l] = await o.renew(on);
        // A run that failed is not kept: taken up again, the search tries it once more.
        if (!ran.broken) o.known?.set(key, { ...ran, record: { ...ran.record } });
      }
      if (job.n !== undefined) ran.record.n = job.n;
      results[i] = ran;
      done(ran.record);
    }
  };
  // A runner of whole schedules is sent its next one while it runs one, so that it never waits on this thread between two.
  const loops = o.lanes.flatMap((on, l) => (isRunner(on) ? [l, l] : [l]));
  await Promise.all(loops.map((l) => lane(l)));
  return results;
}

/** The schedules one choice further than `ran` (forced up to `from`): each later decision, each other option. */
function children(ran: Ran, from: number): Job[] {
  const jobs: Job[] = [];
  for (let i = from; i < ran.options.length; i++) {
    for (let c = 1; c < (ran.options[i] ?? 1); c++) jobs.push({ forced: [...ran.choices.slice(0, i), c] });
  }
  return jobs;
}

export async function explore(scenario: Scenario, o: ExploreOptions): Promise<Exploration> {
  if (o.lanes.length === 0) throw new Error('the explorer needs at least one pair of sides to run on');
  const budget = o.budget ?? (o.seconds === undefined ? DEFAULT_BUDGET : null);
  const limit = budget ?? Number.POSITIVE_INFINITY;
  const seed = o.seed ?? '0';
  let count = 0;
  const done = (record: ScheduleRecord): void => {
    count++;
    o.onRecord?.(record, count);
  };
  const [root] = await runJobs(scenario, o, [{ forced: [], n: 0 }], false, seed, Number.POSITIVE_INFINITY, done);
  if (!root) throw new Error('the search was stopped before its default schedule ran');
  // The clock starts once the default schedule ran: the sides' start-up is not the search's time.
  const deadline = o.seconds === undefined ? Number.POSITIVE_INFINITY : Date.now() + o.seconds * 1000;
  const size = root.options.reduce((p, k) => Math.min(p * k, Number.MAX_SAFE_INTEGER), 1);
  const strategy: Strategy = o.strategy === 'exhaustive' || o.strategy === 'random' ? o.strategy : size <= (budget ?? EXHAUSTIVE_UNBOUNDED) ? 'exhaustive' : 'random';
  const inShard = (j: number): boolean => o.shard === undefined || j % o.shard.n === o.shard.k - 1;
  const records: ScheduleRecord[] = [];
  let cut = false;
  if (strategy === 'exhaustive') {
    delete root.record.n;
    records.push(root.record);
    let wave = children(root, 0).filter((_, j) => inShard(j));
    while (wave.length > 0) {
      wave.sort((a, b) => compareChoices(a.forced, b.forced));
      const room = limit - records.length;
      if (room < wave.length) cut = true;
      const jobs = wave.slice(0, Math.max(0, room));
      const ran = await runJobs(scenario, o, jobs, false, seed, deadline, done);
      const next: Job[] = [];
      for (const [i, r] of ran.entries()) {
        if (r === null) cut = true;
        else {
          records.push(r.record);
          next.push(...children(r, jobs[i]?.forced.length ?? 0));
        }
      }
      wave = cut ? [] : next;
    }
  } else {
    records.push(root.record);
    const chunk = 64 * o.lanes.length;
    for (let from = 1; from < limit && Date.now() < deadline && o.signal?.aborted !== true; from += chunk) {
      const jobs: Job[] = [];
      for (let n = from; n < Math.min(from + chunk, limit); n++) if (inShard(n)) jobs.push({ forced: [], n });
      const ran = await runJobs(scenario, o, jobs, true, seed, deadline, done);
      records.push(...ran.filter((r): r is Ran => r !== null).map((r) => r.record));
    }
    cut = true;
  }
  return { scenario, strategy, seed, budget, seconds: o.seconds ?? null, shard: o.shard ?? null, exhausted: !cut, records };
}
