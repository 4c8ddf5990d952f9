/**
 * Live mode: maps virtual time to wall time at a chosen speed while playing, and runs one
 * event per Step while paused. Every user action becomes a scenario step at the virtual
 * millisecond it happened, so what the user did can be replayed exactly.
 *
 * The run itself is played in the sides' worker (remote-run.ts), so the engine never holds the
 * page's thread: while playing, each animation frame asks the worker for the virtual time wall
 * time has reached, for a bounded slice of the worker's time (and a run that is behind asks
 * again as soon as an answer comes), and paints what the previous answer brought while the
 * worker runs; a replay goes slice by slice, checking between two
 * whether the driver was disposed.
 */
import type { Scenario, Step } from '../../src/scenario/index.ts';
import type { UserAction } from '../../src/trace/index.ts';
import { RemoteRun, type RunChannel } from './remote-run.ts';

export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

/**
 * Wall ms of worker time per animation frame while playing: short enough that the clock and
 * tables update several times a second when a run falls behind (it catches up over the
 * following frames, asking for the time wall time has reached by then).
 */
const FRAME_WORK_MS = 40;

export class LiveDriver {
  readonly run: RemoteRun;
  /** The scenario's own steps, then every action the user took, each at its virtual ms. */
  readonly steps: Step[];
  private playing = false;
  private speed = 1;
  /** Virtual time shown to the user; may run ahead of the last event while playing. */
  private virtualNow = 0;
  /** While playing, the virtual time wall time has reached at the chosen speed; the run may lag it. */
  private wanted = 0;
  private lastWall = 0;
  private queue: Promise<void> = Promise.resolve();
  private frameRequest = 0;
  /** A frame's engine call is out. */
  private working = false;
  private disposed = false;
  private readonly onEvents: () => void;
  private readonly onChange: () => void;

  private constructor(run: RemoteRun, steps: Step[], onEvents: () => void, onChange: () => void) {
    this.run = run;
    this.steps = [...steps];
    this.onEvents = onEvents;
    this.onChange = onChange;
  }

  /**
   * `onEvents` is told once per engine call that added events (a Step, an action, a frame's
   * catch-up), not once per event: a page that repaints on it paints once per frame's work,
   * so the time it spends painting a long trace does not multiply with the events.
   */
  static async start(scenario: Scenario, channel: RunChannel, onEvents: () => void, onChange: () => void): Promise<LiveDriver> {
    const run = await RemoteRun.start(scenario, channel);
    return new LiveDriver(run, scenario.steps, onEvents, onChange);
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  get now(): number {
    return Math.floor(this.virtualNow);
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    this.onChange();
  }

  play(): void {
    if (this.playing || this.disposed) return;
    this.playing = true;
    this.wanted = this.virtualNow;
    this.lastWall = performance.now();
    this.frameRequest = requestAnimationFrame(this.tick);
    this.onChange();
  }

  pause(): void {
    this.playing = false;
    cancelAnimationFrame(this.frameRequest);
    this.onChange();
  }

  /** Runs exactly one event (pausing first), and moves the shown time to it. */
  step(): Promise<void> {
    this.pause();
    return this.exclusive(async () => {
      const t = this.run.nextEventTime();
      if (t === null) return;
      await this.run.step();
      this.virtualNow = Math.max(this.virtualNow, t);
    });
  }

  /** Plays a new run's handshake at once, up to virtual time `through`, and moves the shown time to where it got. */
  handshake(through: number): Promise<void> {
    return this.exclusive(async () => {
      await this.run.handshake(through);
      this.virtualNow = Math.max(this.virtualNow, this.run.virtualTime);
    });
  }

  /** A user action happens now, in virtual time; it is recorded and run at once. */
  act(action: UserAction): Promise<void> {
    return this.exclusive(async () => {
      const step: Step = { at: Math.max(this.now, this.run.virtualTime), action };
      this.steps.push(step);
      await this.run.schedule(step);
      await this.run.runUntil(step.at);
    });
  }

  /** Runs the scenario's own steps to its end as fast as possible (a replay), then pauses. */
  replay(): Promise<void> {
    this.pause();
    return this.exclusive(async () => {
      await this.run.runToEnd({ shouldStop: () => this.disposed });
      this.virtualNow = this.run.virtualTime;
    });
  }

  /** Brings the run up to the shown time (no event due by then is left unrun), paused. */
  settle(): Promise<void> {
    this.pause();
    return this.exclusive(async () => {
      await this.run.runUntil(this.now);
    });
  }

  /**
   * Stops this run for good and resolves once its last engine call has returned, so the
   * worker is free for the next run (two runs must never step the same sides at once).
   * A replay or a frame's catch-up stops after the event it is running.
   */
  dispose(): Promise<void> {
    this.pause();
    this.disposed = true;
    return this.queue;
  }

  /**
   * Each frame asks for the next frame first, then moves the wanted time on by the wall time
   * since the last, and hands the worker what is due by then unless a call is already out.
   */
  private readonly tick = (wall: number): void => {
    if (!this.playing) return;
    this.frameRequest = requestAnimationFrame(this.tick);
    this.advanceTo(wall);
    this.pump();
  };

  private advanceTo(wall: number): void {
    const elapsed = Math.max(0, wall - this.lastWall);
    this.lastWall = Math.max(this.lastWall, wall);
    this.wanted = Math.max(this.wanted, this.virtualNow) + elapsed * this.speed;
  }

  /**
   * One engine call for what is due by the wanted time. When it returns with the run still
   * behind wall time, the next goes out at once, before the page paints what this one brought:
   * the worker runs while the page paints, instead of waiting for the next frame (a slow paint
   * delays that frame, and a run that waits for frames falls behind its speed).
   */
  private pump(): void {
    if (this.working || !this.playing) return;
    this.working = true;
    void this.exclusive(async () => {
      // Frames go on moving the wanted time while the call is out: the clock may show only what this call ran.
      const target = Math.floor(this.wanted);
      const caughtUp = await this.run.runUntil(target, { shouldStop: () => this.disposed || !this.playing, budgetMs: FRAME_WORK_MS });
      // Behind, the clock shows how far the run got; the next calls run the rest.
      this.virtualNow = Math.max(this.virtualNow, caughtUp ? target : this.run.virtualTime);
    }).finally(() => {
      this.working = false;
      if (!this.playing || this.disposed) return;
      this.advanceTo(performance.now());
      const next = this.run.nextEventTime();
      if (next !== null && next <= this.wanted) this.pump();
    });
  }

  /** Engine calls never overlap: each waits for the previous one. */
  private exclusive(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(async () => {
      if (this.disposed) return;
      const before = this.run.trace.length;
      try {
        await work();
      } finally {
        if (this.run.trace.length !== before) this.onEvents();
      }
    });
    this.queue = next.catch(() => undefined);
    return next.then(() => this.onChange());
  }
}
