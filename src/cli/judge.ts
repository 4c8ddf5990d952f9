/**
 * One run, judged: a scenario file or a permalink in; the trace, the checker's findings (by the
 * rules of the revision the run negotiated), what went wrong if anything, and an exit code out.
 * src/cli/run.ts prints it in the format asked for.
 *
 * Exit codes (the same for one scenario and for many, where the highest wins):
 *   0  no MUST / MUST NOT rule is violated;
 *   1  one is (a finding with severity 'error' and verdict 'violated'), or the client never
 *      connected, so nothing the scenario asked for could be judged: a finding, never a silent 0;
 *   2  bad input: unreadable file, invalid JSON, a scenario the schema refuses, a broken link,
 *      a setting the playground's pickers disable;
 *   3  the run could not complete: the engine threw or reported an error, a worker crashed,
 *      the run hit one of its bounds (trace events, wall-clock time). Never 1 for a crash.
 */
import { createNodeSides, runHeadless } from '../host/index.ts';
import { haltOf, MAX_STEPS, MAX_TRACE_EVENTS, MAX_VIRTUAL_MS, SIDE_STEP_TIMEOUT_MS, type Sides } from '../engine/index.ts';
import { checkRun, judgedRevision, type Finding } from '../rules/index.ts';
import type { Revision, Scenario } from '../scenario/index.ts';
import { grouped, traceHash, type TraceEvent } from '../trace/index.ts';
import { findingSummary, negotiated } from '../views/index.ts';
import { loadScenario, type Recorded } from './load.ts';

export type ExitCode = 0 | 1 | 2 | 3;

/** What kept a run from a plain verdict, and the exit code it gives. */
export type ProblemKind = 'bad-input' | 'run-failed' | 'hang' | 'bound' | 'engine-error' | 'not-connected';

export const PROBLEM_EXIT: Record<ProblemKind, ExitCode> = {
  'bad-input': 2,
  'run-failed': 3,
  hang: 3,
  bound: 3,
  'engine-error': 3,
  'not-connected': 1,
};

export interface Problem {
  kind: ProblemKind;
  /** One sentence saying what was wrong. */
  message: string;
}

/**
 * The wall-clock bound of one run: a worker that stops answering (a crash the engine cannot
 * see, an SDK that never settles) would otherwise hang the runner, and a CI job, for ever. The
 * largest library scenario runs in well under a second; a run at the engine's event bound in a
 * few seconds.
 */
export const WALL_CLOCK_MS = 60_000;

/** A recorded trace hash (from a permalink or a library file) compared with this run's. */
export interface Reproduction {
  recorded: string;
  now: string;
  exact: boolean;
  /** The versions the link recorded (a library file records none). */
  engine?: string;
  sdk?: string;
}

export interface Judged {
  /** The input as given on the command line. */
  input: string;
  /** Where CI formats place the findings when not at `input`: the scenario an explored witness came from. */
  at?: string;
  exitCode: ExitCode;
  /** Null on bad input. */
  scenario: Scenario | null;
  /** Where the scenario came from, in words ("the link", the file name). */
  what: string;
  /** The revision the findings are judged by: the one negotiated, else the scenario's. */
  revision: Revision | null;
  trace: TraceEvent[];
  findings: Finding[];
  /** traceHash() of this run; null when nothing ran. */
  traceHash: string | null;
  recorded: Recorded | null;
  reproduction: Reproduction | null;
  problem: Problem | null;
  /** When the run started (ISO 8601): the checks' timestamp. */
  startedAt: string;
}

export interface JudgeOptions {
  /** Warm workers to run on; by default the run gets its own pair and closes it. */
  sides?: Sides;
  /** Where a relative file path is resolved; the process's working directory by default. */
  cwd?: string;
  /** The wall-clock bound of the run, in ms (WALL_CLOCK_MS by default). */
  wallClockMs?: number;
  /** The clock, for the checks' timestamp (tests pin it). */
  now?: () => Date;
}

function problemOf(trace: readonly TraceEvent[]): Problem | null {
  // The engine ends a run early at a bound, or when a side fails; the trace's last event says which.
  const halt = haltOf(trace);
  if (halt !== null) return { kind: halt.reason === 'side-failed' ? 'run-failed' : 'bound', message: halt.message };
  const errors = trace.filter((e) => e.kind === 'error');
  const first = errors[0];
  if (first !== undefined) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    return { kind: 'engine-error', message: `The engine reported an error at ${first.t} ms: ${first.message}${more}. The run did not do what the scenario asks, so its findings are not a verdict.` };
  }
  if (negotiated(trace) === null) {
    return { kind: 'not-connected', message: 'The client never connected (no handshake completed), so none of the calls the scenario makes could be judged.' };
  }
  return null;
}

type Ran = { ok: true; trace: TraceEvent[] } | { ok: false; problem: Problem };

/** One run on `sides`; a hang past `wallClockMs` is a problem, not a wait. */
async function race(scenario: Scenario, sides: Sides, wallClockMs: number): Promise<Ran> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<Ran>((done) => {
    const message = `The run did not finish within its wall-clock bound of ${grouped(wallClockMs)} ms: a worker stopped answering (it may have crashed).`;
    timer = setTimeout(() => done({ ok: false, problem: { kind: 'hang', message } }), wallClockMs);
  });
  const ran = runHeadless(scenario, sides).then(
    (trace): Ran => ({ ok: true, trace }),
    (error: unknown): Ran => ({ ok: false, problem: { kind: 'run-failed', message: `The run failed: ${error instanceof Error ? error.message : String(error)}.` } }),
  );
  try {
    return await Promise.race([ran, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs on the given sides, or on a pair of its own that it always closes (so a hung worker ends with it). */
async function runBounded(scenario: Scenario, given: Sides | undefined, wallClockMs: number): Promise<Ran> {
  if (given) return race(scenario, given, wallClockMs);
  const own = createNodeSides();
  try {
    return await race(scenario, own, wallClockMs);
  } finally {
    await own.close();
  }
}

/**
 * Loads, runs and judges one input. Never throws: bad input is a `bad-input` problem (exit 2),
 * a run that could not complete a problem with exit 3, each with its message.
 */
export async function judgeInput(input: string, opts: JudgeOptions = {}): Promise<Judged> {
  const startedAt = (opts.now ?? (() => new Date()))().toISOString();
  const blank = { input, trace: [], findings: [], traceHash: null, reproduction: null, startedAt };
  const loaded = await loadScenario(input, opts.cwd);
  if (!loaded.ok) return { ...blank, exitCode: 2, scenario: null, what: input, revision: null, recorded: null, problem: { kind: 'bad-input', message: loaded.error } };
  const { scenario, recorded, what } = loaded;
  const ran = await runBounded(scenario, opts.sides, opts.wallClockMs ?? WALL_CLOCK_MS);
  if (!ran.ok) return { ...blank, exitCode: PROBLEM_EXIT[ran.problem.kind], scenario, what, revision: null, recorded, problem: ran.problem };
  const trace = ran.trace;
  const revision = judgedRevision(scenario, trace);
  const findings = checkRun(scenario, trace);
  const hash = await traceHash(trace);
  const problem = problemOf(trace);
  const mustBroken = findingSummary(findings, { revision, transport: scenario.transport }).mustBroken;
  const exitCode: ExitCode = problem !== null && PROBLEM_EXIT[problem.kind] === 3 ? 3 : mustBroken || problem !== null ? 1 : 0;
  const reproduction: Reproduction | null = recorded
    ? {
        recorded: recorded.trace,
        now: hash,
        exact: recorded.trace === hash,
        ...(recorded.engine !== undefined && { engine: recorded.engine }),
        ...(recorded.sdk !== undefined && { sdk: recorded.sdk }),
      }
    : null;
  return { input, exitCode, scenario, what, revision, trace, findings, traceHash: hash, recorded, reproduction, problem, startedAt };
}

/** The bounds every run has, in one line for the usage text and the README. */
export const BOUNDS_TEXT = `each run stops at its scenario's endAt in virtual time, and at the engine's bounds: ${grouped(MAX_TRACE_EVENTS)} trace events, ${grouped(MAX_STEPS)} steps, ${(MAX_VIRTUAL_MS / 3_600_000).toString()} h of virtual time, one side busy for ${(SIDE_STEP_TIMEOUT_MS / 1000).toString()} s of wall-clock time in one step; the whole run after ${(WALL_CLOCK_MS / 1000).toString()} s`;
