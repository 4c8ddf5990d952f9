/**
 * Live mode: maps virtual time to wall time at a chosen speed while playing, and runs one
 * event per Step while paused. Every user action becomes a scenario step at the virtual
 * millisecond it happened, so what the user did can be replayed exactly.
 *
 * The run itself is played in the sides' worker (remote-run.ts), so the engine never holds the
 * page's thread: while playing, each animation frame asks the worker for the virtual time wall
 * time has reached, for a bounded slice of the worker's time, and paints what the previous
 * answer brought while the worker runs. A run that is behind keeps a second such call waiting in
 * the worker, which works out for itself how far wall time has got when it begins: the worker
 * goes straight on while the page paints, instead of idling until the page, busy painting,
 * reads an answer and asks again. A replay goes slice by slice, checking between two
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

/**
 * Live play's calls out at once: the one the worker runs and one waiting behind it. In a
 * Chrome trace of 2,000 steps of 1 ms at 4× with one at a time, the worker sat idle for 475 of
 * 1,204 ms, each time until a paint of the page's had ended and its answer was read.
 */
const PACED_CALLS = 2;

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
  /** Live play's engine calls out (at most PACED_CALLS). */
  private paced = 0;
  /** Other engine calls waiting for their turn: live play sends no more until they have had it. */
  private waitingCalls = 0;
  /** The trace's length when onEvents was last told. */
  private told = 0;
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
   * since the last, and hands the worker what is due by then unless its calls are already out.
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
   * Live play's engine calls for what is due by the wanted time, kept PACED_CALLS out while the
   * run is behind (the next event, as the last answer said, is due by then). Each answer makes
   * way for the next call at once, before the page paints what it brought.
   */
  private pump(): void {
    while (this.playing && !this.disposed && this.waitingCalls === 0 && this.paced < PACED_CALLS) {
      const next = this.run.nextEventTime();
      if (this.paced > 0 && (next === null || next > this.wanted)) return;
      this.paced++;
      const clock = { wall: performance.timeOrigin + this.lastWall, virtual: Math.max(this.wanted, this.virtualNow), speed: this.speed };
      const call = this.run.pace(clock, FRAME_WORK_MS).then(
        () => {
          // Behind, the clock shows how far the run got; caught up, the worker moved it to where wall time had got.
          this.virtualNow = Math.max(this.virtualNow, this.run.virtualTime);
          this.paced--;
          this.eventsCame();
          this.onChange();
          if (!this.playing || this.disposed) return;
          this.advanceTo(performance.now());
          // Caught up, the next frame asks again; behind, the next call goes out now.
          const due = this.run.nextEventTime();
          if (due !== null && due <= this.wanted) this.pump();
        },
        () => {
          // The worker is lost (the channel says why to every later call): no more frames ask it.
          this.paced--;
          this.pause();
        },
      );
      // Any other engine call waits for these, and sees the run as they left it.
      this.queue = Promise.all([this.queue, call]).then(() => undefined);
    }
  }

  /** Tells onEvents, once per engine call that brought events. */
  private eventsCame(): void {
    if (this.run.trace.length === this.told) return;
    this.told = this.run.trace.length;
    this.onEvents();
  }

  /** Engine calls never overlap: each waits for the previous one. */
  private exclusive(work: () => Promise<void>): Promise<void> {
    this.waitingCalls++;
    const next = this.queue.then(async () => {
      this.waitingCalls--;
      if (this.disposed) return;
      try {
        await work();
      } finally {
        this.eventsCame();
      }
    });
    this.queue = next.catch(() => undefined);
    return next.then(() => this.onChange());
  }
}
