/**
 * The headless runner as functions: scenario files, folders of them, or permalinks in; the
 * judged runs, what the command line prints and one exit code out. `bin/cancel-lab.mjs` (via
 * src/cli/main.ts) prints what these return; an SDK's CI can call them directly. See
 * src/cli/judge.ts for what each exit code means.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createNodeSides, type NodeSides } from '../host/index.ts';
import type { Sides } from '../engine/index.ts';
import { judgeInput, type ExitCode, type Judged, type JudgeOptions } from './judge.ts';
import { render, type Format } from './output.ts';
import { overallExit } from './text.ts';

export type { ExitCode, Judged, Problem, ProblemKind, Reproduction } from './judge.ts';

export interface RunOptions extends JudgeOptions {
  /** Output format; `json: true` is `format: 'json'` (the older flag). */
  format?: Format;
  json?: boolean;
  /** Text output: list every finding, not only the notable ones. */
  allFindings?: boolean;
  /** The site's address, for the open-points links in the outputs. */
  site?: string;
}

export interface RunResult extends Judged {
  /** The problem's message, for exit codes 1 (never connected), 2 and 3; else null. */
  error: string | null;
  /** What the command line prints, line by line. */
  stdout: string[];
  stderr: string[];
}

function formatOf(opts: RunOptions): Format {
  return opts.format ?? (opts.json === true ? 'json' : 'text');
}

/**
 * Runs a scenario file or a permalink on the real SDK in worker threads and judges the trace.
 * Never throws: bad input gives exit code 2, a run that could not complete exit code 3, each
 * with `error` set.
 */
export async function runScenarioFile(input: string, opts: RunOptions = {}): Promise<RunResult> {
  const judged = await judgeInput(input, opts);
  const printed = render([judged], { format: formatOf(opts), allFindings: opts.allFindings === true, ...(opts.site !== undefined && { site: opts.site }) });
  return { ...judged, error: judged.problem?.message ?? null, ...printed };
}

export interface ManyResult {
  exitCode: ExitCode;
  runs: Judged[];
  stdout: string[];
  stderr: string[];
}

/** A command-line input that names a folder stands for its `*.json` files, in name order; anything else stands for itself. */
export async function expandInputs(inputs: readonly string[], cwd: string = process.cwd()): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    const info = await stat(resolve(cwd, input)).catch(() => null);
    if (info?.isDirectory() !== true) {
      out.push(input);
      continue;
    }
    const names = (await readdir(resolve(cwd, input))).filter((n) => n.endsWith('.json')).sort();
    if (names.length === 0) out.push(input);
    else for (const name of names) out.push(join(input, name));
  }
  return out;
}

/**
 * Many scenarios in one process, one after the other on one pair of workers (a fresh pair
 * after a run that failed or hung, so one broken run cannot take the next ones with it): the
 * per-scenario results, what the command line prints, and the highest exit code.
 */
export async function runScenarios(inputs: readonly string[], opts: RunOptions = {}): Promise<ManyResult> {
  const expanded = await expandInputs(inputs, opts.cwd);
  let own: NodeSides | null = null;
  const runs: Judged[] = [];
  try {
    for (const input of expanded) {
      const sides: Sides = opts.sides ?? (own ??= createNodeSides());
      const judged = await judgeInput(input, { ...opts, sides });
      runs.push(judged);
      if (opts.sides === undefined && (judged.problem?.kind === 'hang' || judged.problem?.kind === 'run-failed')) {
        await own?.close();
        own = null;
      }
    }
  } finally {
    await own?.close();
  }
  const printed = render(runs, { format: formatOf(opts), allFindings: opts.allFindings === true, ...(opts.site !== undefined && { site: opts.site }) });
  return { exitCode: overallExit(runs), runs, ...printed };
}
