/**
 * The page's handle on a run played in the sides' worker (workers/run-service.ts): the same
 * questions a Run answers (its trace, clock, next event, halt), answered from a copy the worker
 * keeps up to date with every answer. Commands are answered in order; a run has at most two
 * outstanding, both live play's (pace), since the live driver queues its other engine calls
 * behind those. Long work is asked for in slices
 * of wall-clock time, so that the page can stop a replay between two of them.
 */
import type { RunHalt } from '../../src/engine/index.ts';
import type { Scenario, Step } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import type { PaceClock, RunAnswer, RunCommand, RunState } from '../../workers/run-service.ts';
import type { Port } from '../../workers/side-channel.ts';

/** Wall ms of worker time per slice of a replay: how long a Reset may wait for the replay it interrupts. */
const SLICE_MS = 50;

/**
 * How long the page waits for one command's answer. A side's step has the engine's own
 * deadline (SIDE_STEP_TIMEOUT_MS); past this as well, the worker itself is lost (a side in an
 * endless loop holds its thread), and the run fails with this said.
 */
const ANSWER_TIMEOUT_MS = 40_000;

type Answered = { value: boolean; state: RunState };

/** Commands the worker was given before this channel existed (workers/first-run.ts), and their answers to come. */
interface Prestart {
  scenario: string;
  answers: Promise<Answered>[];
}

/** The command port of one sides worker (its own), shared by the runs started on it one after another. */
export class RunChannel {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (answer: Answered) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private lost: Error | null = null;
  private readonly port: Port;
  private prestart: Prestart | null = null;

  /** `sent`: the commands the worker already has (a fresh run's, played by itself), numbered from 0; this channel numbers on after them. */
  constructor(port: Port, sent: readonly { id: number; command: RunCommand }[] = []) {
    this.port = port;
    const start = sent[0]?.command;
    if (start?.op === 'start') {
      const answers = sent.map(({ id }) => this.expect(id));
      // An answer nobody takes (the page started another run) may fail unheard.
      for (const answer of answers) answer.catch(() => undefined);
      this.prestart = { scenario: JSON.stringify(start.scenario), answers };
    }
    this.next = sent.length;
    // The worker answers only with what run-service.ts posts.
    port.listen((message) => this.answer(message as RunAnswer));
  }

  /**
   * The answers to the commands the worker was started with, once, if they started `scenario`: the run
   * is already under way in the worker. Otherwise null, and the next start replaces that run.
   */
  takePrestart(scenario: Scenario): Promise<Answered>[] | null {
    const prestart = this.prestart;
    this.prestart = null;
    return prestart !== null && prestart.scenario === JSON.stringify(scenario) ? prestart.answers : null;
  }

  /** Every command still waiting, and every later one, fails with `error` (the worker failed to load, or died). */
  fail(error: Error): void {
    this.lost ??= error;
    for (const [id, call] of this.waiting) {
      clearTimeout(call.timer);
      call.reject(error);
      this.waiting.delete(id);
    }
  }

  send(command: RunCommand): Promise<Answered> {
    if (this.lost) return Promise.reject(this.lost);
    const id = this.next++;
    const answer = this.expect(id);
    this.port.postMessage({ id, command });
    return answer;
  }

  private expect(id: number): Promise<Answered> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`the sides' worker did not answer within ${ANSWER_TIMEOUT_MS / 1000} s (a side that never goes quiet holds it)`)), ANSWER_TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
    });
  }

  private answer(answer: RunAnswer): void {
    const call = this.waiting.get(answer.id);
    if (!call) return;
    this.waiting.delete(answer.id);
    clearTimeout(call.timer);
    if ('error' in answer) call.reject(new Error(answer.error));
    else call.resolve(answer);
  }
}

export interface RemoteRunUntil {
  /** Asked between slices: true stops the run there, leaving the clock at the last event run. */
  shouldStop?: () => boolean;
  /** Wall ms the worker may spend on this call; unbounded (in slices) when absent. */
  budgetMs?: number;
}

export class RemoteRun {
  readonly trace: TraceEvent[] = [];
  private now = 0;
  private next: number | null = null;
  private halted: RunHalt | null = null;
  private readonly channel: RunChannel;
  private readonly endAt: number;
  /** The fresh run's handshake, when this run is the one the worker started (workers/first-run.ts). */
  private prestartedHandshake: Promise<Answered> | null = null;

  private constructor(channel: RunChannel, endAt: number) {
    this.channel = channel;
    this.endAt = endAt;
  }

  /** Starts `scenario` in the worker: both sides built at virtual time 0, the client connecting. */
  static async start(scenario: Scenario, channel: RunChannel): Promise<RemoteRun> {
    const run = new RemoteRun(channel, scenario.endAt);
    const [started, handshake] = channel.takePrestart(scenario) ?? [];
    if (started) {
      run.take(await started);
      run.prestartedHandshake = handshake ?? null;
    } else await run.send({ op: 'start', scenario });
    return run;
  }

  get virtualTime(): number {
    return this.now;
  }

  get halt(): RunHalt | null {
    return this.halted;
  }

  nextEventTime(): number | null {
    return this.next;
  }

  /** Adds a user action (Run.schedule); it reaches the worker before any later command. */
  async schedule(step: Step): Promise<void> {
    await this.send({ op: 'schedule', step });
  }

  step(): Promise<boolean> {
    return this.send({ op: 'step' });
  }

  /** Plays the handshake at once: event after event while the connection is being made, up to `through`. */
  async handshake(through: number): Promise<void> {
    // The fresh run's worker played this handshake (through CONNECT_AT_ONCE_MS, as the session does).
    if (!(await this.takePrestartedHandshake())) await this.send({ op: 'handshake', through });
  }

  /** Every event due by `t` (Run.runUntil); false when stopped or out of budget first. */
  async runUntil(t: number, options: RemoteRunUntil = {}): Promise<boolean> {
    const deadline = options.budgetMs === undefined ? Infinity : performance.now() + options.budgetMs;
    for (;;) {
      if (options.shouldStop?.() === true) return false;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      if (await this.send({ op: 'run-until', t, budgetMs: Math.min(SLICE_MS, left) })) return true;
    }
  }

  /**
   * Live play's command (run-paced): the events due by where `clock` has got to when the worker
   * begins it, for about `budgetMs`; true when it got there. Posted at once, so that the page may
   * send the next before this one is answered (the answers are taken in the order they were
   * sent); the fresh run's handshake has been taken by then (live play follows a handshake or a replay).
   */
  pace(clock: PaceClock, budgetMs: number): Promise<boolean> {
    return this.channel.send({ op: 'run-paced', clock, budgetMs }).then((answer) => this.take(answer));
  }

  runToEnd(options: RemoteRunUntil = {}): Promise<boolean> {
    return this.runUntil(this.endAt, options);
  }

  private async send(command: RunCommand): Promise<boolean> {
    // Its events come before any later command's.
    await this.takePrestartedHandshake();
    return this.take(await this.channel.send(command));
  }

  /** Takes in the fresh run's handshake if it is still to be taken; false when there is none. */
  private async takePrestartedHandshake(): Promise<boolean> {
    const prestarted = this.prestartedHandshake;
    if (!prestarted) return false;
    this.prestartedHandshake = null;
    this.take(await prestarted);
    return true;
  }

  private take({ value, state }: Answered): boolean {
    for (const event of state.events) this.trace.push(event);
    this.now = state.now;
    this.next = state.next;
    this.halted = state.halt;
    return value;
  }
}
