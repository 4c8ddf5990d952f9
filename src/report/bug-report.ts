/**
 * The bug-report export: Markdown that renders on GitHub — the permalink, the versions, the
 * checker's findings (counted, and the notable ones listed, in the words of src/views/findings.ts),
 * a ```mermaid sequence diagram of the trace, and the trace itself in a collapsed block. Pure,
 * so the headless runner and the page give the same text.
 */
import { sequenceDiagram } from '../diagrams/index.ts';
import { ruleById, type Finding } from '../rules/index.ts';
import { CLIENT_PROFILE_INFO, ENGINE_VERSION, SDK_VERSION, SERVER_PROFILE_INFO, settingLine, type Scenario } from '../scenario/index.ts';
import { serializeTrace, type TraceEvent } from '../trace/index.ts';
import { findingLabel, findingNotes, findingSummary, findingTone } from '../views/index.ts';

export interface BugReportInput {
  scenario: Scenario;
  trace: readonly TraceEvent[];
  findings: readonly Finding[];
  /** The permalink that replays the run, or null when it was too long to share. */
  link: string | null;
  traceHash: string;
}

/** Markdown table cells cannot hold pipes or newlines. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function bugReport({ scenario, trace, findings, link, traceHash }: BugReportInput): string {
  const server = SERVER_PROFILE_INFO[scenario.serverProfile ?? 'ts-v2'];
  const client = CLIENT_PROFILE_INFO[scenario.clientProfile ?? 'ts-v2'];
  const summary = findingSummary(findings, scenario);
  const lines = [
    '### MCP cancellation trace (MCP Cancel Lab)',
    '',
    link ? `**Replay it:** ${link}` : '**Replay it:** the link was too long to share; attach the scenario file.',
    '',
    `- Setting: ${settingLine(scenario)}`,
    `- Server: ${server.label}; client: ${client.label}`,
    `- Engine ${ENGINE_VERSION}, @modelcontextprotocol/client and /server ${SDK_VERSION}; trace \`${traceHash}\` (${trace.length} events)`,
    '',
    '#### Findings',
    '',
    summary.text,
    '',
  ];
  if (summary.notable.length === 0) lines.push('No rule was violated, and no race the spec allows was seen.');
  else {
    lines.push('| severity | rule | why |', '| --- | --- | --- |');
    for (const f of summary.notable) {
      lines.push(`| ${findingTone(f)} | ${cell(`${f.rule} — ${ruleById(f.rule)?.name ?? ''}`)} | ${cell(`${findingLabel(f, scenario)}: ${f.why}`)} |`);
    }
  }
  lines.push(
    '',
    '#### Sequence',
    '',
    '```mermaid',
    sequenceDiagram(trace, { maxMessages: 150, findings: findingNotes(findings, scenario) }),
    '```',
    '',
    '<details><summary>Trace (JSON Lines)</summary>',
    '',
    '```json',
    serializeTrace(trace),
    '```',
    '',
    '</details>',
    '',
  );
  return lines.join('\n');
}
