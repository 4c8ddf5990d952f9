/**
 * `cancel-lab probe` as a function: connect the real SDK client to the server, time the tool,
 * run the battery, always stop what it started, and judge the recorded trace. Never throws:
 * every way it can go wrong is a problem with the exit code `run` gives it:
 *   0  no MUST / MUST NOT rule is violated;
 *   1  one is (the checker's, or the probe's own: a server that a cancel took down), or the
 *      server never completed the handshake (it exited or closed the connection first);
 *   2  bad input: a command that cannot start, nothing at the URL, a tool that cannot be
 *      called, or one that finishes too fast to race;
 *   3  the probe could not complete: the server hung (a step ran past its timeout), flooded
 *      (a bound tripped), or went while the tool was being timed.
 */
import { checkRun, type Finding } from '../../rules/index.ts';
import { REVISIONS, type Revision, type TransportKind } from '../../scenario/index.ts';
import { traceHash, type TraceEvent } from '../../trace/index.ts';
import { findingSummary } from '../../views/index.ts';
import { PROBLEM_EXIT, type ExitCode, type ProblemKind } from '../judge.ts';
import { MAX_TOOL_MS, MIN_TOOL_MS, runBattery, type CheckId, type CheckRun } from './battery.ts';
import { CONNECT_TIMEOUT_MS, Session, StepFailed, describe, type Settled, type Target } from './session.ts';
import { checkVerdicts, probeFindings, type CheckVerdict } from './verdicts.ts';

export interface ProbeOptions {
  target: Target;
  tool: string;
  args: Record<string, unknown>;
  /** The checks to run (all by default). */
  only?: readonly CheckId[];
  /** The bound on the handshake and on timing the tool, in ms (CONNECT_TIMEOUT_MS and MAX_TOOL_MS by default). */
  timeoutMs?: number;
  /** The clock, for the checks' timestamp (tests pin it). */
  now?: () => Date;
}

export interface Probed {
  /** The server, as named on the command line. */
  name: string;
  tool: string;
  /** How the probe reached the server. */
  transport: TransportKind;
  exitCode: ExitCode;
  /** How long the tool took when timed; null when it was not. */
  measuredMs: number | null;
  setting: { revision: Revision; transport: TransportKind } | null;
  verdicts: CheckVerdict[];
  findings: Finding[];
  trace: TraceEvent[];
  traceHash: string | null;
  problem: { kind: ProblemKind; message: string } | null;
  startedAt: string;
}

type Problem = NonNullable<Probed['problem']>;

function isRevision(value: string | undefined): value is Revision {
  return value !== undefined && (REVISIONS as readonly string[]).includes(value);
}

function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return cause !== null && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
}

/** Why the handshake did not complete, as a problem; `reported` is the first error the transport reported. */
function connectProblem(error: unknown, target: Target, reported: Error | undefined): Problem {
  const what = describe(target);
  if (target.kind === 'http' && reported?.message === 'fetch failed') {
    const cause = reported.cause instanceof Error ? reported.cause : undefined;
    return { kind: 'bad-input', message: `Nothing answered at ${what} (${errorCode(reported) ?? cause?.message ?? 'fetch failed'}).` };
  }
  if (error instanceof StepFailed) {
    return error.gone === null
      ? { kind: 'hang', message: `The server did not complete the handshake: ${error.message}.` }
      : { kind: 'not-connected', message: `The server never completed the handshake: ${error.gone.why}.` };
  }
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (target.kind === 'stdio' && (code === 'ENOENT' || code === 'EACCES')) return { kind: 'bad-input', message: `Cannot start "${what}": ${code === 'ENOENT' ? 'no such command' : 'permission denied'}.` };
  return { kind: 'not-connected', message: `The client could not connect to ${what}: ${message}.` };
}

/** One plain call of the tool, timed. */
async function timed(session: Session, tool: string, args: Record<string, unknown>, bound: number): Promise<Settled & { ms: number }> {
  const sentAt = session.recorder.now();
  const settled = await session.step('timing the tool', bound, session.call(tool, args, { timeout: bound }));
  return { ...settled, ms: settled.t - sentAt };
}

/**
 * Times the tool: two plain calls, the faster one counts (a server's first call often pays for
 * warming up). A problem when it cannot be called, fails, or is too fast to race.
 */
async function measure(session: Session, tool: string, args: Record<string, unknown>, bound: number): Promise<{ ok: true; ms: number } | { ok: false; problem: Problem }> {
  session.recorder.note(`probe: timing the tool ${tool}`);
  try {
    const first = await timed(session, tool, args, bound);
    if (!first.ok) return { ok: false, problem: { kind: 'bad-input', message: `The tool "${tool}" could not be called with ${JSON.stringify(args)}: ${first.error}.` } };
    const second = first.ms < MIN_TOOL_MS ? first : await timed(session, tool, args, bound);
    const ms = Math.min(first.ms, second.ok ? second.ms : first.ms);
    if (ms < MIN_TOOL_MS) {
      const message = `The tool "${tool}" answered in ${ms} ms: too fast to race. A cancel needs a call still running when it arrives, so the probe needs a tool that takes at least ${MIN_TOOL_MS} ms (a few hundred is best): give it arguments that make it slower (--args), or name a slower tool.`;
      return { ok: false, problem: { kind: 'bad-input', message } };
    }
    return { ok: true, ms };
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    return error.gone === null
      ? { ok: false, problem: { kind: 'hang', message: `The server hung: timing the tool "${tool}", ${error.message}.` } }
      : error.gone.flood
        ? { ok: false, problem: { kind: 'bound', message: `The probe stopped while timing the tool "${tool}": the server flooded it (${session.recorder.tripped ?? 'a bound tripped'}).` } }
        : { ok: false, problem: { kind: 'run-failed', message: `The server went while the tool "${tool}" was being timed: ${error.gone.why}.` } };
  }
}

/** The problem the battery left, if any: a check stuck, or a flood. */
function batteryProblem(session: Session, runs: readonly CheckRun[]): Problem | null {
  const gone = session.went();
  if (gone?.flood) return { kind: 'bound', message: `The probe stopped: the server flooded it (${session.recorder.tripped ?? 'a bound tripped'}).` };
  const stuck = runs.find((r) => r.stuck !== null);
  return stuck ? { kind: 'hang', message: `The server hung in "${stuck.title}": ${stuck.stuck ?? ''}; the checks after it were not run.` } : null;
}

/** Connects, times the tool and runs the battery; always closes the session. */
async function drive(session: Session, opts: ProbeOptions): Promise<{ measuredMs: number | null; runs: CheckRun[]; problem: Problem | null }> {
  try {
    await session.connect(opts.timeoutMs ?? CONNECT_TIMEOUT_MS);
  } catch (error) {
    return { measuredMs: null, runs: [], problem: connectProblem(error, opts.target, session.firstError) };
  }
  let measuredMs: number | null = null;
  try {
    const measured = await measure(session, opts.tool, opts.args, opts.timeoutMs ?? MAX_TOOL_MS);
    if (!measured.ok) return { measuredMs, runs: [], problem: measured.problem };
    measuredMs = measured.ms;
    const runs = await runBattery(session, opts.tool, opts.args, measured.ms, opts.only ?? null);
    return { measuredMs, runs, problem: batteryProblem(session, runs) };
  } catch (error) {
    // Not the server's doing: the probe itself failed (the SDK threw where it should not).
    return { measuredMs, runs: [], problem: { kind: 'run-failed', message: `The probe failed: ${error instanceof Error ? error.message : String(error)}.` } };
  }
}

export async function probe(opts: ProbeOptions): Promise<Probed> {
  const startedAt = (opts.now ?? (() => new Date()))().toISOString();
  const name = describe(opts.target);
  const transport: TransportKind = opts.target.kind === 'http' ? 'streamable-http' : 'stdio';
  const session = new Session(opts.target);
  let driven: Awaited<ReturnType<typeof drive>>;
  try {
    driven = await drive(session, opts);
  } finally {
    await session.close();
  }
  const { measuredMs, runs } = driven;
  let problem = driven.problem;
  const recorded = session.recorder.trace(name, transport);
  const trace = recorded?.trace ?? [];
  const revision = recorded?.revision;
  const base = { name, tool: opts.tool, transport, measuredMs, trace, traceHash: trace.length > 0 ? await traceHash(trace) : null, startedAt };
  if (!isRevision(revision)) {
    problem ??= { kind: 'not-connected', message: `The server agreed on protocol version ${JSON.stringify(revision)}, which is none of the revisions the lab judges (${REVISIONS.join(', ')}).` };
    return { ...base, exitCode: PROBLEM_EXIT[problem.kind], setting: null, verdicts: [], findings: [], problem };
  }
  const setting = { revision, transport };
  const findings = probeFindings(checkRun(setting, trace), trace, runs, transport);
  const verdicts = checkVerdicts(findings, trace, runs, setting);
  const mustBroken = findingSummary(findings, setting).mustBroken;
  const exitCode: ExitCode = problem !== null && PROBLEM_EXIT[problem.kind] !== 1 ? PROBLEM_EXIT[problem.kind] : mustBroken || problem !== null ? 1 : 0;
  return { ...base, exitCode, setting, verdicts, findings, problem };
}
