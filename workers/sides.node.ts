// Node entry for both sides in this thread (src/host/in-thread.ts), as the browser's sides
// worker holds them (sides-start.ts): each step runs in its side's turn (side-turns.ts), so the
// timers, Date and randomness its code reaches are that side's own.
import { sideInTurns } from './side-turns.ts';
import { SideState } from './runtime.ts';
import { clientSide } from './client-side.ts';
import { serverSide } from './server-side.ts';
import { wrapSteps, type ClientSideApi, type ServerSideApi, type SideApi } from '../src/engine/index.ts';

/**
 * What a worker's caller would get: an Error comes back as a new Error with its message, name
 * and stack (as side-channel.ts sends one), so that nothing of the side's own object leaks into the run.
 */
function asCloned(error: unknown): unknown {
  return error instanceof Error ? Object.assign(new Error(error.message), { name: error.name, stack: error.stack }) : error;
}

/** `api` as one of this thread's sides (sideInTurns), its errors cloned as a worker's would be. */
function inContext<A>(api: SideApi<A>, state: SideState): SideApi<A> {
  const fail = (error: unknown): Promise<never> => Promise.reject(asCloned(error));
  // A call that throws before its promise exists rejects too: inTurn runs it in an async function.
  return wrapSteps(sideInTurns(api, state), (step) => step().catch(fail));
}

/** The client and the server of this thread; there is one of each (their modules hold their state). */
export const client: ClientSideApi = inContext(clientSide, new SideState());
export const server: ServerSideApi = inContext(serverSide, new SideState());
