/**
 * What the runner prints, per format:
 *   text    one scenario: setting, trace, findings; many: their findings and a summary table;
 *   json    JSON Lines: one scenario's trace events, then {"findings", "exitCode", …}; many:
 *           that last line per scenario (with "scenario"), then {"exitCode", "scenarios"};
 *   checks  the conformance suite's checks.json: one scenario's array of checks; many: the
 *           suite's own list of results, [{"scenario", "checks"}] (as its runner holds them,
 *           https://github.com/modelcontextprotocol/conformance/blob/c321dd32035556e6769d3724a8ee97d87c3faaac/src/index.ts#L117-L121);
 *   junit   JUnit XML, a testsuite per scenario;
 *   sarif   SARIF 2.1.0, one run, for GitHub code scanning.
 * Problems go to stderr as `cancel-lab: …` lines in every format.
 */
import { serializeTrace } from '../trace/index.ts';
import { reproduction } from '../views/index.ts';
import { outcomeChecks, toJunitXml, toSarif, type RunOutcome } from '../report/index.ts';
import { PROBLEM_EXIT, type Judged } from './judge.ts';
import { manyText, overallExit, singleText, type Printed } from './text.ts';

export const FORMATS = ['text', 'json', 'checks', 'junit', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

export interface OutputOptions {
  format: Format;
  /** Text: list every finding, not only the notable ones. */
  allFindings?: boolean;
  /** The site's address, for the open-points links. */
  site?: string;
  /** Checks: one `{ scenario, checks }` entry per run, for one run too. */
  grouped?: boolean;
}

export function toOutcome(j: Judged): RunOutcome {
  return {
    name: j.input,
    ...(j.at !== undefined && { at: j.at }),
    setting: j.scenario && j.revision ? { revision: j.revision, transport: j.scenario.transport } : null,
    findings: j.findings,
    problem: j.problem ? { kind: j.problem.kind, message: j.problem.message, exitCode: PROBLEM_EXIT[j.problem.kind] as 1 | 2 | 3 } : null,
    exitCode: j.exitCode,
    timestamp: j.startedAt,
  };
}

/** The last JSON line of a run: its findings, exit code, hash, and what went wrong. */
function resultLine(j: Judged, many: boolean): string {
  return JSON.stringify({
    ...(many && { scenario: j.input }),
    findings: j.findings,
    exitCode: j.exitCode,
    ...(j.traceHash !== null && { traceHash: j.traceHash }),
    ...(j.revision !== null && j.scenario !== null && j.revision !== j.scenario.revision && { judgedRevision: j.revision }),
    ...(j.reproduction && { reproduction: j.reproduction }),
    ...(j.problem && { error: j.problem.message }),
  });
}

function problemLines(runs: readonly Judged[]): string[] {
  return runs.flatMap((j) => (j.problem && j.problem.kind !== 'not-connected' ? [`cancel-lab: ${runs.length > 1 ? `${j.input}: ` : ''}${j.problem.message}`] : []));
}

function json(runs: readonly Judged[]): Printed {
  const only = runs.length === 1 ? runs[0] : undefined;
  if (only !== undefined) {
    const stdout = only.trace.length > 0 ? serializeTrace(only.trace).split('\n') : [];
    stdout.push(resultLine(only, false));
    const verdict = only.recorded && only.traceHash !== null ? [`cancel-lab: ${reproduction(only.recorded, only.traceHash).text}`] : [];
    return { stdout, stderr: [...verdict, ...problemLines(runs)] };
  }
  return { stdout: [...runs.map((j) => resultLine(j, true)), JSON.stringify({ exitCode: overallExit(runs), scenarios: runs.length })], stderr: problemLines(runs) };
}

export function render(runs: readonly Judged[], options: OutputOptions): Printed {
  const site = options.site !== undefined ? { site: options.site } : {};
  switch (options.format) {
    case 'text': {
      const only = runs.length === 1 ? runs[0] : undefined;
      return only !== undefined ? singleText(only, options.allFindings === true, options.site) : manyText(runs, options.site);
    }
    case 'json':
      return json(runs);
    case 'checks': {
      const results = runs.map((j) => ({ scenario: j.input, checks: outcomeChecks(toOutcome(j), site) }));
      const value = results.length === 1 && options.grouped !== true ? results[0]?.checks : results;
      return { stdout: JSON.stringify(value, null, 2).split('\n'), stderr: problemLines(runs) };
    }
    case 'junit':
      return { stdout: toJunitXml(runs.map(toOutcome), site).trimEnd().split('\n'), stderr: problemLines(runs) };
    case 'sarif':
      return { stdout: JSON.stringify(toSarif(runs.map(toOutcome), site), null, 2).split('\n'), stderr: problemLines(runs) };
  }
}
