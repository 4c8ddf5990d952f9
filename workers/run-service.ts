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
  | { op: 'run-until'; t: number; budgetMs: number };

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
      case 'run-until': {
        // The first event due always runs, so that a call makes progress however short its budget.
        const deadline = performance.now() + command.budgetMs;
        let first = true;
        const shouldStop = (): boolean => {
          if (!first) return performance.now() >= deadline;
          first = false;
          return false;
        };
        return r.runUntil(command.t, { shouldStop });
      }
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
