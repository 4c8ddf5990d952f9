/**
 * The thread's own timers, taken when this module loads, for the run's wall-clock deadlines
 * (bounds.ts). Where both sides share the coordinator's thread (the browser's sides worker,
 * Node's pair in one thread), the sides replace the global timers with virtual ones, and the
 * coordinator's code may run during a side's turn: a deadline set through the globals then would
 * go to that side's clock. workers/side-globals.ts takes its own real timers from here, so this
 * module is evaluated before any side replaces them, in every bundle. Bound: a browser's timers
 * throw "Illegal invocation" when called as another object's methods.
 */
export const wallTimers = {
  setTimeout: globalThis.setTimeout.bind(globalThis),
  clearTimeout: globalThis.clearTimeout.bind(globalThis),
  setInterval: globalThis.setInterval.bind(globalThis),
  clearInterval: globalThis.clearInterval.bind(globalThis),
};
