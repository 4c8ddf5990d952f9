/**
 * `cancel-lab check <file> --scenario out.json`: the checked trace made into a lab scenario
 * (src/scenario/from-trace.ts), written to a file, run on the real SDK, and compared with the
 * import frame by frame; what it prints is the scenario's notes, the match and its permalink, so
 * a reporter's log becomes a link a maintainer replays. It is a flag of `check` rather than a
 * command of its own: it needs the same import, format and setting flags, and the verdict of the
 * same trace.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { haltOf } from '../engine/index.ts';
import { createNodeSides, runHeadless } from '../host/index.ts';
import { matchSummary, matchTraces, permalinkOf, scenarioFromTrace, type Scenario, type TraceMatch } from '../scenario/index.ts';
import { plural, traceHash } from '../trace/index.ts';
import type { CheckedTrace } from './check.ts';

export interface MadeFromTrace {
  ok: boolean;
  /** 2: it could not be made or written; 3: its run did not complete. */
  exitCode?: 2 | 3;
  lines: string[];
  scenario?: Scenario;
  match?: TraceMatch;
  link?: string;
}

/** The playground's address on a site, for a permalink. */
function playground(site: string | undefined, link: string): string {
  return site === undefined ? `#${link}` : `${site.replace(/\/+$/, '')}/playground/#${link}`;
}

export async function scenarioFromChecked(c: CheckedTrace, out: string, opts: { cwd?: string; site?: string } = {}): Promise<MadeFromTrace> {
  if (c.setting === null) return { ok: false, exitCode: 2, lines: ['No scenario was made: the trace did not import.'] };
  const made = scenarioFromTrace({ trace: c.trace, revision: c.setting.revision, transport: c.setting.transport });
  if (!made.ok) return { ok: false, exitCode: 2, lines: [made.error] };
  const path = resolve(opts.cwd ?? process.cwd(), out);
  try {
    await writeFile(path, `${JSON.stringify(made.scenario, null, 2)}\n`);
  } catch (error) {
    return { ok: false, exitCode: 2, lines: [`Cannot write ${out}: ${error instanceof Error ? error.message : String(error)}.`] };
  }
  const sides = createNodeSides();
  let run;
  try {
    run = await runHeadless(made.scenario, sides);
  } finally {
    await sides.close();
  }
  const halt = haltOf(run);
  const match = matchTraces(c.trace, run, { untimedChunks: c.format === 'har' });
  const link = await permalinkOf(made.scenario, await traceHash(run));
  const lines = [
    `Scenario written to ${out}: ${plural(made.scenario.steps.length, 'step')}, ${made.scenario.revision} on ${made.scenario.transport}.`,
    ...made.notes.map((n) => `  ${n}`),
    `Its run against the trace: ${matchSummary(match)}`,
    ...match.rows.filter((r) => r.status !== 'matched').map((r) => `  ${r.status === 'missing' ? 'missing' : 'differs'}  frame ${r.frame}: ${r.what}${r.how ? ` — ${r.how}` : ''}`),
    ...match.extra.map((e) => `  extra    run frame ${e.frame}: ${e.what}`),
    `Replay it: ${playground(opts.site, link)}`,
    ...(halt ? [`The scenario's run stopped early: ${halt.message}`] : []),
  ];
  return { ok: halt === null, ...(halt && { exitCode: 3 as const }), lines, scenario: made.scenario, match, link };
}
