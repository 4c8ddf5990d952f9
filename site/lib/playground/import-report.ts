/**
 * The bug report while an imported trace is shown: the report of the trace the reporter brought
 * (its findings, diagram and events), saying where it came from, with the permalink of the lab
 * scenario made from it (and how closely that scenario's run matches it) once one is made. The
 * report itself is src/report's; this names the import in the setting lines it gives a run.
 */
import { GITHUB_BODY_LIMIT, bugReport } from '../../../src/report/index.ts';
import { checkRun } from '../../../src/rules/index.ts';
import { CLIENT_PROFILE_INFO, MAX_LINK_LENGTH, SERVER_PROFILE_INFO, defaultScenario, matchSummary, permalinkOf, type Scenario, type TraceMatch } from '../../../src/scenario/index.ts';
import { FORMAT_LABEL, traceHash, type TraceEvent } from '../../../src/trace/index.ts';
import { nextTask } from '../next-task.ts';
import type { ImportedTrace } from './panels/import.ts';

export interface MadeRun {
  scenario: Scenario;
  trace: readonly TraceEvent[];
  match: TraceMatch;
}

/** Words from the user (a file name) as Markdown text: no markup, no HTML. */
function plain(text: string): string {
  const clipped = text.length > 100 ? `${text.slice(0, 100)}…` : text;
  return clipped.replace(/[\\`*_{}[\]()#+!|~>-]/g, (c) => `\\${c}`).replace(/</g, '&lt;').replace(/&(?!lt;)/g, '&amp;');
}

export async function importReport(source: ImportedTrace, made: MadeRun | null, page: string): Promise<string> {
  const judged: Scenario = { ...defaultScenario(), revision: source.revision, transport: source.transport, endAt: source.trace.at(-1)?.t ?? 0 };
  const hash = await traceHash(source.trace, nextTask);
  const url = made ? `${page}#${await permalinkOf(made.scenario, await traceHash(made.trace, nextTask))}` : null;
  const link = url !== null && url.length <= MAX_LINK_LENGTH ? url : null;
  const markdown = bugReport({ scenario: made?.scenario ?? judged, trace: source.trace, findings: checkRun(judged, source.trace), link, traceHash: hash });
  const captured = `- Captured outside the lab: ${plain(source.name)} (${FORMAT_LABEL[source.format]}); the findings, the sequence and the trace below are that capture's, judged from what crossed the wire.`;
  const closest = made
    ? `- The link replays the lab scenario made from it, with the closest lab profiles (server: ${SERVER_PROFILE_INFO[made.scenario.serverProfile ?? 'ts-v2'].label}; client: ${CLIENT_PROFILE_INFO[made.scenario.clientProfile ?? 'ts-v2'].label}); its run against the capture: ${matchSummary(made.match)}`
    : null;
  const lines = markdown.split('\n').flatMap((line) => {
    if (line.startsWith('- Server: ')) return closest ? [captured, closest] : [captured];
    if (line.startsWith('**Replay it:**') && url === null) return ['**Replay it:** no lab scenario has been made from this trace yet (Share → Import → Make a scenario from this trace).'];
    return [line];
  });
  const out = lines.join('\n');
  // The report is sized to fit an issue; the lines named here are a few hundred characters more at most.
  return out.length <= GITHUB_BODY_LIMIT ? out : markdown;
}
