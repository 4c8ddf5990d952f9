/**
 * How a coordinator calls a side in another thread (a Web Worker, a Node worker thread): one
 * message per call, `{ id, call, args }`, and one per answer, `{ id, value }` or `{ id, error }`.
 * Plain structured clones, no proxies: a step's round trip is the two messages and nothing
 * else. An error comes back as its message, name and stack.
 */
import type { BatchPlan, SideApi, SideConfig } from '../src/engine/index.ts';
import type { WireFrame } from '../src/trace/index.ts';

/** The two ends of a channel: Node's MessagePort and parentPort, a Worker, a worker's `self`. */
export interface Port {
  postMessage(message: unknown): void;
  listen(handler: (message: unknown) => void): void;
}

/** A Node MessagePort, parentPort or Worker as a Port. */
export function nodePort(p: { postMessage(message: unknown): void; on(event: 'message', handler: (message: unknown) => void): unknown }): Port {
  return { postMessage: (message) => p.postMessage(message), listen: (handler) => void p.on('message', handler) };
}

/** A Web Worker, a worker's own global scope or a MessagePort, as a Port. */
export function webPort(p: { postMessage(message: unknown): void; addEventListener(type: 'message', handler: (event: MessageEvent) => void): void; start?(): void }): Port {
  return {
    postMessage: (message) => p.postMessage(message),
    listen(handler) {
      p.addEventListener('message', (event) => handler(event.data));
      // A MessagePort delivers what it queued only once started (a listener alone does not start it).
      p.start?.();
    },
  };
}

/**
 * `port`, whose listener is handed `first` before what comes on the port, as if it had come on it
 * first: what the worker played before the page spoke, or what the page kept before it listened.
 * `first` is read when the listener is given, so what is added to it until then is handed too.
 */
export function withFirst(port: Port, first: readonly unknown[]): Port {
  return {
    ...port,
    listen(handler) {
      for (const message of first) handler(message);
      port.listen(handler);
    },
  };
}

/**
 * `port`, listened to from now on: what comes before a listener is given is kept for it. A
 * worker's own port, unlike a MessagePort, does not queue for a listener that comes later.
 */
export function heldFromNow(port: Port): Port {
  const held: unknown[] = [];
  let handler: ((message: unknown) => void) | null = null;
  port.listen((message) => (handler ? handler(message) : held.push(message)));
  return {
    ...port,
    listen(h) {
      handler = h;
      for (const message of held.splice(0)) h(message);
    },
  };
}

type Call<A> =
  | { call: 'init'; args: [SideConfig, number] }
  | { call: 'deliver'; args: [number, WireFrame] }
  | { call: 'fireTimer'; args: [number] }
  | { call: 'act'; args: [number, A] }
  | { call: 'batch'; args: [BatchPlan] };

type Request<A> = { id: number } & Call<A>;

type Answer = { id: number; value: unknown } | { id: number; error: { message: string; name: string; stack?: string } };

const CALLS = new Set(['init', 'deliver', 'fireTimer', 'act', 'batch']);

function isRequest<A>(m: unknown): m is Request<A> {
  return typeof m === 'object' && m !== null && 'id' in m && typeof m.id === 'number' && 'call' in m && CALLS.has(String(m.call)) && 'args' in m && Array.isArray(m.args);
}

function isAnswer(m: unknown): m is Answer {
  return typeof m === 'object' && m !== null && 'id' in m && typeof m.id === 'number' && ('value' in m || 'error' in m);
}

function callOn<A>(side: Required<SideApi<A>>, request: Request<A>): Promise<unknown> {
  switch (request.call) {
    case 'init':
      return side.init(...request.args);
    case 'deliver':
      return side.deliver(...request.args);
    case 'fireTimer':
      return side.fireTimer(...request.args);
    case 'act':
      return side.act(...request.args);
    case 'batch':
      return side.batch(...request.args);
  }
}

/** In the side's thread: answers every call that comes in on `port`. */
export function exposeSide<A>(side: Required<SideApi<A>>, port: Port): void {
  port.listen((message) => {
    if (!isRequest<A>(message)) return;
    const { id } = message;
    // A call that throws before its promise exists answers with the error all the same.
    Promise.resolve()
      .then(() => callOn(side, message))
      .then(
        (value) => port.postMessage({ id, value } satisfies Answer),
        (error: unknown) => {
          const e = error instanceof Error ? error : new Error(String(error));
          port.postMessage({ id, error: { message: e.message, name: e.name, stack: e.stack } } satisfies Answer);
        },
      );
  });
}

/** In the coordinator's thread: the side at the other end of `port`. */
export function sideOver<A>(port: Port): Required<SideApi<A>> {
  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  port.listen((message) => {
    if (!isAnswer(message)) return;
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if ('error' in message) call.reject(Object.assign(new Error(message.error.message), { name: message.error.name, stack: message.error.stack }));
    else call.resolve(message.value);
  });
  // What comes back is what the side's method returned, so it has that method's type.
  const send = <T>(request: Call<A>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      port.postMessage({ id, ...request } satisfies Request<A>);
    });
  return {
    init: (config, t) => send({ call: 'init', args: [config, t] }),
    deliver: (t, frame) => send({ call: 'deliver', args: [t, frame] }),
    fireTimer: (t) => send({ call: 'fireTimer', args: [t] }),
    act: (t, action) => send({ call: 'act', args: [t, action] }),
    batch: (plan) => send({ call: 'batch', args: [plan] }),
  };
}
