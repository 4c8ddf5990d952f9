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

/** A side step's deadline: when it falls due (`performance.now()`, which no side replaces), and how the step is ended then. */
interface Deadline {
  at: number;
  late(): void;
}

/**
 * The deadlines of the side steps in flight, all watched by one of the thread's own timers. A
 * timer set and cleared for every step was 6% of the sides' worker in a Chrome profile of a
 * 2,000-step live run. A step takes microseconds to milliseconds and a deadline is seconds
 * away, so the one timer is seldom set: for the earliest deadline when none is set for an
 * earlier one, and again, when it fires, for the earliest deadline still in flight, after it
 * has ended the steps past theirs. While no step is in flight it holds no Node process open
 * (`unref`), as a cleared timer would not; a browser's timers hold nothing open.
 */
class Deadlines {
  private readonly pending = new Set<Deadline>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  add(deadline: Deadline): void {
    this.pending.add(deadline);
    if (deadline.at < this.timerAt) this.setTimer(deadline.at);
    else if (this.pending.size === 1) holdOpen(this.timer, true);
  }

  delete(deadline: Deadline): void {
    if (this.pending.delete(deadline) && this.pending.size === 0) holdOpen(this.timer, false);
  }

  private setTimer(at: number): void {
    wallTimers.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = wallTimers.setTimeout(() => this.fire(), Math.max(0, at - performance.now()));
    holdOpen(this.timer, this.pending.size > 0);
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const deadline of [...this.pending]) {
      if (deadline.at > now) next = Math.min(next, deadline.at);
      else {
        this.pending.delete(deadline);
        deadline.late();
      }
    }
    if (next !== Infinity) this.setTimer(next);
  }
}

/** Node's timers keep the process open unless unref'd; a browser's are numbers, with nothing to say. */
function holdOpen(timer: unknown, hold: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | undefined;
  if (hold) handle?.ref?.();
  else handle?.unref?.();
}

const DEADLINES = new Deadlines();

/**
 * `work` (one side's step), or a SideHalt: when `ms` of wall-clock time pass first, or when it
 * rejects. The deadline is watched by the thread's own timer (Deadlines), and forgotten as soon
 * as the step answers.
 */
export function withinDeadline<T>(side: string, what: string, ms: number, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline: Deadline = {
      at: performance.now() + ms,
      late: () => reject(new SideHalt('side-busy', `the ${side} was still busy with ${what} after ${grouped(ms)} ms of wall-clock time (it never went quiet)`)),
    };
    DEADLINES.add(deadline);
    work.then(
      (value) => {
        DEADLINES.delete(deadline);
        resolve(value);
      },
      (error: unknown) => {
        DEADLINES.delete(deadline);
        reject(error instanceof SideHalt ? error : new SideHalt('side-failed', `the ${side} failed in ${what}: ${error instanceof Error ? error.message : String(error)}`));
      },
    );
  });
}
