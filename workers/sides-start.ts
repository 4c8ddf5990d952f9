// Both sides of a browser worker, started as the page's first message says: a `run` port for
// the playground's run, whose coordinator then steps the sides here (run-service.ts), or one
// port per side for a coordinator on the page (the explorer's lanes, side-channel.ts). Each side
// keeps its own virtual clock, and their steps take turns (side-turns.ts).
import { inTurn } from './side-turns.ts';
import { copyingInputs, SideState, withBatches } from './runtime.ts';
import { wallTimers } from './side-globals.ts';
import { clientSide } from './client-side.ts';
import { serverSide } from './server-side.ts';
import { exposeSide, webPort } from './side-channel.ts';
import { serveRun } from './run-service.ts';
import { wrapSteps, type SideApi } from '../src/engine/index.ts';

/** The ports a sides worker is started with (site/lib/browser-sides.ts). */
export type SidesWorkerStart = { run: MessagePort } | { client: MessagePort; server: MessagePort };

/** `api` with every call run as a step of `state`, in its turn. */
function taking<A>(api: SideApi<A>, state: SideState): Required<SideApi<A>> {
  return wrapSteps(withBatches(api), (step) => inTurn(state, step));
}

/** Builds this thread's two sides and serves them on the ports of `start`; call once per thread. */
export function startSides(start: SidesWorkerStart): void {
  const client = taking(clientSide, new SideState());
  const server = taking(serverSide, new SideState());
  if ('run' in start) {
    // The coordinator is in this thread: it hands the sides what a port would have cloned.
    serveRun({ client: copyingInputs(client), server: copyingInputs(server) }, webPort(start.run), wallTimers);
  } else {
    exposeSide(client, webPort(start.client));
    exposeSide(server, webPort(start.server));
  }
}
