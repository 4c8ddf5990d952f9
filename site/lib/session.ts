/**
 * One live run at a time, for the playground and the embeds alike: the session owns the sides'
 * worker, the LiveDriver and the running scenario, and tells its subscribers about the run once
 * per animation frame, as one derived view (deriveRunView) and the live clock. Starts queue up,
 * and each disposes the previous run before stepping the worker: two runs must never step the
 * same sides at once.
 */
import { deriveRunView, runViewSteps, type RunView } from '../../src/views/index.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { TraceEvent, UserAction } from '../../src/trace/index.ts';
import { createBrowserRunner, type BrowserRunner } from './browser-sides.ts';
import { LiveDriver } from './live-driver.ts';
import { nextTask } from './next-task.ts';
import { CONNECT_AT_ONCE_MS } from '../../workers/first-run.ts';

/** A derive that took longer than this (ms) hands its view to the listeners in the next task. */
const DERIVE_ALONE_MS = 16;

/**
 * A trace of more events than this is derived in steps, a task each (runViewSteps), so that a
 * long replay's last paint does not hold the page for the whole derive (a 6,600-step replay,
 * about 19,800 events, took one task of about 140 ms, its code still cold). Shorter ones derive
 * in one task: at most a fifth of that trace. A live run past it (2,000 progress steps are
 * about 6,000 events) is derived in steps too; deriving by a time budget per task instead
 * showed no difference in how soon it showed its end (579 against 582 ms, median of 12).
 */
const DERIVE_AT_ONCE_UP_TO = 4_000;

/**
 * The share of the page's thread its paints may take while a run plays: after a paint that took
 * p ms, the next waits until p × (1 / PAINT_SHARE − 1) ms have passed. The run plays in the
 * worker whatever the page does, so a long trace, slow to paint, is painted less often instead
 * of taking every frame, and the input with it; and on a machine of two cores the worker keeps
 * more of the CPU that painting (style, layout, raster) would take. A quarter: 2,000 progress
 * steps at 4× showed 2000 / 2000 after a median 684 ms at a quarter, 752 ms at a half (7 runs each,
 * alternating, same build otherwise).
 */
const PAINT_SHARE = 0.25;

/** Where the session stands: the worker starting, a link replaying, a run the user drives, or a failure. */
export type Phase = 'starting' | 'replaying' | 'live' | 'failed';

export interface LiveState {
  /** A new number for each start, so a panel can tell a new run from the one it showed. */
  readonly run: number;
  readonly phase: Phase;
  readonly failure: string | null;
  /** The virtual time shown to the user (it runs ahead of the last event while playing). */
  readonly now: number;
  readonly playing: boolean;
  /** Virtual ms per wall ms; it carries over to the next run. */
  readonly speed: number;
  readonly nextEvent: number | null;
  /** The run as a scenario: its setting, every action so far at its virtual ms, ending now. */
  readonly scenario: Scenario;
}

export type StartHow = 'play' | 'replay' | 'resume';

export type SessionListener = (view: RunView, live: LiveState) => void;

/** A run brought up to the shown time: what Share and the bug report are made of. */
export interface SettledRun {
  /** The run's number (LiveState.run). */
  run: number;
  scenario: Scenario;
  trace: readonly TraceEvent[];
}

export interface Session {
  /**
   * Starts `scenario` (after the previous run let go); 'replay' runs its steps to its end at once,
   * 'resume' does so and then plays on. Resolves with the run's number.
   */
  start(scenario: Scenario, how: StartHow): Promise<number>;
  /** Acts on the run; while a run is still starting, the action waits for it (a click is never lost). */
  act(action: UserAction): void;
  togglePlay(): void;
  step(): void;
  setSpeed(speed: number): void;
  settle(): Promise<SettledRun | null>;
  subscribe(listener: SessionListener): void;
  /** Stops the run and lets the worker go (a later start makes a new one). */
  dispose(): Promise<void>;
}

/** The worker starts loading at once: its script downloads and compiles while the page sets up. */
export function createSession(): Session {
  let runner: BrowserRunner | null = createBrowserRunner();
  let driver: LiveDriver | null = null;
  let scenario: Scenario | null = null;
  let run = 0;
  let phase: Phase = 'starting';
  let speed = 1;
  let failure: string | null = null;
  let starting: Promise<unknown> = Promise.resolve();
  // What the user did while the run had no driver yet, in order, for the run that is starting.
  let waiting: UserAction[] = [];
  const listeners = new Set<SessionListener>();
  // The view is derived once per new event, and reused by every paint until the trace grows.
  let view: RunView | null = null;
  let paintQueued = false;
  /** The timer of a paint put off by PAINT_SHARE, while it waits. */
  let paintDeferred: ReturnType<typeof setTimeout> | undefined;
  /** Counts paints, so a paint deferred to the next task can tell that a later one overtook it. */
  let paints = 0;
  /** How long the last paint held the thread (the derive, and the panels when they paint in the same task), and when it ended. */
  let paintCost = 0;
  let paintEnded = 0;
  /** A long trace's view is being derived in steps (paintInSteps); a paint asked for meanwhile waits for it. */
  let deriving = false;
  let paintAgain = false;

  function asScenario(s: Scenario, d: LiveDriver | null): Scenario {
    return d ? { ...s, steps: [...d.steps], endAt: d.now } : s;
  }

  function liveState(s: Scenario): LiveState {
    return {
      run,
      phase,
      failure,
      now: driver?.now ?? 0,
      playing: driver?.isPlaying ?? false,
      speed,
      nextEvent: driver?.run.nextEventTime() ?? null,
      scenario: asScenario(s, driver),
    };
  }

  /** Hands `painted` to the listeners, unless a later paint has started since (what this one would tell is stale). */
  function tell(painted: RunView, mine: number): void {
    if (mine !== paints || scenario !== painted.scenario) return;
    const live = liveState(painted.scenario);
    for (const listener of listeners) listener(painted, live);
  }

  function paint(): void {
    paintQueued = false;
    if (!scenario) return;
    // One derive at a time: a paint asked for meanwhile follows it, with the trace as it is then.
    if (deriving) {
      paintAgain = true;
      return;
    }
    const trace = driver?.run.trace ?? [];
    const mine = ++paints;
    if (view?.scenario === scenario && view.trace.length === trace.length) {
      tell(view, mine);
      return;
    }
    if (trace.length > DERIVE_AT_ONCE_UP_TO) {
      void paintInSteps(scenario, trace.slice(), mine);
      return;
    }
    const began = performance.now();
    const painted = deriveRunView(scenario, trace.slice());
    view = painted;
    // Deriving took a while: the panels then paint in a task of their own.
    if (performance.now() - began > DERIVE_ALONE_MS) void nextTask().then(() => tell(painted, mine));
    else tell(painted, mine);
    paintEnded = performance.now();
    paintCost = paintEnded - began;
  }

  /** A long trace's view, derived a step per task (runViewSteps); the panels paint in the task after the last. */
  async function paintInSteps(s: Scenario, trace: readonly TraceEvent[], mine: number): Promise<void> {
    deriving = true;
    let cost = 0;
    let painted: RunView | null = null;
    try {
      const steps = runViewSteps(s, trace);
      while (scenario === s) {
        const began = performance.now();
        const step = steps.next();
        cost += performance.now() - began;
        if (step.done) {
          painted = step.value;
          break;
        }
        await nextTask();
      }
    } finally {
      deriving = false;
    }
    paintEnded = performance.now();
    paintCost = cost;
    // The run ended while this was derived: the trace it has come to is its last, so that is
    // derived at once, and this older view is not painted on the way. Its panels held back the
    // end the user waits for: from the answer with 2,000 steps' last progress to 2000 / 2000
    // shown, a median 97 ms with them against 65 without (4× speed, 8 runs each).
    if (painted && paintAgain && driver?.run.nextEventTime() === null && driver.run.trace.length > trace.length) {
      view = painted;
      paintAgain = false;
      paint();
      return;
    }
    // A run that was replaced meanwhile is not shown; its successor paints.
    if (painted) {
      view = painted;
      await nextTask();
      tell(painted, mine);
    }
    if (paintAgain) {
      paintAgain = false;
      schedule();
    }
  }

  /**
   * Paints are coalesced to one per animation frame, and spaced out by PAINT_SHARE when they
   * are slow while the run goes on; a replay paints when it ends, not per event. Once nothing
   * is left to run, the paint that shows where the run ended is not put off: no run needs the
   * CPU any more, and a paint waiting out the spacing would hold back the end the user waits for.
   */
  function schedule(): void {
    if (phase === 'replaying') return;
    const over = driver?.run.nextEventTime() === null;
    if (paintQueued) {
      if (!over || paintDeferred === undefined) return;
      clearTimeout(paintDeferred);
      paintDeferred = undefined;
      requestAnimationFrame(paint);
      return;
    }
    paintQueued = true;
    const wait = over ? 0 : paintEnded + paintCost * (1 / PAINT_SHARE - 1) - performance.now();
    if (wait > 1)
      paintDeferred = setTimeout(() => {
        paintDeferred = undefined;
        requestAnimationFrame(paint);
      }, wait);
    else requestAnimationFrame(paint);
  }

  async function startNow(next: Scenario, how: StartHow, mine: number): Promise<number> {
    const previous = driver;
    // Until the new run exists, clicks have nowhere to go (not to the old, disposed run).
    driver = null;
    waiting = [];
    await previous?.dispose();
    runner ??= createBrowserRunner();
    scenario = next;
    phase = how === 'play' ? 'starting' : 'replaying';
    failure = null;
    try {
      const starting = LiveDriver.start(
        next,
        runner.channel,
        // A run that was replaced while it stepped must not paint over its successor.
        () => driver === d && schedule(),
        () => driver === d && schedule(),
      );
      // The worker sets up its sides while the page paints the run as starting.
      paint();
      const d = await starting;
      if (mine !== run) {
        await d.dispose();
        return mine;
      }
      driver = d;
      d.setSpeed(speed);
      if (how !== 'play') await d.replay();
      else await d.handshake(CONNECT_AT_ONCE_MS);
      if (mine !== run) return mine;
      phase = 'live';
      if (how !== 'replay') d.play();
      for (const action of waiting.splice(0)) void d.act(action);
    } catch (error) {
      phase = 'failed';
      failure = String(error);
    }
    if (mine === run) paint();
    return mine;
  }

  return {
    start(next, how) {
      // The run is numbered now, so whatever it replaces is superseded at once: a run still
      // waiting its turn never starts, one still starting is dropped as soon as its driver
      // exists, and one replaying stops after its current event — a long replay never holds up
      // the next run.
      const mine = ++run;
      void driver?.dispose();
      const started = starting.then(() => (mine === run ? startNow(next, how, mine) : mine));
      starting = started.catch(() => undefined);
      return started;
    },
    act(action) {
      if (driver && phase === 'live') void driver.act(action);
      else if (phase !== 'failed') waiting.push(action);
    },
    togglePlay: () => (driver?.isPlaying ? driver.pause() : driver?.play()),
    step: () => void driver?.step(),
    setSpeed(next) {
      speed = next;
      driver?.setSpeed(next);
    },
    async settle() {
      // A run still starting (a picker changed on the way to Share) is the one to settle.
      await starting;
      const d = driver;
      if (!d || !scenario) return null;
      const settling = run;
      await d.settle();
      return { run: settling, scenario: asScenario(scenario, driver), trace: d.run.trace.slice() };
    },
    subscribe: (listener) => void listeners.add(listener),
    async dispose() {
      const d = driver;
      driver = null;
      scenario = null;
      run++;
      const stopped = d?.dispose();
      await starting;
      await stopped;
      runner?.terminate();
      runner = null;
    },
  };
}
