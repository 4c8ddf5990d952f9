/**
 * The playground's explorer: a search over the scenario's schedule space on a pool of workers
 * of its own, sized to the machine, each running whole schedules with a pair of sides and their
 * coordinator (PooledLane; the page's run keeps its own worker). The pool lives as long as one
 * search: its workers are terminated when the search ends, when it is stopped, and when the page
 * goes away. The page only hands out jobs and takes in records, so the search never holds its
 * main thread for long; what it found reaches the caller one record at a time.
 * When the search ends (its budget run, or Stop), each rule's witness is shrunk on the same pool
 * as the CLI shrinks it (summarize), for a few seconds at most, before the workers go.
 */
import { explore, PooledLane, summarize, type Exploration, type Ran, type ScheduleRecord, type Witness } from '../../src/explore/index.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { startExploreWorker } from './browser-sides.ts';

/** More lanes than this buy little on a laptop and cost a worker's memory each. */
export const MAX_LANES = 4;

/** One lane per core, at most MAX_LANES. */
export function poolSize(): number {
  return Math.max(1, Math.min(MAX_LANES, navigator.hardwareConcurrency || 1));
}

export interface PoolSearch {
  scenario: Scenario;
  budget: number;
  signal: AbortSignal;
  /** The schedules an earlier search of this scenario ran (explore's `known`): a search taken up again runs only the rest. */
  known: Map<string, Ran>;
  onRecord(record: ScheduleRecord, done: number): void;
  /** Called when the search ended and a rule was broken, before shrinking: what it returns stops the shrinking (a second Stop). */
  onShrinking(): AbortSignal;
}

export interface PoolResult {
  exploration: Exploration;
  /** Each broken rule's shrunk witness; empty when nothing was broken or the shrinking was stopped or ran out of time. */
  shrunk: Map<string, Witness>;
}

/** The shrinking's bound in wall-clock time: past it, the witnesses stay the smallest schedules run. */
export const SHRINK_SECONDS = 8;

/** The rules' shrunk witnesses, or none when `signal` or the clock ends the shrinking first. */
async function shrunkOn(exploration: Exploration, lanes: readonly PooledLane[], signal: AbortSignal): Promise<Map<string, Witness>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = (): void => undefined;
  const cut = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SHRINK_SECONDS * 1000);
    onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // The runs left when the shrinking is cut end on the workers terminated below.
    const result = await Promise.race([summarize(exploration, lanes), cut]);
    return new Map(result?.rules.map((r) => [r.rule, r.witness]) ?? []);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** Runs one search on a fresh pool and shrinks its witnesses there; its workers are gone when this settles. */
export async function explorePool(search: PoolSearch): Promise<PoolResult> {
  // A lane whose run broke its sides, or whose worker died, starts a fresh worker itself (PooledLane).
  const lanes = Array.from({ length: poolSize() }, () => new PooledLane(startExploreWorker));
  const terminateAll = (): void => {
    for (const lane of lanes) void lane.close();
  };
  // Stop lets the schedules already running finish (a few ms), then the search ends, its
  // witnesses are shrunk and the workers go below; a page going away does not wait for them.
  addEventListener('pagehide', terminateAll, { once: true });
  try {
    const exploration = await explore(search.scenario, {
      lanes,
      budget: search.budget,
      signal: search.signal,
      known: search.known,
      onRecord: search.onRecord,
    });
    const broken = exploration.records.some((r) => r.problem === undefined && r.violated.length > 0);
    return { exploration, shrunk: broken ? await shrunkOn(exploration, lanes, search.onShrinking()) : new Map() };
  } finally {
    removeEventListener('pagehide', terminateAll);
    terminateAll();
  }
}
