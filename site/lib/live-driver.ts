/**
 * Live mode: maps virtual time to wall time at a chosen speed while playing, and runs one
 * event per Step while paused. Every user action becomes a scenario step at the virtual
 * millisecond it happened, so what the user did can be replayed exactly.
 */
import { Run, type Sides } from '../../src/engine/index.ts';
import type { Scenario, Step } from '../../src/scenario/index.ts';
import type { UserAction } from '../../src/trace/index.ts';

export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

export class LiveDriver {
  readonly run: Run;
  /** The scenario's own steps, then every action the user took, each at its virtual ms. */
  readonly steps: Step[];
  private playing = false;
  private speed = 1;
  /** Virtual time shown to the user; may run ahead of the last event while playing. */
  private virtualNow = 0;
  private lastWall = 0;
  private queue: Promise<void> = Promise.resolve();
  private frameRequest = 0;
  private disposed = false;
  private readonly onChange: () => void;

  private constructor(run: Run, steps: Step[], onChange: () => void) {
    this.run = run;
    this.steps = [...steps];
    this.onChange = onChange;
  }

  static async start(scenario: Scenario, sides: Sides, onEvents: () => void, onChange: () => void): Promise<LiveDriver> {
    const run = await Run.start(scenario, sides);
    run.subscribe(onEvents);
    return new LiveDriver(run, scenario.steps, onChange);
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
    if (this.playing) return;
    this.playing = true;
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
      await this.run.runToEnd();
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
    const target = this.virtualNow + elapsed * this.speed;
    void this.exclusive(async () => {
      await this.run.runUntil(Math.floor(target));
      this.virtualNow = Math.max(target, this.run.virtualTime);
    }).then(() => {
      if (this.playing) this.frameRequest = requestAnimationFrame(this.tick);
    });
  };

  /** Engine calls never overlap: each waits for the previous one. */
  private exclusive(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(() => (this.disposed ? undefined : work()));
    this.queue = next.catch(() => undefined);
    return next.then(() => this.onChange());
  }
}
