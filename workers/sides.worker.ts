// Browser entry for both sides in one Web Worker: the SDK is fetched, compiled and evaluated
// once for the pair, not once per side. The page sends one MessagePort per side first
// (site/lib/browser-sides.ts) and drives each side over its own port (side-channel.ts); each
// side keeps its own virtual clock, and their steps take turns (side-turns.ts).
import { inTurn } from './side-turns.ts';
import { SideState, withBatches } from './runtime.ts';
import { clientSide } from './client-side.ts';
import { serverSide } from './server-side.ts';
import { exposeSide, webPort } from './side-channel.ts';
import { wrapSteps, type SideApi } from '../src/engine/index.ts';

/** `api` with every call run as a step of `state`, in its turn. */
function taking<A>(api: SideApi<A>, state: SideState): Required<SideApi<A>> {
  return wrapSteps(withBatches(api), (step) => inTurn(state, step));
}

self.addEventListener(
  'message',
  (event: MessageEvent<{ client: MessagePort; server: MessagePort }>) => {
    const { client, server } = event.data;
    exposeSide(taking(clientSide, new SideState()), webPort(client));
    exposeSide(taking(serverSide, new SideState()), webPort(server));
  },
  { once: true },
);
