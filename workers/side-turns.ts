// With both sides in one thread (the browser's sides worker, sides-start.ts; Node's pair,
// sides.node.ts), whose step is running is whose turn it is: the thread runs one step at a
// time. Imported before either side's modules, so that nothing of theirs runs under another locator.
import { copyingInputs, locateSidesWith, settling, type SideState } from './runtime.ts';
import { wrapSteps, type SideApi } from '../src/engine/index.ts';

let turn: SideState | undefined;
locateSidesWith(() => turn);

let last: Promise<unknown> = Promise.resolve();
/** Steps asked for that have not settled yet. */
let pending = 0;

/**
 * Runs `step` as `state`'s, after every step queued before it has settled. A browser has no
 * async context to tell two sides' continuations apart, and Node's (an AsyncLocalStorage)
 * costs a hook on every promise before Node 24, so the steps never overlap: while one runs,
 * the other side is quiet, with nothing but virtual timers pending, and every piece of side
 * code that runs belongs to the side whose turn it is. With no step pending, this one starts
 * at once rather than a promise hop later: the last step went quiet, so nothing of either side
 * is left to run first (a warm standard run took 3–12% less time so: four processes, each
 * timing both ways in alternating blocks).
 */
export function inTurn<T>(state: SideState, step: () => Promise<T>): Promise<T> {
  const run = pending === 0 ? take(state, step) : last.then(() => take(state, step));
  pending++;
  last = run.then(settled, settled);
  return run;
}

function settled(): void {
  pending--;
}

async function take<T>(state: SideState, step: () => Promise<T>): Promise<T> {
  turn = state;
  try {
    return await step();
  } finally {
    turn = undefined;
  }
}

/**
 * `api` as one of this thread's two sides: each step in `state`'s turn, going quiet as its
 * transport needs, taking copies of what a port would have cloned (the browser's sides worker,
 * sides-start.ts; Node's pair, sides.node.ts). Asked one step at a time: no batches.
 */
export function sideInTurns<A>(api: SideApi<A>, state: SideState): SideApi<A> {
  return copyingInputs(wrapSteps(settling(api), (step) => inTurn(state, step)));
}
