// Both sides of a browser worker, started as the page's first message says: a `run` port for
// the playground's run (run-service.ts), or a `schedules` port for a lane of the explorer's pool
// (src/explore/pool.ts serveSchedules). Either way the coordinator is in this thread and steps
// the sides by direct calls; each side keeps its own virtual clock, and their steps take turns
// (side-turns.ts).
import { inTurn } from './side-turns.ts';
import { copyingInputs, SideState, withBatches } from './runtime.ts';
import { clientSide } from './client-side.ts';
import { serverSide } from './server-side.ts';
import { webPort, type Port } from './side-channel.ts';
import { serveRun } from './run-service.ts';
import { prestartCommands } from './first-run.ts';
import { wrapSteps, type SideApi, type Sides } from '../src/engine/index.ts';

/** The port a sides worker is started with (site/lib/browser-sides.ts). */
export type SidesWorkerStart = { run: MessagePort } | { schedules: MessagePort };

/** `api` with every call run as a step of `state`, in its turn, taking copies of what a port would have cloned. */
function taking<A>(api: SideApi<A>, state: SideState): Required<SideApi<A>> {
  return copyingInputs(wrapSteps(withBatches(api), (step) => inTurn(state, step)));
}

function threadSides(): Sides {
  return { client: taking(clientSide, new SideState()), server: taking(serverSide, new SideState()) };
}

/** Builds this thread's two sides and serves them on the port of `start`; call once per thread. */
export function startSides(start: SidesWorkerStart): void {
  const sides = threadSides();
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

/**
 * A port whose page is not here yet: `listen` is handed `commands` at once, as if the page had
 * sent them, and what is posted waits (copied, as posting would copy it) until `arrive` gives the
 * page's own port, which then carries everything.
 */
function portToCome(commands: readonly unknown[]): { port: Port; arrive(page: Port): void } {
  let page: Port | null = null;
  const waiting: unknown[] = [];
  let handler: (message: unknown) => void = () => {};
  return {
    port: {
      postMessage: (message) => (page ? page.postMessage(message) : waiting.push(structuredClone(message))),
      listen(h) {
        handler = h;
        for (const command of commands) h(command);
      },
    },
    arrive(p) {
      page = p;
      for (const message of waiting.splice(0)) p.postMessage(message);
      p.listen((message) => handler(message));
    },
  };
}

/**
 * For a worker started under FRESH_RUN_WORKER: builds the sides and plays the fresh run's first
 * commands (prestartCommands) now, while the page's port is still on its way; their answers
 * wait for it. Returns what takes the page's first message, which must bring a `run` port.
 */
export function startFreshRun(): (start: SidesWorkerStart) => void {
  const { port, arrive } = portToCome(prestartCommands());
  serveRun(threadSides(), port);
  return (start) => {
    if (!('run' in start)) throw new Error('a fresh run\'s sides worker serves a run port, not an explorer lane');
    arrive(webPort(start.run));
  };
}
