// Both sides of a browser worker, started as the page's first message says: a `run` port for
// the playground's run (run-service.ts), or a `schedules` port for a lane of the explorer's pool
// (src/explore/pool.ts serveSchedules). Either way the coordinator is in this thread and steps
// the sides by direct calls; each side keeps its own virtual clock, and their steps take turns
// (side-turns.ts).
import { inTurn } from './side-turns.ts';
import { copyingInputs, SideState, withBatches } from './runtime.ts';
import { clientSide } from './client-side.ts';
import { serverSide } from './server-side.ts';
import { webPort } from './side-channel.ts';
import { serveRun } from './run-service.ts';
import { wrapSteps, type SideApi, type Sides } from '../src/engine/index.ts';

/** The port a sides worker is started with (site/lib/browser-sides.ts). */
export type SidesWorkerStart = { run: MessagePort } | { schedules: MessagePort };

/** `api` with every call run as a step of `state`, in its turn, taking copies of what a port would have cloned. */
function taking<A>(api: SideApi<A>, state: SideState): Required<SideApi<A>> {
  return copyingInputs(wrapSteps(withBatches(api), (step) => inTurn(state, step)));
}

/** Builds this thread's two sides and serves them on the port of `start`; call once per thread. */
export function startSides(start: SidesWorkerStart): void {
  const sides: Sides = { client: taking(clientSide, new SideState()), server: taking(serverSide, new SideState()) };
  if ('run' in start) serveRun(sides, webPort(start.run));
  // The explorer, and the rules it judges each schedule by, load only in a lane of its pool: the
  // playground's run worker starts without them (about 130 KB of the bundle's 800).
  else {
    const port = webPort(start.schedules);
    // The port keeps the jobs that come meanwhile. A chunk that fails to load is thrown where the
    // page sees it: as the worker's error event, which ends the lane.
    import('../src/explore/index.ts').then(
      ({ serveSchedules }) => serveSchedules(port, sides),
      (error: unknown) =>
        queueMicrotask(() => {
          throw error;
        }),
    );
  }
}
