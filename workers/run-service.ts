/**
 * The page's run, played in the sides' own worker: the coordinator (src/engine Run) steps both
 * sides there by direct calls, so no step costs a round trip between threads, and the page's
 * thread is left to paint. The page says what to run, one command at a time
 * (site/lib/remote-run.ts); each answer carries the trace events the command added, the clock
 * and the next event's time, so the page holds a copy of the trace that is never behind an
 * answer it has read.
 */
import { Run, type RunHalt, type Sides } from '../src/engine/index.ts';
import type { Scenario, Step } from '../src/scenario/index.ts';
import type { TraceEvent } from '../src/trace/index.ts';
import type { Port } from './side-channel.ts';

export type RunCommand =
  /** A new run of `scenario` (the worker's previous run, if any, is dropped). */
  | { op: 'start'; scenario: Scenario }
  | { op: 'schedule'; step: Step }
  /** One event; answers whether there was one. */
  | { op: 'step' }
  /** Events one by one while the connection is still being made, up to virtual time `through`. */
  | { op: 'handshake'; through: number }
  /**
   * Events due by `t`, for about `budgetMs` of wall-clock time (the first of them in any case);
   * answers true when it got there (the clock then moves to `t`), false when the budget ran out first.
   */
  | { op: 'run-until'; t: number; budgetMs: number }
  /**
   * Live play: events due by the virtual time wall time has reached at `clock.speed`, counted
   * from `clock` (the page's virtual time at an instant of the page's wall clock, epoch ms) to
   * when the worker begins this command, for about `budgetMs` as run-until. Worked out here and
   * not by the page, so that a command the page sent while the worker was busy with the one
   * before runs what became due by the time it begins: the page keeps one such command waiting
   * behind the running one, and the worker never waits for a page busy painting.
   */
  | { op: 'run-paced'; clock: PaceClock; budgetMs: number };

/** A virtual time at an instant of wall time, and how fast virtual time runs from there. */
export interface PaceClock {
  /** Wall-clock epoch ms (performance.timeOrigin + performance.now(), which threads share). */
  wall: number;
  virtual: number;
  speed: number;
}

/** Where `clock` has got to by now. */
export function pacedTime(clock: PaceClock): number {
  const elapsed = Math.max(0, performance.timeOrigin + performance.now() - clock.wall);
  return Math.floor(clock.virtual + elapsed * clock.speed);
}

/** The run as it stands after a command, and the trace events the command added. */
export interface RunState {
  events: TraceEvent[];
  now: number;
  next: number | null;
  halt: RunHalt | null;
}

export type RunAnswer = { id: number; value: boolean; state: RunState } | { id: number; error: string };

function isRunCommand(m: unknown): m is { id: number; command: RunCommand } {
  return typeof m === 'object' && m !== null && 'id' in m && typeof m.id === 'number' && 'command' in m && typeof m.command === 'object' && m.command !== null;
}

/** Events due by `t` for about `budgetMs`; the first event due always runs, so that a call makes progress however short its budget. */
function runFor(run: Run, t: number, budgetMs: number): Promise<boolean> {
  const deadline = performance.now() + budgetMs;
  let first = true;
  const shouldStop = (): boolean => {
    if (!first) return performance.now() >= deadline;
    first = false;
    return false;
  };
  return run.runUntil(t, { shouldStop });
}

/** In the worker: runs the page's commands on `sides`, one after another, answering each on `port`. */
export function serveRun(sides: Sides, port: Port): void {
  let run: Run | null = null;
  /** How much of the run's trace the page has been sent. */
  let sent = 0;
  let queue: Promise<void> = Promise.resolve();

  async function perform(command: RunCommand): Promise<boolean> {
    if (command.op === 'start') {
      run = null;
      sent = 0;
      run = await Run.start(command.scenario, sides);
      return true;
    }
    if (!run) throw new Error('no run was started in this worker');
    const r = run;
    switch (command.op) {
      case 'schedule':
        r.schedule(command.step);
        return true;
      case 'step':
        return r.step();
      case 'handshake':
        for (let t = r.nextEventTime(); t !== null && t <= command.through && r.handshaking; t = r.nextEventTime()) await r.step();
        return true;
      case 'run-until':
        return runFor(r, command.t, command.budgetMs);
      case 'run-paced':
        return runFor(r, Math.max(r.virtualTime, pacedTime(command.clock)), command.budgetMs);
    }
  }

  function state(): RunState {
    const trace = run?.trace ?? [];
    const events = trace.slice(sent);
    sent = trace.length;
    return { events, now: run?.virtualTime ?? 0, next: run?.nextEventTime() ?? null, halt: run?.halt ?? null };
  }

  port.listen((message) => {
    if (!isRunCommand(message)) return;
    const { id, command } = message;
    queue = queue.then(() =>
      perform(command).then(
        (value) => port.postMessage({ id, value, state: state() } satisfies RunAnswer),
        (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies RunAnswer),
      ),
    );
  });
}
