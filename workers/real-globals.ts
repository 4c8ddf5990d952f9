/**
 * The thread's own timers and randomness, taken when this module loads: before the sides'
 * globals replace them (side-globals.ts imports this first), and with no dependency, so that a
 * host can take them without loading a side. Bound: a browser's timers throw "Illegal
 * invocation" when called as another object's methods.
 */
export const real = {
  setTimeout: globalThis.setTimeout.bind(globalThis),
  clearTimeout: globalThis.clearTimeout.bind(globalThis),
  setInterval: globalThis.setInterval.bind(globalThis),
  clearInterval: globalThis.clearInterval.bind(globalThis),
  random: Math.random,
  randomUUID: globalThis.crypto.randomUUID.bind(globalThis.crypto),
};

/**
 * The real timers, for the coordinator's wall-clock deadlines where it shares the thread with
 * both sides (src/engine Sides.wallTimers): there its code may run while a side's step is
 * pending, when the replaced globals would give it that side's virtual timers.
 */
export const wallTimers = {
  setTimeout: (handler: () => void, ms: number): ReturnType<typeof setTimeout> => real.setTimeout(handler, ms),
  clearTimeout: (timer: ReturnType<typeof setTimeout> | undefined): void => real.clearTimeout(timer),
};
