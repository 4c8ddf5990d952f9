/**
 * What a side sees of time and chance: its own virtual clock (every timer and `Date`) and its
 * own seeded randomness. The globals are replaced once, by functions that ask `locate` for the
 * side running now: in a worker that is its one side; with both sides in one thread
 * (side-turns.ts) it is the side whose turn it is, and between turns the real timers and Date.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { wallTimers } from '../src/engine/index.ts';

// fake-timers keeps its pending timers in `clock.timers`; we read due times from it.
export type Clock = Omit<FakeTimers.Clock, 'timers'> & { timers?: Map<number, { callAt: number }> };

/** One side's virtual clock and random stream. */
export class SideClock {
  readonly clock: Clock = FakeTimers.createClock(0) as unknown as Clock;
  /** Timers set or cleared so far: the runtime tells a quiet side by this count standing still. */
  timerCalls = 0;
  private seed = 1;

  /** Back to virtual time `t` with no timers, and the random stream from its start. */
  reset(t: number): void {
    this.clock.reset();
    this.clock.tick(t);
    this.seed = 1;
  }

  /** mulberry32, seeded per run: ids the SDK draws are the same on every replay. Small, fast, good enough for ids. */
  random(): number {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let x = Math.imul(this.seed ^ (this.seed >>> 15), 1 | this.seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }
}


/** What installSideGlobals replaces, as this thread had it before any side ran: its timers are the engine's wall clock. */
const real = {
  ...wallTimers,
  random: Math.random,
  randomUUID: globalThis.crypto.randomUUID.bind(globalThis.crypto),
};

type UUID = `${string}-${string}-${string}-${string}-${string}`;

/**
 * Replaces the timer functions, Date, Math.random and crypto.randomUUID with ones that go to
 * the side `locate` names, or to the real ones when it names none. Microtasks, setImmediate and
 * MessageChannel stay real: promise chains run as they would, and the runtime needs a real
 * macrotask to know they have drained.
 */
export function installSideGlobals(locate: () => SideClock | undefined): void {
  const NativeDate = Date;
  const now = (): number => locate()?.clock.now ?? NativeDate.now();

  const timers = {
    setTimeout: (handler: () => void, ms?: number, ...args: unknown[]) => {
      const side = locate();
      if (!side) return real.setTimeout(handler, ms, ...args);
      side.timerCalls++;
      return side.clock.setTimeout(handler, ms, ...args);
    },
    clearTimeout: (id: unknown) => {
      const side = locate();
      if (side) {
        side.timerCalls++;
        side.clock.clearTimeout(id as FakeTimers.TimerId);
      }
      else real.clearTimeout(id as Parameters<typeof clearTimeout>[0]);
    },
    setInterval: (handler: () => void, ms?: number, ...args: unknown[]) => {
      const side = locate();
      if (!side) return real.setInterval(handler, ms, ...args);
      side.timerCalls++;
      return side.clock.setInterval(handler, ms, ...args);
    },
    clearInterval: (id: unknown) => {
      const side = locate();
      if (side) {
        side.timerCalls++;
        side.clock.clearInterval(id as FakeTimers.TimerId);
      }
      else real.clearInterval(id as Parameters<typeof clearInterval>[0]);
    },
  };
  Object.assign(globalThis, timers);

  // `new Date()` and `Date.now()` read the side's clock; every other use is the real Date's.
  globalThis.Date = new Proxy(NativeDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget) as object,
    apply: () => new NativeDate(now()).toString(),
    get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver) as unknown),
  });

  Math.random = () => locate()?.random() ?? real.random();
  Object.defineProperty(globalThis.crypto, 'randomUUID', {
    configurable: true,
    value: (): UUID => {
      const side = locate();
      if (!side) return real.randomUUID();
      const hex = Array.from({ length: 32 }, () => Math.floor(side.random() * 16).toString(16)).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    },
  });
}
