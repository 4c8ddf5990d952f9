/**
 * The bug-report export: Markdown that renders on GitHub — the permalink, the versions, the
 * checker's findings (counted, and the notable ones listed, in the words of src/views/findings.ts),
 * a ```mermaid sequence diagram of the trace, and the trace itself in a collapsed block. Pure,
 * so the headless runner and the page give the same text.
 *
 * Two promises, whatever the trace holds:
 *   - the whole document fits in a GitHub issue body (GITHUB_BODY_LIMIT): the findings table,
 *     the diagram and the trace each get a share, and what does not fit is left out with a note
 *     saying how much and where the whole run is;
 *   - every string from the run (ids, tool arguments, error messages, the link) is escaped for
 *     where it lands, so it reads as text and never as Markdown or HTML (see "Escaping" below).
 */
import { sequenceDiagram } from '../diagrams/index.ts';
import { ruleById, type Finding } from '../rules/index.ts';
import { CLIENT_PROFILE_INFO, ENGINE_VERSION, SDK_VERSION, SERVER_PROFILE_INFO, settingLine, type Scenario } from '../scenario/index.ts';
import { serializeTrace, type TraceEvent } from '../trace/index.ts';
import { findingLabel, findingNotes, findingSummary, findingTone, type FindingNote } from '../views/index.ts';
import { linkOpenPoints } from './open-points.ts';

export interface BugReportInput {
  scenario: Scenario;
  trace: readonly TraceEvent[];
  findings: readonly Finding[];
  /** The permalink that replays the run, or null when it was too long to share. */
  link: string | null;
  traceHash: string;
}

/**
 * GitHub refuses an issue or comment body longer than this many characters. The report is
 * measured in UTF-16 code units (`String#length`), never fewer than the characters GitHub
 * counts, so a report within it is within GitHub's limit.
 */
export const GITHUB_BODY_LIMIT = 65_536;

/** The findings table's share of the body; rows past it are counted instead of listed. */
const FINDINGS_BUDGET = 12_000;
/** The diagram's share; past it the diagram keeps fewer of the newest messages. */
const DIAGRAM_BUDGET = 24_000;
/** The newest messages the diagram shows at most (the earlier ones are counted in a note). */
const DIAGRAM_MESSAGES = 150;
/**
 * The diagram's finding notes at most: those with the newest witnesses. A note whose witnesses
 * are all before the messages kept stands at the top, so a long run with a finding per call
 * would otherwise open its diagram with thousands of them.
 */
const DIAGRAM_NOTES = 24;
/** A finding's "why" is cut to this many characters before escaping: one forged id cannot fill the table. */
const WHY_LENGTH = 600;
/** Room kept for the trace block's own text (summary, note, fences) beside its events. */
const TRACE_FRAME = 600;
/** When the trace is cut, the head's share of its room; the tail gets the rest. */
const HEAD_SHARE = 0.25;

export function bugReport({ scenario, trace, findings, link, traceHash }: BugReportInput): string {
  const server = SERVER_PROFILE_INFO[scenario.serverProfile ?? 'ts-v2'];
  const client = CLIENT_PROFILE_INFO[scenario.clientProfile ?? 'ts-v2'];
  const summary = findingSummary(findings, scenario);
  const lines = [
    '### MCP cancellation trace (MCP Cancel Lab)',
    '',
    link ? `**Replay it:** ${urlText(link)}` : '**Replay it:** the link was too long to share; attach the scenario file.',
    '',
    `- Setting: ${markdownText(settingLine(scenario))}`,
    `- Server: ${markdownText(server.label)}; client: ${markdownText(client.label)}`,
    `- Engine ${markdownText(ENGINE_VERSION)}, @modelcontextprotocol/client and /server ${markdownText(SDK_VERSION)}; trace ${inlineCode(traceHash)} (${trace.length} events)`,
    '',
    '#### Findings',
    '',
    markdownText(summary.text),
    '',
  ];
  if (summary.notable.length === 0) lines.push('No rule was violated, and no race the spec allows was seen.');
  else lines.push(...findingsTable(summary.notable, scenario, siteOf(link)));
  const diagram = boundedDiagram(trace, findingNotes(findings, scenario));
  lines.push('', '#### Sequence', '');
  if (diagram === null) lines.push('The sequence diagram would not fit in an issue; replay the run to see it.');
  // Mermaid text cannot hold a backtick (mermaidText writes it as an entity), so three close nothing early.
  else lines.push('```mermaid', diagram, '```');
  lines.push('');
  const before = lines.join('\n');
  const room = GITHUB_BODY_LIMIT - before.length - 1 - TRACE_FRAME;
  return `${before}\n${traceBlock(trace, room, link !== null).join('\n')}\n`;
}

/**
 * The site's address, read off the permalink (everything before /playground/), for the links to
 * the open points; null without an http(s) link, since a relative link means nothing in an issue.
 */
function siteOf(link: string | null): string | null {
  if (link === null || !/^https?:\/\//.test(link)) return null;
  const at = link.indexOf('/playground/');
  return at > 0 ? link.slice(0, at) : new URL(link).origin;
}

/** The notable findings as a table, as many rows as fit in FINDINGS_BUDGET and a count of the rest; each open point a why cites links to its section. */
function findingsTable(notable: readonly Finding[], scenario: Scenario, site: string | null): string[] {
  const rows = ['| severity | rule | why |', '| --- | --- | --- |'];
  let used = rows.join('\n').length;
  for (const [i, f] of notable.entries()) {
    const why = clip(`${findingLabel(f, scenario)}: ${f.why}`, WHY_LENGTH);
    const whyText = site === null ? markdownText(why) : linkOpenPoints(markdownText(why), (id, href) => `[${id}](<${urlText(href)}>)`, site);
    const row = `| ${markdownText(findingTone(f))} | ${markdownText(`${f.rule} — ${ruleById(f.rule)?.name ?? ''}`)} | ${whyText} |`;
    if (used + 1 + row.length > FINDINGS_BUDGET) {
      rows.push('', `… and ${notable.length - i} more notable findings, left out to fit in an issue; replay the run to see them.`);
      break;
    }
    rows.push(row);
    used += 1 + row.length;
  }
  return rows;
}

/** The diagram with the newest DIAGRAM_MESSAGES messages and DIAGRAM_NOTES finding notes, fewer messages while it is over its budget; null if even none fit. */
function boundedDiagram(trace: readonly TraceEvent[], findings: readonly FindingNote[]): string | null {
  const newest = new Set([...findings].sort((a, b) => lastWitness(b) - lastWitness(a)).slice(0, DIAGRAM_NOTES));
  const notes = findings.filter((f) => newest.has(f));
  for (let max = DIAGRAM_MESSAGES; ; max = Math.floor(max / 2)) {
    const text = sequenceDiagram(trace, { maxMessages: max, findings: notes }).trimEnd();
    if (text.length <= DIAGRAM_BUDGET) return text;
    if (max === 0) return null;
  }
}

function lastWitness(f: FindingNote): number {
  return Math.max(-1, ...f.witnesses);
}

/**
 * The trace as JSON Lines in a collapsed block, within `room` characters of events. A trace
 * that does not fit keeps its head and its tail, each a block of whole events that still parses
 * as JSON Lines: the head holds the handshake (the revision, capabilities and server the run
 * negotiated, which say which code paths ran), the tail the newest events, where the calls that
 * were stopped end and where the diagram looks too; the middle of a long run is mostly more of
 * the same calls and progress. The permalink (or the downloaded trace) has every event.
 */
function traceBlock(trace: readonly TraceEvent[], room: number, hasLink: boolean): string[] {
  // One event per line: canonical JSON writes a newline in a string as `\n`. A line starts with
  // `{`, so no line can close the fence, whatever backticks the events hold.
  const events = trace.length === 0 ? [] : serializeTrace(trace).split('\n');
  const cost = (line: string): number => line.length + 1;
  const total = events.reduce((sum, line) => sum + cost(line), 0);
  if (total <= room) {
    return ['<details><summary>Trace (JSON Lines)</summary>', '', '```json', ...events, '```', '', '</details>', ''];
  }
  let used = 0;
  let head = 0;
  while (head < events.length && used + cost(events[head] ?? '') <= room * HEAD_SHARE) used += cost(events[head++] ?? '');
  let tail = events.length;
  while (tail > head && used + cost(events[tail - 1] ?? '') <= room) used += cost(events[--tail] ?? '');
  const left = tail - head;
  const first = trace[head]?.seq ?? head;
  const last = trace[tail - 1]?.seq ?? tail - 1;
  const whole = hasLink ? 'the link above replays the whole run' : 'the Share tab’s “Download trace (JSON Lines)” has every event';
  const summary = `Trace (JSON Lines): the first ${head} and the last ${events.length - tail} of ${events.length} events`;
  return [
    `<details><summary>${htmlText(summary)}</summary>`,
    '',
    `**${left} events (seq ${first} to ${last}) were left out** to keep this report under GitHub’s ${GITHUB_BODY_LIMIT}-character limit; ${whole}.`,
    '',
    ...(head > 0 ? ['```json', ...events.slice(0, head), '```', '', `… ${left} events left out …`, ''] : []),
    ...(tail < events.length ? ['```json', ...events.slice(tail), '```', ''] : []),
    '</details>',
    '',
  ];
}

// Escaping. Each context gets the smallest well-known rule that makes any string literal text:
//   - HTML (the <summary>): the five entities of the HTML spec's own serialisation (& < > " ');
//   - Markdown text (list items, table cells): CommonMark's backslash escape for the ASCII
//     punctuation that starts inline syntax (emphasis, code, links, strikethrough, pipes), and
//     entities for `&`, `<` and `>`, which could start raw HTML, an autolink or an entity;
//     line breaks become spaces, since every value sits on one line (a table row in a cell);
//   - inline code: CommonMark's rule, a backtick fence longer than any run inside;
//   - the permalink: percent-encoding of anything a URL cannot hold, so GitHub links it whole.

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function htmlText(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}

/** Markdown text on one line; its `|` escaped too, so in a GFM table cell the row keeps its columns. */
function markdownText(s: string): string {
  return s
    .replace(/[\\`*_[\]~|]/g, '\\$&')
    .replace(/[&<>]/g, (ch) => HTML_ENTITIES[ch] ?? ch)
    .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ');
}

function inlineCode(s: string): string {
  const flat = s.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A space on each side when the text starts or ends with a backtick; CommonMark strips one of each.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function urlText(url: string): string {
  return url.replace(/[^A-Za-z0-9._~:/?#[\]@!$&'()*+,;=%-]/gu, (ch) => encodeURIComponent(ch));
}

/** Cuts text to `max` characters (code points, so no pair is split), with an ellipsis. */
function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}
