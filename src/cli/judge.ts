/**
 * The headless runner as a function: a scenario file or a permalink in, the trace, the
 * checker's findings and an exit code out. `bin/cancel-lab.mjs` (via src/cli/main.ts) prints
 * what this returns; an SDK's CI can call it directly.
 *
 * Exit codes: 0 when no MUST / MUST NOT rule is violated, 1 when one is (a finding with
 * severity 'error' and verdict 'violated'), 2 on bad input (unreadable file, invalid JSON, a
 * scenario the schema refuses, a broken link), 3 when the run itself failed or stopped at the
 * engine's bound on trace events (the trace and findings up to the bound are still given).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runHeadless } from '../host/index.ts';
import { boundReached, type Sides } from '../engine/index.ts';
import { decodeLink, settingLine } from '../scenario/index.ts';
import { checkRun, type Finding } from '../rules/index.ts';
import { parseScenario } from '../scenario/index.ts';
import type { Scenario } from '../scenario/index.ts';
import { serializeTrace, type TraceEvent } from '../trace/index.ts';
import { traceHash } from '../trace/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../scenario/index.ts';
import { findingSummary, reproduction as reproductionVerdict } from '../views/index.ts';
import { formatFindings, formatTrace } from './format.ts';

export type ExitCode = 0 | 1 | 2 | 3;

export interface RunOptions {
  /** JSON Lines on stdout: one line per trace event, then {"findings": [...], "exitCode": n, …}. */
  json?: boolean;
  /** Text output: list every finding, not only the violated ones. */
  allFindings?: boolean;
  /** Warm workers to run on (tests); by default the run gets its own pair and closes it. */
  sides?: Sides;
  /** Where a relative file path is resolved; the process's working directory by default. */
  cwd?: string;
}

/** A recorded trace hash (from a permalink or a library file) compared with this run's. */
export interface Reproduction {
  recorded: string;
  now: string;
  exact: boolean;
  /** The versions the link recorded (a library file records none). */
  engine?: string;
  sdk?: string;
}

export interface RunResult {
  exitCode: ExitCode;
  /** Null on bad input. */
  scenario: Scenario | null;
  trace: TraceEvent[];
  findings: Finding[];
  /** traceHash() of this run; null when nothing ran. */
  traceHash: string | null;
  reproduction: Reproduction | null;
  /** One sentence saying what was wrong, for exit codes 2 and 3. */
  error: string | null;
  /** What the command line prints, line by line. */
  stdout: string[];
  stderr: string[];
}

type Loaded = { ok: true; scenario: Scenario; recorded: { trace: string; engine?: string; sdk?: string } | null; what: string } | { ok: false; error: string };

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const LINK_LIKE = /^v\d+\.[A-Za-z0-9_-]*$/;

async function fromLink(fragment: string): Promise<Loaded> {
  const decoded = await decodeLink(fragment);
  if (!decoded.ok) return { ok: false, error: decoded.error };
  const meta = decoded.meta;
  return { ok: true, scenario: decoded.scenario, recorded: meta ? { trace: meta.trace, engine: meta.engine, sdk: meta.sdk } : null, what: 'the link' };
}

function errnoText(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/**
 * A scenario file holds a scenario, or a library entry ({ id, …, scenario, trace }) whose
 * recorded trace hash is then checked like a permalink's.
 */
function fromFileText(text: string, name: string): Loaded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${name} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.` };
  }
  let candidate = value;
  let recorded: { trace: string } | null = null;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'scenario' in value && !('version' in value)) {
    const entry = value as { scenario: unknown; trace?: unknown };
    candidate = entry.scenario;
    if (typeof entry.trace === 'string' && entry.trace !== '') recorded = { trace: entry.trace };
  }
  const parsed = parseScenario(candidate);
  if (!parsed.ok) {
    const more = parsed.errors.length > 3 ? ` (and ${parsed.errors.length - 3} more)` : '';
    return { ok: false, error: `${name} is not a valid scenario: ${parsed.errors.slice(0, 3).join('; ')}${more}.` };
  }
  return { ok: true, scenario: parsed.scenario, recorded, what: name };
}

/** A permalink (URL, `#fragment` or bare `v1.…`) or a file path. */
export async function loadScenario(input: string, cwd: string = process.cwd()): Promise<Loaded> {
  const text = input.trim();
  if (text === '') return { ok: false, error: 'No scenario given: pass a scenario file or a permalink.' };
  if (URL_SCHEME.test(text)) {
    const hash = text.indexOf('#');
    if (hash < 0) return { ok: false, error: 'This URL has no #fragment: a Cancel Lab link carries its scenario after "#".' };
    return fromLink(text.slice(hash + 1));
  }
  if (text.startsWith('#')) return fromLink(text);
  let fileText: string;
  try {
    fileText = await readFile(resolve(cwd, text), 'utf8');
  } catch (error) {
    if (LINK_LIKE.test(text)) return fromLink(text);
    return { ok: false, error: `Cannot read ${text}: ${errnoText(error)}.` };
  }
  return fromFileText(fileText, text);
}

function badInput(error: string, json: boolean): RunResult {
  return {
    exitCode: 2,
    scenario: null,
    trace: [],
    findings: [],
    traceHash: null,
    reproduction: null,
    error,
    stdout: json ? [JSON.stringify({ findings: [], exitCode: 2, error })] : [],
    stderr: [`cancel-lab: ${error}`],
  };
}

/**
 * Runs a scenario file or a permalink on the real SDK in worker threads and judges the trace.
 * Never throws: bad input gives exit code 2, a failed run exit code 3, each with `error` set.
 */
export async function runScenarioFile(input: string, opts: RunOptions = {}): Promise<RunResult> {
  const json = opts.json === true;
  const loaded = await loadScenario(input, opts.cwd);
  if (!loaded.ok) return badInput(loaded.error, json);
  const scenario = loaded.scenario;

  let trace: TraceEvent[];
  try {
    trace = await runHeadless(scenario, opts.sides);
  } catch (error) {
    const message = `the run failed: ${error instanceof Error ? error.message : String(error)}`;
    return { ...badInput(message, json), exitCode: 3, scenario, stdout: json ? [JSON.stringify({ findings: [], exitCode: 3, error: message })] : [] };
  }
  const findings = checkRun(scenario, trace);
  const hash = await traceHash(trace);
  const bound = boundReached(trace);
  const exitCode: ExitCode = bound !== null ? 3 : findingSummary(findings, scenario).mustBroken ? 1 : 0;
  const reproduction: Reproduction | null = loaded.recorded
    ? {
        recorded: loaded.recorded.trace,
        now: hash,
        exact: loaded.recorded.trace === hash,
        ...(loaded.recorded.engine !== undefined && { engine: loaded.recorded.engine }),
        ...(loaded.recorded.sdk !== undefined && { sdk: loaded.recorded.sdk }),
      }
    : null;

  const verdict = loaded.recorded ? reproductionVerdict(loaded.recorded, hash).text : null;
  const stdout: string[] = [];
  const stderr: string[] = [];
  if (json) {
    if (trace.length) stdout.push(...serializeTrace(trace).split('\n'));
    stdout.push(JSON.stringify({ findings, exitCode, traceHash: hash, ...(reproduction && { reproduction }), ...(bound !== null && { error: bound }) }));
    if (verdict !== null) stderr.push(`cancel-lab: ${verdict}`);
    if (bound !== null) stderr.push(`cancel-lab: ${bound}`);
  } else {
    const errors = trace.filter((e) => e.kind === 'error').length;
    stdout.push(
      `Scenario from ${loaded.what}: ${settingLine(scenario)}, until ${scenario.endAt} ms`,
      `Engine ${ENGINE_VERSION}, SDK ${SDK_VERSION}`,
      '',
      `Trace (${trace.length} events, hash ${hash}):`,
      ...formatTrace(trace),
      '',
      ...formatFindings(findings, scenario, opts.allFindings === true),
    );
    if (errors) stdout.push(`The engine reported ${errors} error event${errors === 1 ? '' : 's'} (ENGINE ERROR above): the scenario asks for something that cannot happen.`);
    if (verdict !== null) stdout.push(verdict);
    if (bound !== null) stderr.push(`cancel-lab: ${bound}`);
    stdout.push(
      bound !== null
        ? 'Exit 3: the run stopped at its bound before its end, so the findings cover only the trace above.'
        : exitCode === 1
          ? 'Exit 1: a MUST or MUST NOT rule is violated.'
          : 'Exit 0: no MUST or MUST NOT rule is violated.',
    );
  }
  return { exitCode, scenario, trace, findings, traceHash: hash, reproduction, error: bound, stdout, stderr };
}
