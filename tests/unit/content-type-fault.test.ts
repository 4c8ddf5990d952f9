/**
 * The 'content-type' wire fault on the real SDK (2026-07-28 Streamable HTTP): the wire carries
 * the server's answer head relabelled, the trace says what the server wrote, the server's own
 * bytes and states are untouched, the real client (@modelcontextprotocol/client 2.4.0) acts on
 * the label it got, and HTTP-RESPONSE-CONTENT-TYPE blames the server. The rule reference shows
 * the rule with its four revisions and the library scenario that breaks it.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { ruleById } from '../../src/rules/catalog.ts';
import { ruleView } from '../../src/report/rule-reference.ts';
import { wireCells } from '../../src/views/wire-cells.ts';
import { wireRows } from '../../src/views/wire-rows.ts';
import type { Scenario, WireFault } from '../../src/scenario/index.ts';
import type { FrameEvent, HandlerNote, TraceEvent } from '../../src/trace/index.ts';
import { call, scenario } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const relabel = (contentType: string, extra: Partial<WireFault> = {}): WireFault => ({ dir: 's2c', action: 'content-type', match: 'tools/call', contentType, ...extra });
const http2026 = (faults: WireFault[], steps = [call(100, 'A', 'quick')]): Scenario =>
  scenario(steps, { revision: '2026-07-28', transport: 'streamable-http', latency: { c2s: 20, s2c: 20 }, faults, endAt: 1000 });

const heads = (trace: readonly TraceEvent[]): FrameEvent[] => trace.filter((e): e is FrameEvent => e.kind === 'frame' && e.http?.part === 'response-head');
type Settled = Extract<HandlerNote, { type: 'call-settled' }>;
const settled = (trace: readonly TraceEvent[]): Settled[] => trace.flatMap((e) => (e.kind === 'handler' && e.note.type === 'call-settled' ? [e.note] : []));

describe('the content-type wire fault', () => {
  test('text/plain: the head is relabelled on the wire, the server still wrote its result, the client fails the call', async () => {
    const s = http2026([relabel('text/plain')]);
    const trace = await runHeadless(s, sides);
    const [discover, answer] = heads(trace);
    // Only the answer to tools/call matches; server/discover keeps its label.
    assert.equal(discover?.http?.headers?.['content-type'], 'application/json');
    assert.equal(discover?.fault, undefined);
    assert.equal(answer?.http?.headers?.['content-type'], 'text/plain');
    assert.match(answer?.raw ?? '', /\r\ncontent-type: text\/plain\r\n/);
    assert.equal(answer?.fault, 'retyped');
    assert.equal(answer?.retypedFrom, 'application/json');
    // The server's bytes are read as it wrote them: its result is on the wire, and its handler sent it.
    assert.ok(trace.some((e) => e.kind === 'frame' && e.dir === 's2c' && e.msg?.result !== undefined && e.msg.id === 0));
    assert.ok(trace.some((e) => e.kind === 'server-state' && e.to === 'response sent'));
    assert.deepEqual(
      settled(trace).map((n) => ({ ...n })),
      [{ type: 'call-settled', call: 'A', outcome: 'error', message: 'Unexpected content type: text/plain', code: 'CLIENT_HTTP_UNEXPECTED_CONTENT' }],
    );
    const findings = checkRun(s, trace).filter((f) => f.rule === 'HTTP-RESPONSE-CONTENT-TYPE');
    assert.deepEqual(
      findings.map((f) => [f.verdict, f.severity, f.why]),
      [
        ['satisfied', 'error', 'The server answered the POST of request "server-discover-probe-1" (frame 0) with Content-Type application/json.'],
        [
          'violated',
          'error',
          "The server answered the POST of request 0 (frame 4) with Content-Type text/plain, neither application/json nor text/event-stream. A wire fault relabelled the server's application/json: it stands for a server that labels its answer so.",
        ],
      ],
    );
    const cells = wireCells(wireRows(trace).find((r) => r.frame === answer?.frame) ?? assert.fail('the head has a row'));
    assert.deepEqual(
      cells.badges.map((b) => [b.text, b.title]),
      [['retyped', 'A wire fault the user set relabelled this head: the server wrote Content-Type application/json']],
    );
  });

  test('application/json over an SSE stream: the client reads no progress and fails on the body; the body breaks the clause', async () => {
    const s = http2026([relabel('application/json')], [call(100, 'A', 'slow_count', { steps: 2, stepMs: 100 })]);
    const trace = await runHeadless(s, sides);
    assert.equal(trace.filter((e) => e.kind === 'handler' && e.note.type === 'progress-received').length, 0);
    const [note] = settled(trace);
    assert.equal(note?.outcome, 'error');
    assert.match(note?.message ?? '', /is not valid JSON/);
    const finding = checkRun(s, trace).find((f) => f.rule === 'HTTP-RESPONSE-CONTENT-TYPE' && f.verdict !== 'satisfied');
    assert.equal(finding?.verdict, 'violated');
    assert.match(finding?.why ?? '', /with Content-Type application\/json, but its body is not JSON\. A wire fault relabelled the server's text\/event-stream/);
  });

  test('nth picks one answer; the label the server wrote already is no fault; without the fault the clause is satisfied', async () => {
    const steps = [call(100, 'A', 'quick'), call(200, 'B', 'quick'), call(300, 'C', 'quick')];
    const trace = await runHeadless(http2026([relabel('text/plain', { nth: 2 }), relabel('application/json')], steps), sides);
    assert.deepEqual(
      heads(trace).map((h) => [h.http?.headers?.['content-type'], h.fault ?? null]),
      [
        ['application/json', null],
        ['application/json', null],
        ['text/plain', 'retyped'],
        ['application/json', null],
      ],
    );
    assert.deepEqual(
      settled(trace).map((n) => [n.call, n.outcome]),
      [
        ['A', 'result'],
        ['B', 'error'],
        ['C', 'result'],
      ],
    );
    const clean = http2026([]);
    const findings = checkRun(clean, await runHeadless(clean, sides)).filter((f) => f.rule === 'HTTP-RESPONSE-CONTENT-TYPE');
    // The answers to server/discover and to tools/call.
    assert.deepEqual(findings.map((f) => f.verdict), ['satisfied', 'satisfied']);
  });

  test('the rule reference shows the rule on every Streamable HTTP revision, judged, with its library scenario', () => {
    const rule = ruleById('HTTP-RESPONSE-CONTENT-TYPE') ?? assert.fail('in the catalog');
    const view = ruleView(rule);
    assert.equal(view.notJudged, undefined);
    assert.deepEqual(view.keywords, { '2024-11-05': undefined, '2025-03-26': 'MUST', '2025-06-18': 'MUST', '2025-11-25': 'MUST', '2026-07-28': 'MUST' });
    assert.equal(view.violating?.id, 'content-type-2026-answer-labelled-text-plain');
    // The 2026 clause moved here: the stream rule no longer claims it.
    assert.equal(ruleById('HTTP-RESPONSE-ON-POST-STREAM')?.revisions['2026-07-28'], undefined);
  });
});
