/**
 * The explorer layer's public surface: the search over a scenario's schedule space (search.ts),
 * what one schedule's run comes to (run-one.ts, outcome.ts), the tally and the shrunk witnesses
 * (summary.ts, shrink.ts), and shard files and their merge (merge.ts). It runs on lanes
 * (lane.ts): pairs of sides it drives (the page's workers in the browser, Node's headless), or
 * workers that run whole schedules themselves (pool.ts; headless, src/host's explore worker).
 */
export { DEFAULT_BUDGET, explore, type Exploration, type ExploreOptions, type Shard, type Strategy } from './search.ts';
export { runSchedule, type Ran, type ScheduleRecord } from './run-one.ts';
export { crossed, outcomeClass } from './outcome.ts';
export { summarize, type ClassTally, type ExploreResult, type RuleTally, type Witness } from './summary.ts';
export { SHRINK_RUNS, shrinkWitness } from './shrink.ts';
export { mergeExplorations, readExploration, type Merged, type ReadExploration } from './merge.ts';
export { compareRecords } from './order.ts';
export { isRunner, type Lane } from './lane.ts';
export { PooledLane, serveSchedules, type PoolWorker } from './pool.ts';
