/**
 * What ends a run early. Every run ends: at its scenario's `endAt`, or at the first bound it
 * reaches, on trace events, on steps, on virtual time, or on the wall-clock time one side may
 * take to go quiet; or when a side fails (its worker died, or the SDK threw out of a step). The
 * run then stops with one `error` event carrying the halt's message, its last event, so the
 * trace alone says why it ended (`haltOf`), in the browser as headless.
 */
import { grouped, type TraceEvent } from '../trace/index.ts';
import { wallTimers } from './wall-clock.ts';

/**
 * The most trace events one run records: a hundred times the largest library scenario (under
 * 200), and what a runaway (tools counting 0 ms steps, or steady progress up to an hour's
 * `endAt`) reaches in a few seconds headless instead of running on for minutes. A slow_count
 * at the tools' cap (10,000 steps, three events each) reaches it too, and says so.
 */
export const MAX_TRACE_EVENTS = 20_000;

/**
 * The most steps (events due: a timer, a frame, an action) one run takes. Almost every step
 * records a trace event, so the event bound comes first; this one ends a side whose timers
 * fire again and again at one instant without doing anything the trace would show.
 */
export const MAX_STEPS = 100_000;

/**
 * The latest virtual time a run reaches: a day, the largest time a scenario may name. A
 * headless run ends at its `endAt` before it; the playground's clock, which runs on while
 * the page plays, stops here.
 */
export const MAX_VIRTUAL_MS = 86_400_000;

/**
 * The wall-clock time one side may take to answer one step. A step takes milliseconds (the
 * first, which loads the SDK in a cold worker, well under a second); a side still busy after
 * this never goes quiet (a handler in an endless loop), and would hold the run for ever.
 */
export const SIDE_STEP_TIMEOUT_MS = 30_000;

export type HaltReason = 'events' | 'steps' | 'virtual-time' | 'side-busy' | 'side-failed';

/** Why a run ended before its `endAt`: which bound it reached, or which side failed. */
export interface RunHalt {
  reason: HaltReason;
  /** One sentence for the user, the message of the run's last event. */
  message: string;
}

/** The error event a run ends with when it reaches MAX_TRACE_EVENTS. */
export const EVENT_BOUND_MESSAGE = `The run stopped at its bound of ${grouped(MAX_TRACE_EVENTS)} trace events: the events still due were not run (a tool with very many short steps, or a long endAt with steady progress, gets here).`;

const STEP_BOUND_MESSAGE = `The run stopped at its bound of ${grouped(MAX_STEPS)} steps: the events still due were not run (a side kept firing timers that changed nothing in the trace).`;

const TIME_BOUND_MESSAGE = `The run stopped at its bound of ${grouped(MAX_VIRTUAL_MS)} ms of virtual time (a day): the events due later were not run.`;

/** The message a halt ends the trace with; `detail` says what the side was doing. */
export function haltMessage(reason: HaltReason, detail = ''): string {
  switch (reason) {
    case 'events':
      return EVENT_BOUND_MESSAGE;
    case 'steps':
      return STEP_BOUND_MESSAGE;
    case 'virtual-time':
      return TIME_BOUND_MESSAGE;
    case 'side-busy':
      return `The run stopped at its bound on one step: ${detail}.`;
    case 'side-failed':
      return `The run stopped because a side failed: ${detail}.`;
  }
}

const FIXED: readonly [HaltReason, string][] = [
  ['events', EVENT_BOUND_MESSAGE],
  ['steps', STEP_BOUND_MESSAGE],
  ['virtual-time', TIME_BOUND_MESSAGE],
];
const PARAMETRIC: readonly [HaltReason, RegExp][] = [
  ['side-busy', /^The run stopped at its bound on one step: /],
  ['side-failed', /^The run stopped because a side failed: /],
];

/** Why this trace's run ended early, read from its last event; null when it ran to its end. */
export function haltOf(trace: readonly TraceEvent[]): RunHalt | null {
  const last = trace.at(-1);
  if (last?.kind !== 'error') return null;
  const message = last.message;
  const found = FIXED.find(([, text]) => text === message) ?? PARAMETRIC.find(([, pattern]) => pattern.test(message));
  return found ? { reason: found[0], message } : null;
}

/**
 * Did this trace's run end early (any bound, or a failed side)? Its message, or null. The
 * headless runner exits 3 with it.
 */
export function boundReached(trace: readonly TraceEvent[]): string | null {
  return haltOf(trace)?.message ?? null;
}

/** A side's step that did not end well: it took too long, or it threw. */
export class SideHalt extends Error {
  readonly reason: 'side-busy' | 'side-failed';
  constructor(reason: 'side-busy' | 'side-failed', detail: string) {
    super(detail);
    this.reason = reason;
  }
}

/**
 * `work` (one side's step), or a SideHalt: when `ms` of wall-clock time pass first, or when it
 * rejects. The timer is the thread's own (wall-clock.ts), and it is cleared as soon as the step
 * answers, so it keeps no process alive.
 */
export async function withinDeadline<T>(side: string, what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = wallTimers.setTimeout(() => reject(new SideHalt('side-busy', `the ${side} was still busy with ${what} after ${grouped(ms)} ms of wall-clock time (it never went quiet)`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } catch (error) {
    if (error instanceof SideHalt) throw error;
    throw new SideHalt('side-failed', `the ${side} failed in ${what}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    wallTimers.clearTimeout(timer);
  }
}
