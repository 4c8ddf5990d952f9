/**
 * The playground's explorer: a search over the scenario's schedule space on a pool of worker
 * pairs of its own (the page's run keeps its pair), sized to the machine. The pool lives as long
 * as one search: its workers are terminated when the search ends, when it is stopped, and when
 * the page goes away. The run loop of each schedule awaits its workers at every event, so the
 * search never holds the main thread for long; what it found reaches the caller one record at
 * a time.
 */
import { explore, type Exploration, type ScheduleRecord } from '../../src/explore/index.ts';
import type { Sides } from '../../src/engine/index.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { createBrowserSides, type BrowserSides } from './browser-sides.ts';

/** More lanes than this buy little on a laptop and cost a worker pair's memory each. */
export const MAX_LANES = 4;

/** One lane per core, at most MAX_LANES. */
export function poolSize(): number {
  return Math.max(1, Math.min(MAX_LANES, navigator.hardwareConcurrency || 1));
}

export interface PoolSearch {
  scenario: Scenario;
  budget: number;
  signal: AbortSignal;
  onRecord(record: ScheduleRecord, done: number): void;
}

/** Runs one search on a fresh pool; its workers are gone when this settles. */
export async function explorePool(search: PoolSearch): Promise<Exploration> {
  const pool = new Set<BrowserSides>();
  const fresh = (): BrowserSides => {
    const sides = createBrowserSides();
    pool.add(sides);
    return sides;
  };
  const terminateAll = (): void => {
    for (const sides of pool) sides.terminate();
    pool.clear();
  };
  // Stop lets the schedules already running finish (a few ms), then the search ends and the
  // workers go below; a page going away does not wait for them.
  addEventListener('pagehide', terminateAll, { once: true });
  const lanes: Sides[] = Array.from({ length: poolSize() }, fresh);
  try {
    return await explore(search.scenario, {
      lanes,
      budget: search.budget,
      signal: search.signal,
      onRecord: search.onRecord,
      // A pair that failed or hung in a run is replaced, so one bad schedule does not stall its lane.
      renew(broken) {
        const old = [...pool].find((sides) => sides === broken);
        old?.terminate();
        if (old) pool.delete(old);
        return Promise.resolve(fresh());
      },
    });
  } finally {
    removeEventListener('pagehide', terminateAll);
    terminateAll();
  }
}
