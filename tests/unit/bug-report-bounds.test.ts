/**
 * The bug report on hand-built traces a real run rarely gives: one long enough to overflow a
 * GitHub issue, and ids and arguments written to break the Markdown. What is asserted is the
 * Markdown a maintainer pastes: its length, the note on what was left out, the table's columns.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GITHUB_BODY_LIMIT, bugReport } from '../../src/report/index.ts';
import { checkRun } from '../../src/rules/index.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { handshake, toolCall, traceBuilder, type TraceBuilder } from './fixtures/trace-builder.ts';

const scenario = defaultScenario();
const LINK = 'http://localhost:4321/playground/#v1.abc';

function report(trace: readonly TraceEvent[], link: string | null = LINK): string {
  return bugReport({ scenario, trace, findings: checkRun(scenario, trace), link, traceHash: '0123456789abcdef' });
}

/** A call that is cancelled, the cancel reaching the server, and answered anyway (CANCEL-NO-RESPONSE broken). */
function answeredAfterCancel(b: TraceBuilder, call: string, id: string | number, args: Record<string, unknown> = {}): void {
  toolCall(b, call, id, { token: `p-${call}`, params: { arguments: args } });
  b.deliver(b.progress('s2c', `p-${call}`, 1));
  b.stop(call);
  b.deliver(b.cancel('c2s', id, { reason: 'user stopped' }));
  b.deliver(b.result('s2c', id, { content: [{ type: 'text', text: 'done' }] }));
}

/** The JSON Lines inside the ```json blocks of the report, parsed. */
function shownEvents(md: string): TraceEvent[] {
  return [...md.matchAll(/```json\n([\s\S]*?)\n```/g)].flatMap((m) => (m[1] ?? '').split('\n').map((line) => JSON.parse(line) as TraceEvent));
}

/** The rows of the findings table, each split at its unescaped pipes. */
function tableRows(md: string): string[][] {
  const table = md.slice(md.indexOf('| severity |'), md.indexOf('#### Sequence'));
  return table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split(/(?<!\\)\|/).slice(1, -1));
}

describe('the bug report fits in a GitHub issue', () => {
  const b = traceBuilder();
  handshake(b);
  for (let i = 1; b.trace.length < 20_000; i++) answeredAfterCancel(b, `#${i}`, i);
  const trace = b.trace;

  test('a 20,000-event trace: under the limit, the head and the tail kept, a note counting what was left out', () => {
    const md = report(trace);
    assert.ok(trace.length >= 20_000);
    assert.ok(md.length <= GITHUB_BODY_LIMIT, `${md.length} characters`);
    const shown = shownEvents(md);
    const left = trace.length - shown.length;
    assert.ok(left > 0 && shown.length > 100, `${shown.length} events shown`);
    assert.ok(md.includes(`**${left} events (seq `), 'the note counts the events left out');
    assert.ok(md.includes('the link above replays the whole run'));
    assert.ok(md.includes(`<details><summary>Trace (JSON Lines): the first `));
    // The head starts at the handshake and the tail ends with the run's last event, whole events in order.
    assert.equal(shown[0]?.seq, 0);
    assert.equal(shown.at(-1)?.seq, trace.length - 1);
    assert.deepEqual(shown.map((e) => e.seq), [...shown.map((e) => e.seq)].sort((x, y) => x - y));
    // The diagram and the findings are still there, each cut to its own share.
    assert.ok(md.includes('```mermaid\nsequenceDiagram\n'));
    assert.ok(md.includes('  Note over Client,Server: … '), 'the diagram says it left out earlier messages');
    assert.match(md, /\n\| warning \| CANCEL-NO-RESPONSE — /);
  });

  test('without a permalink the note points to the downloaded trace instead', () => {
    const md = report(trace, null);
    assert.ok(md.length <= GITHUB_BODY_LIMIT);
    assert.ok(md.includes('“Download trace (JSON Lines)” has every event'));
    assert.ok(!md.includes('the link above'));
  });

  test('a short trace is given whole, with no note', () => {
    const small = traceBuilder();
    handshake(small);
    answeredAfterCancel(small, 'A', 1);
    const md = report(small.trace);
    assert.deepEqual(shownEvents(md).map((e) => e.seq), small.trace.map((e) => e.seq));
    assert.ok(md.includes('<details><summary>Trace (JSON Lines)</summary>'));
    assert.ok(!md.includes('were left out'));
  });

  test('one frame with a 300,000-character argument: still under the limit', () => {
    const huge = traceBuilder();
    handshake(huge);
    answeredAfterCancel(huge, 'A', 'x'.repeat(5_000), { text: '<b>'.repeat(100_000) });
    const md = report(huge.trace);
    assert.ok(md.length <= GITHUB_BODY_LIMIT, `${md.length} characters`);
    assert.ok(md.includes('were left out'));
  });
});

describe('the bug report escapes what the run carries', () => {
  const HOSTILE = '<img src=x onerror=alert(1)>';

  test('a forged request id with HTML reads as text in the findings table', () => {
    const b = traceBuilder();
    handshake(b);
    answeredAfterCancel(b, 'A', HOSTILE);
    const md = report(b.trace);
    const body = md.slice(0, md.indexOf('#### Sequence'));
    assert.ok(!body.includes('<img'), 'no raw tag before the code blocks');
    assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the id is shown, as entities');
    // In the code blocks the id is code, not markup: Mermaid entities and JSON.
    assert.ok(!/<img/i.test(md.slice(md.indexOf('```mermaid'), md.indexOf('<details>'))));
  });

  test('pipes, newlines, backticks and Markdown in an id keep the table to three columns', () => {
    const b = traceBuilder();
    handshake(b);
    answeredAfterCancel(b, 'A', 'a | b\n| c | `code` **bold** [x](http://evil.invalid)');
    const md = report(b.trace);
    const rows = tableRows(md);
    assert.ok(rows.length >= 3, 'a header, the separator and at least one finding');
    for (const row of rows) assert.equal(row.length, 3, row.join('|'));
    const finding = rows.find((r) => r[1]?.includes('CANCEL-NO-RESPONSE'));
    assert.ok(finding?.[2]?.includes('"a \\| b\\\\n\\| c \\| \\`code\\` \\*\\*bold\\*\\* \\[x\\](http://evil.invalid)"'), finding?.[2]);
  });

  test('HTML in every string a run carries (ids, reasons, error messages, a method, an unknown id) is text everywhere outside the code blocks', () => {
    const b = traceBuilder();
    handshake(b);
    answeredAfterCancel(b, 'A', HOSTILE, { note: HOSTILE });
    toolCall(b, 'B', 2, { token: 'p-B' });
    b.stop('B');
    b.deliver(b.cancel('c2s', 2, { reason: HOSTILE }));
    b.deliver(b.error('s2c', 2, -32000, HOSTILE));
    b.deliver(b.cancel('c2s', `${HOSTILE}-unknown`, { reason: HOSTILE }));
    b.deliver(b.notify('s2c', HOSTILE, { x: HOSTILE }));
    const md = report(b.trace);
    const prose = md.replace(/```[a-z]*\n[\s\S]*?\n```/g, '');
    assert.ok(!/<img/i.test(prose), 'no raw tag outside the code blocks');
    assert.ok(!/<(?!\/?(details|summary)>)/.test(prose), 'the only tags are the report’s own <details> and <summary>');
    assert.ok(tableRows(md).some((r) => r[2]?.includes('&lt;img')), 'the hostile id is shown, as entities');
  });

  test('the permalink is linked whole: characters a URL cannot hold are percent-encoded', () => {
    const b = traceBuilder();
    handshake(b);
    const md = report(b.trace, 'http://localhost:4321/playground/#v1.a<b> `c`|d');
    assert.ok(md.includes('**Replay it:** http://localhost:4321/playground/#v1.a%3Cb%3E%20%60c%60%7Cd\n'));
  });

  test('an open point a finding cites links to its section of the open-points page, on the permalink’s site', () => {
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1, { token: 'p-A' });
    b.stop('A');
    b.deliver(b.cancel('c2s', 1, { reason: 'first' }));
    b.deliver(b.cancel('c2s', 1, { reason: '<i>again</i>' }));
    const md = report(b.trace, 'https://lab.example/docs/playground/#v1.abc');
    const row = tableRows(md).find((r) => r[2]?.includes('U-9'));
    assert.ok(row, 'the duplicate cancel is listed, citing U-9');
    assert.ok(row[2]?.includes('[U-9](<https://lab.example/docs/reference/open-points/#u-9>)'), row[2]);
    assert.ok(!md.slice(0, md.indexOf('#### Sequence')).includes('<i>'));
    assert.ok(!report(b.trace, null).includes('/reference/open-points/'), 'without a site, the id stays text: a relative link means nothing in an issue');
  });
});
