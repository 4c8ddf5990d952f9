/**
 * Both sides in this thread, each on its own virtual clock (workers/sides.node.ts): no worker
 * to start and no message to clone between threads, so a headless run starts in the time it
 * takes to load the SDK once. There is one such pair per process, since the sides' modules
 * hold their state; while it is taken, or once a pair was closed with a step still running (a
 * side that never went quiet may run on), createNodeSides makes worker pairs instead.
 */
import type { ClientSideApi, ServerSideApi, SideApi } from '../engine/index.ts';

type Loaded = typeof import('../../workers/sides.node.ts');

let loaded: Promise<Loaded> | null = null;
let taken = false;
let spoiled = false;

export interface ThreadSides {
  client: ClientSideApi;
  server: ServerSideApi;
  close(): Promise<void>;
}

/** This thread's pair, or null when it is taken or spoiled. The sides' modules load on the first call. */
export function takeThreadSides(): ThreadSides | null {
  if (taken || spoiled) return null;
  taken = true;
  const sides = (loaded ??= import('../../workers/sides.node.ts'));
  // Once loaded, a step calls the side straight away: no promise more than the side's own
  // answer and its bookkeeping (a step runs thousands of times a second in a search).
  let ready: Loaded | null = null;
  void sides.then((m) => {
    ready = m;
  });
  let running = 0;
  let closed = false;
  const done = (): void => {
    running--;
  };
  const step = <T>(call: (m: Loaded) => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('these sides were closed'));
    running++;
    return (ready !== null ? call(ready) : sides.then(call)).finally(done);
  };
  /**
   * The side `pick` names, each of its steps taken through `step` (once loaded, `pick` reads it
   * straight off the module); one step at a time, as sides in the coordinator's thread are asked
   * (workers/runtime.ts withBatches).
   */
  const lazily = <A>(pick: (m: Loaded) => SideApi<A>): SideApi<A> => ({
    init: (config, t) => step((m) => pick(m).init(config, t)),
    deliver: (t, frame) => step((m) => pick(m).deliver(t, frame)),
    fireTimer: (t) => step((m) => pick(m).fireTimer(t)),
    act: (t, action) => step((m) => pick(m).act(t, action)),
  });
  return {
    client: lazily((m) => m.client),
    server: lazily((m) => m.server),
    async close() {
      if (closed) return;
      closed = true;
      if (running > 0) spoiled = true;
      taken = false;
    },
  };
}
