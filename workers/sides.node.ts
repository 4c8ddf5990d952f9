// Node entry for both sides in this thread (src/host/in-thread.ts): each step runs in its side's
// async context, so the timers, Date and randomness its code reaches are that side's own.
import { running } from './side-context.node.ts';
import { copyingInputs, SideState, withBatches } from './runtime.ts';
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

/** `api` with every call run as a step of `state`, taking copies of its inputs (copyingInputs). */
function inContext<A>(api: SideApi<A>, state: SideState): Required<SideApi<A>> {
  const side = withBatches(api);
  const fail = (error: unknown): Promise<never> => Promise.reject(asCloned(error));
  // A call that throws before its promise exists fails the same way, with no async wrapper's promise more.
  const started = <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return call();
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const run = <T>(call: () => Promise<T>): Promise<T> => running.run(state, started, call).catch(fail);
  return wrapSteps(copyingInputs(side), run);
}

/** The client and the server of this thread; there is one of each (their modules hold their state). */
export const client: Required<ClientSideApi> = inContext(clientSide, new SideState());
export const server: Required<ServerSideApi> = inContext(serverSide, new SideState());
