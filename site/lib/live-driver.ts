/**
 * Live mode: maps virtual time to wall time at a chosen speed while playing, and runs one
 * event per Step while paused. Every user action becomes a scenario step at the virtual
 * millisecond it happened, so what the user did can be replayed exactly.
 *
 * Each event is a round trip to a worker, so no engine call here runs unbounded: a replay
 * checks between events whether the driver was disposed, and a frame while playing runs
 * events for a bounded time, a run that fell behind catching up over the following frames.
 */
import { Run, type Sides } from '../../src/engine/index.ts';
import type { Scenario, Step } from '../../src/scenario/index.ts';
import type { UserAction } from '../../src/trace/index.ts';

export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

/**
 * Wall ms of engine work per animation frame while playing. When the page spends longer
 * between frames (painting a long trace), the engine gets WORK_SHARE times that, so a run
 * that falls behind keeps most of the wall time and catches up, up to MAX_FRAME_WORK_MS so
 * the clock and tables still update several times a second. Clicks are not held up either
 * way: the page is idle while a worker runs an event.
 */
const MIN_FRAME_WORK_MS = 12;
const MAX_FRAME_WORK_MS = 250;
const WORK_SHARE = 8;

export class LiveDriver {
  readonly run: Run;
  /** The scenario's own steps, then every action the user took, each at its virtual ms. */
  readonly steps: Step[];
  private playing = false;
  private speed = 1;
  /** Virtual time shown to the user; may run ahead of the last event while playing. */
  private virtualNow = 0;
  /** While playing, the virtual time wall time has reached at the chosen speed; the run may lag it. */
  private wanted = 0;
  private lastWall = 0;
  /** When the last frame's engine work ended (performance.now()), or null before the first. */
  private workEnded: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private frameRequest = 0;
  private disposed = false;
  private readonly onEvents: () => void;
  private readonly onChange: () => void;

  private constructor(run: Run, steps: Step[], onEvents: () => void, onChange: () => void) {
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
  static async start(scenario: Scenario, sides: Sides, onEvents: () => void, onChange: () => void): Promise<LiveDriver> {
    const run = await Run.start(scenario, sides);
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
    this.workEnded = null;
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

  /** A user action happens now, in virtual time; it is recorded and run at once. */
  act(action: UserAction): Promise<void> {
    return this.exclusive(async () => {
      const step: Step = { at: Math.max(this.now, this.run.virtualTime), action };
      this.steps.push(step);
      this.run.schedule(step);
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
   * workers are free for the next run (two runs must never step the same workers at once).
   * A replay or a frame's catch-up stops after the event it is running.
   */
  dispose(): Promise<void> {
    this.pause();
    this.disposed = true;
    return this.queue;
  }

  private readonly tick = (wall: number): void => {
    if (!this.playing) return;
    const elapsed = Math.max(0, wall - this.lastWall);
    this.lastWall = wall;
    this.wanted = Math.max(this.wanted, this.virtualNow) + elapsed * this.speed;
    void this.exclusive(async () => {
      const start = performance.now();
      const share = WORK_SHARE * (start - (this.workEnded ?? start));
      const deadline = start + Math.min(MAX_FRAME_WORK_MS, Math.max(MIN_FRAME_WORK_MS, share));
      const caughtUp = await this.run.runUntil(Math.floor(this.wanted), { shouldStop: () => this.disposed || performance.now() >= deadline });
      // Behind, the clock shows how far the run got; the next frames run the rest.
      this.virtualNow = Math.max(this.virtualNow, caughtUp ? this.wanted : this.run.virtualTime);
      this.workEnded = performance.now();
    }).then(() => {
      if (this.playing) this.frameRequest = requestAnimationFrame(this.tick);
    });
  };

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
