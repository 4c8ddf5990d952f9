// Both sides of a browser worker, started as the worker's name says (worker-names.ts): the
// playground's run (run-service.ts), or a lane of the explorer's pool (src/explore/pool.ts
// serveSchedules). Either way the coordinator is in this thread and steps the sides by direct
// calls; each side keeps its own virtual clock, and their steps take turns (side-turns.ts).
import { sideInTurns } from './side-turns.ts';
import { SideState } from './runtime.ts';
import { clientSide } from './client-side.ts';
import { serverSide } from './server-side.ts';
import { heldFromNow, withFirst, type Port } from './side-channel.ts';
import { serveRun } from './run-service.ts';
import { prestartCommands } from './first-run.ts';
import { EXPLORE_LANE_WORKER, FRESH_RUN_WORKER, RUN_WORKER } from './worker-names.ts';
import type { Sides } from '../src/engine/index.ts';

function threadSides(): Sides {
  return { client: sideInTurns(clientSide, new SideState()), server: sideInTurns(serverSide, new SideState()) };
}

/**
 * Builds this thread's two sides and serves them on `port`, the worker's own, as its `name`
 * says (worker-names.ts); call once per thread. A fresh run's worker plays that run's first
 * commands (prestartCommands) at once, before the page has said anything.
 */
export function startSides(name: string, port: Port): void {
  const sides = threadSides();
  if (name === RUN_WORKER) serveRun(sides, port);
  else if (name === FRESH_RUN_WORKER) serveRun(sides, withFirst(port, prestartCommands()));
  // The explorer, and the rules it judges each schedule by, load only in a lane of its pool: the
  // playground's run worker starts without them (about 130 KB of the bundle's 800).
  else if (name === EXPLORE_LANE_WORKER) {
    const lane = heldFromNow(port);
    // A chunk that fails to load is thrown where the page sees it: as the worker's error event,
    // which ends the lane.
    import('../src/explore/index.ts').then(
      ({ serveSchedules }) => serveSchedules(lane, sides),
      (error: unknown) =>
        queueMicrotask(() => {
          throw error;
        }),
    );
  } else throw new Error(`a sides worker named "${name}" serves nothing: its name says what it serves (worker-names.ts)`);
}
