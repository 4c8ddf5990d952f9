/**
 * A lane that runs whole schedules in a worker of its own: the worker holds both sides and the
 * coordinator, runs each job it is sent as `runJob` would here, and sends back the record, the
 * choices and the options (a few hundred bytes, not the trace). The job is the schedule's value
 * (forced choices, or a seed and a number), so the run is the same one whichever thread runs it.
 * One job at a time per worker; the scenario goes along only when it changed. A worker whose
 * run broke its sides, or that died, is terminated and the next job gets a fresh one.
 */
import type { Sides } from '../engine/index.ts';
import { parseScenario, type Scenario } from '../scenario/index.ts';
import { runJobOn, type ScheduleJob, type ScheduleRunner } from './lane.ts';
import { failedRun, type Ran } from './run-one.ts';

/** One end of the channel to a worker (a Node MessagePort, a Web Worker). */
export interface PoolPort {
  postMessage(message: unknown): void;
  listen(handler: (message: unknown) => void): void;
}

/** The worker as its lane sees it. */
export interface PoolWorker extends PoolPort {
  /** Called once if the worker dies (an uncaught error, an exit), with why. */
  onDeath(handler: (why: string) => void): void;
  terminate(): Promise<void>;
}

interface JobMessage {
  id: number;
  job: ScheduleJob;
  /** Sent with the first job on a scenario; later jobs run on the last one sent. */
  scenario?: unknown;
}

interface DoneMessage {
  id: number;
  ran: Ran;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');

function isJob(v: unknown): v is ScheduleJob {
  if (!isObject(v) || !isNumbers(v.forced)) return false;
  const r = v.random;
  return r === undefined || (isObject(r) && typeof r.seed === 'string' && typeof r.n === 'number');
}

function isJobMessage(m: unknown): m is JobMessage {
  return isObject(m) && typeof m.id === 'number' && isJob(m.job);
}

/** The shape of what a worker sends back (it is our own thread's structured clone, so the shape is the check). */
function isDoneMessage(m: unknown): m is DoneMessage {
  if (!isObject(m) || typeof m.id !== 'number' || !isObject(m.ran)) return false;
  const { record, choices, options, broken } = m.ran;
  return isObject(record) && typeof record.schedule === 'string' && typeof record.traceHash === 'string' && isNumbers(choices) && isNumbers(options) && typeof broken === 'boolean';
}

/**
 * In the worker: runs every job that comes in on `port`, one after the other, on `sides`.
 */
export function serveSchedules(port: PoolPort, sides: Sides): void {
  let scenario: Scenario | null = null;
  let problem = 'no scenario was sent';
  let queue = Promise.resolve();
  port.listen((message) => {
    if (!isJobMessage(message)) return;
    if (message.scenario !== undefined) {
      const parsed = parseScenario(message.scenario);
      scenario = parsed.ok ? parsed.scenario : null;
      problem = parsed.ok ? '' : `the scenario sent is not valid: ${parsed.errors.slice(0, 2).join('; ')}`;
    }
    const on = scenario;
    const why = problem;
    queue = queue.then(async () => {
      const ran = on === null ? failedRun(message.job.forced, why) : await runJobOn(sides, on, message.job);
      port.postMessage({ id: message.id, ran } satisfies DoneMessage);
    });
  });
}

interface Waiting {
  id: number;
  scenario: Scenario;
  job: ScheduleJob;
  done(ran: Ran): void;
}

/**
 * On the explorer's side: a lane whose schedules run in a worker `spawn` starts (now, so that
 * workers start side by side). It takes a job while it still runs others (the search sends it
 * the next while it runs one, so that the worker never waits on this thread between two); the
 * worker runs them one after the other. When a run broke the worker's sides, or the worker
 * died in one, the jobs sent after it run again on a fresh worker, as they would have on a
 * fresh pair of sides one at a time.
 */
export class PooledLane implements ScheduleRunner {
  private readonly spawn: () => PoolWorker;
  private worker: PoolWorker | null;
  /** The scenario the worker has, by identity. */
  private sent: Scenario | null = null;
  /** Sent and not answered, in the order sent (the order the worker runs them). */
  private readonly waiting = new Map<number, Waiting>();
  private ids = 0;
  private closed = false;

  constructor(spawn: () => PoolWorker) {
    this.spawn = spawn;
    this.worker = this.start();
  }

  private start(): PoolWorker {
    const worker = this.spawn();
    worker.listen((message) => {
      if (!isDoneMessage(message) || this.worker !== worker) return;
      const w = this.waiting.get(message.id);
      if (w === undefined) return;
      this.waiting.delete(w.id);
      if (message.ran.broken) void this.replace();
      w.done(message.ran);
    });
    worker.onDeath((why) => {
      if (this.worker !== worker) return;
      // The first job waiting is the one it was running.
      const [first] = this.waiting.values();
      if (first !== undefined) {
        this.waiting.delete(first.id);
        first.done(failedRun(first.job.forced, `the explorer's worker died: ${why}`));
      }
      void this.replace();
    });
    return worker;
  }

  private post(w: Waiting): void {
    const worker = (this.worker ??= this.start());
    worker.postMessage({ id: w.id, job: w.job, ...(this.sent !== w.scenario && { scenario: w.scenario }) } satisfies JobMessage);
    this.sent = w.scenario;
  }

  runJob(scenario: Scenario, job: ScheduleJob): Promise<Ran> {
    if (this.closed) return Promise.reject(new Error('this lane was closed'));
    const id = ++this.ids;
    return new Promise<Ran>((done) => {
      const w = { id, scenario, job, done };
      this.waiting.set(id, w);
      this.post(w);
    });
  }

  /** Ends the worker; the jobs still waiting go to a fresh one, in their order. */
  private async replace(): Promise<void> {
    const old = this.drop();
    if (!this.closed) for (const w of this.waiting.values()) this.post(w);
    await old;
  }

  private drop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.sent = null;
    return worker?.terminate() ?? Promise.resolve();
  }

  /** Ends the worker; a job still waiting comes back without a verdict. */
  close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.values()) w.done(failedRun(w.job.forced, 'the lane was closed before it ran'));
    this.waiting.clear();
    return this.drop();
  }
}
