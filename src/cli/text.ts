/**
 * The runner's human-readable output: for one scenario its setting, its trace and its
 * findings; for many, each one's notable findings and a summary table. Pure functions of the
 * judged runs, so tests read exactly what the command line prints.
 */
import { linkOpenPoints } from '../report/index.ts';
import { ENGINE_VERSION, SDK_VERSION, settingLine } from '../scenario/index.ts';
import { plural } from '../trace/index.ts';
import { reproduction as reproductionVerdict } from '../views/index.ts';
import { formatFindings, formatTrace } from './format.ts';
import type { ExitCode, Judged } from './judge.ts';

export interface Printed {
  stdout: string[];
  stderr: string[];
}

const EXIT_LINE: Record<ExitCode, string> = {
  0: 'Exit 0: no MUST or MUST NOT rule is violated.',
  1: 'Exit 1: a MUST or MUST NOT rule is violated.',
  2: 'Exit 2: bad input.',
  3: 'Exit 3: the run could not complete, so the findings cover only the trace above.',
};

function exitLine(j: Judged): string {
  if (j.problem?.kind === 'bound') return 'Exit 3: the run stopped at its bound before its end, so the findings cover only the trace above.';
  if (j.problem?.kind === 'not-connected' && j.exitCode === 1 && !j.findings.some((f) => f.severity === 'error' && f.verdict === 'violated')) {
    return 'Exit 1: the client never connected, so nothing the scenario asks for was judged.';
  }
  return EXIT_LINE[j.exitCode];
}

/** The revision line, when the run negotiated another revision than the scenario asks for. */
function judgedLine(j: Judged): string[] {
  if (j.scenario === null || j.revision === null || j.revision === j.scenario.revision) return [];
  return [`Judged by the rules of ${j.revision}, the revision the run negotiated (the scenario asks for ${j.scenario.revision}).`];
}

/** A findings line, each open point it cites followed by its page when the site is known. */
function cite(line: string, site: string | undefined): string {
  return site === undefined ? line : linkOpenPoints(line, (id, href) => `${id} (${href})`, site);
}

/** One scenario, in full: what the runner has always printed. */
export function singleText(j: Judged, allFindings: boolean, site?: string): Printed {
  const stderr = j.problem !== null && j.problem.kind !== 'not-connected' ? [`cancel-lab: ${j.problem.message}`] : [];
  const s = j.scenario;
  if (s === null || j.revision === null || j.traceHash === null) return { stdout: [], stderr };
  const verdict = j.recorded ? reproductionVerdict(j.recorded, j.traceHash).text : null;
  const stdout = [`Scenario from ${j.what}: ${settingLine(s)}, until ${s.endAt} ms`, `Engine ${ENGINE_VERSION}, SDK ${SDK_VERSION}`, ...judgedLine(j), '', `Trace (${j.trace.length} events, hash ${j.traceHash}):`];
  // One line at a time: a spread of a long trace's lines would overflow the call stack.
  for (const line of formatTrace(j.trace)) stdout.push(line);
  stdout.push('');
  for (const line of formatFindings(j.findings, { revision: j.revision, transport: s.transport }, allFindings)) stdout.push(cite(line, site));
  if (j.problem !== null) stdout.push(j.problem.message);
  if (verdict !== null) stdout.push(verdict);
  stdout.push(exitLine(j));
  return { stdout, stderr };
}

/** What a run came to, in the summary table's words. */
type Outcome = 'passed' | 'MUST broken' | 'never connected' | 'bad input' | 'could not complete';

const OUTCOMES: readonly Outcome[] = ['passed', 'MUST broken', 'never connected', 'bad input', 'could not complete'];

function outcomeOf(j: Judged): Outcome {
  if (j.exitCode === 2) return 'bad input';
  if (j.exitCode === 3) return 'could not complete';
  if (j.findings.some((f) => f.severity === 'error' && f.verdict === 'violated')) return 'MUST broken';
  return j.exitCode === 1 ? 'never connected' : 'passed';
}

const EXIT_MEANING: Record<ExitCode, string> = {
  0: 'no MUST or MUST NOT rule is violated',
  1: 'a MUST or MUST NOT rule is violated, or a client never connected',
  2: 'bad input',
  3: 'a run could not complete',
};

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();
}

/** Many scenarios: each one's notable findings or problem, then a table of all and the overall exit code. */
export function manyText(runs: readonly Judged[], site?: string): Printed {
  const stdout: string[] = [];
  const stderr: string[] = [];
  for (const j of runs) {
    const s = j.scenario;
    stdout.push(`== ${j.input}${s ? `: ${settingLine(s)}` : ''}`);
    if (j.problem !== null) {
      stdout.push(`  ${j.problem.message}`);
      if (j.problem.kind !== 'not-connected') stderr.push(`cancel-lab: ${j.input}: ${j.problem.message}`);
    }
    if (s !== null && j.revision !== null) {
      for (const line of judgedLine(j)) stdout.push(`  ${line}`);
      for (const line of formatFindings(j.findings, { revision: j.revision, transport: s.transport })) stdout.push(cite(line.startsWith('  ') ? line : `  ${line}`, site));
    }
    stdout.push('');
  }
  const header = ['exit', 'outcome', 'MUST', 'SHOULD', 'revision', 'scenario'];
  const rows = runs.map((j) => {
    const violated = (severity: string) => j.findings.filter((f) => f.verdict === 'violated' && f.severity === severity).length;
    const failedRun = j.problem !== null && j.exitCode !== 1;
    return [String(j.exitCode), outcomeOf(j), failedRun ? '-' : String(violated('error')), failedRun ? '-' : String(violated('warning')), j.revision ?? '-', j.input];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => (r[i] ?? '').length)));
  const exitCode = overallExit(runs);
  const counts = OUTCOMES.map((outcome) => `${runs.filter((j) => outcomeOf(j) === outcome).length} ${outcome}`).join(' · ');
  stdout.push(`Summary (${plural(runs.length, 'scenario')}): ${counts}`, pad(header, widths), ...rows.map((r) => pad(r, widths)), '');
  stdout.push(`Exit ${exitCode}: the highest exit code of the scenarios (${EXIT_MEANING[exitCode]}).`);
  return { stdout, stderr };
}

/** Many runs, one exit code: the highest, so a run that could not complete outranks bad input, which outranks a broken MUST. */
export function overallExit(runs: readonly Pick<Judged, 'exitCode'>[]): ExitCode {
  return runs.reduce<ExitCode>((worst, j) => (j.exitCode > worst ? j.exitCode : worst), 0);
}
