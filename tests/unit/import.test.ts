/**
 * The importers, on the samples in tests/fixtures/import/ (real runs written in each format's
 * documented shape, and exports the MCP Inspector made itself; see the README there) and on broken input: the trace each gives, the
 * setting it shows, how its deliveries are placed, and the verdict the checker gives it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkRun } from '../../src/rules/index.ts';
import { detectFormat, importTrace, MAX_IMPORT_LINES, serializeTrace, type FrameEvent, type Imported, type TraceEvent } from '../../src/trace/index.ts';
import { statusOf } from '../../src/report/checks-json.ts';
import { checkTraceFile } from '../../src/cli/check.ts';
import { findingLabel } from '../../src/views/index.ts';
import type { InspectorEntry } from '../fixtures/import/inspector-entry.ts';

const sample = (name: string): string => readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url), 'utf8');

function ok(result: Imported): Extract<Imported, { ok: true }> {
  if (!result.ok) assert.fail(result.error);
  return result;
}

const frames = (trace: readonly TraceEvent[]): FrameEvent[] => trace.filter((e): e is FrameEvent => e.kind === 'frame');
const methods = (trace: readonly TraceEvent[]): string[] => frames(trace).map((f) => f.msg?.method ?? (f.msg ? `response ${String(f.msg.id)}` : f.http?.part ?? 'not JSON'));
const lab = (name: string): TraceEvent[] => ok(importTrace(sample(name))).trace;

describe('the lab’s own JSON Lines trace', () => {
  test('reads back exactly what serializeTrace wrote, judged as the lab’s own (no outside marker)', () => {
    const text = sample('lab-python-v1-code-0.jsonl');
    const r = ok(importTrace(text));
    assert.equal(r.format, 'lab');
    assert.equal(`${serializeTrace(r.trace)}\n`, text);
    assert.deepEqual([r.revision, r.transport], ['2025-11-25', 'stdio']);
    assert.ok(!r.trace.some((e) => e.kind === 'observed'));
  });
  test('skips the result line `run --format json` ends with', () => {
    const text = `${sample('lab-python-v1-code-0.jsonl')}{"findings":[],"exitCode":0}\n`;
    assert.equal(ok(importTrace(text)).trace.length, lab('lab-python-v1-code-0.jsonl').length);
  });
  test('names the line that is not an event, and a gap in the sequence', () => {
    const lines = sample('lab-python-v1-code-0.jsonl').split('\n');
    const broken = importTrace([...lines.slice(0, 2), '{"kind":"frame","seq":2,"t":5}', ...lines.slice(3)].join('\n'));
    assert.equal(broken.ok, false);
    assert.match(broken.ok ? '' : broken.error, /Cancel Lab's JSON Lines trace: line 3 is not a trace event/);
    const gap = importTrace([lines[0], lines[2]].join('\n'), 'lab');
    assert.match(gap.ok ? '' : gap.error, /line 2 has seq 2 where 1 comes next/);
  });
});

describe('mcpsnoop’s session log', () => {
  test('each envelope is a frame in order, the meta envelope a note, and the setting comes from the handshake', () => {
    const r = ok(importTrace(sample('mcpsnoop-second-response.jsonl')));
    assert.equal(r.format, 'mcpsnoop');
    assert.deepEqual([r.revision, r.transport], ['2025-11-25', 'stdio']);
    assert.equal(r.trace[0]?.kind, 'observed');
    assert.ok(r.trace.some((e) => e.kind === 'observed' && e.what === 'note' && e.text.includes('server command cancel-lab server')));
    assert.deepEqual(methods(r.trace).slice(0, 4), ['initialize', 'response 0', 'notifications/initialized', 'tools/call']);
  });
  test('stderr lines become notes; a text frame is a frame with no message; an HTTP envelope gives the version', () => {
    const env = (seq: number, ms: number, body: object) => JSON.stringify({ session_id: 's', server_label: 'x', seq, ts: `2026-12-01T13:00:00.${String(ms).padStart(3, '0')}Z`, ...body });
    const text = [
      env(0, 0, { direction: 'c2s', transport: 'http', mcp_protocol_version: '2025-06-18', raw: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } } }),
      env(1, 5, { direction: 'stderr', transport: 'http', text: 'Traceback (most recent call last):' }),
      env(2, 9, { direction: 's2c', transport: 'http', text: 'garbage', status: 500 }),
    ].join('\n');
    const r = ok(importTrace(text));
    assert.deepEqual([r.revision, r.transport], ['2025-06-18', 'streamable-http']);
    assert.deepEqual(
      r.trace.filter((e) => e.kind !== 'delivery').map((e) => (e.kind === 'frame' ? `${e.t} ${e.dir} ${e.msg ? 'msg' : e.raw.trim()}` : e.kind === 'observed' ? `${e.t} ${e.text}` : e.kind)),
      ['0 ' + (r.trace[0]?.kind === 'observed' ? r.trace[0].text : ''), '0 c2s msg', '5 server stderr: Traceback (most recent call last):', '9 s2c garbage', '9 HTTP status 500 on that response'],
    );
  });
  test('names the line that fails', () => {
    const lines = sample('mcpsnoop-r2-clean.jsonl').split('\n');
    const r = importTrace([lines[0], lines[1]?.replace(/"ts":"[^"]*",/, ''), ...lines.slice(2)].join('\n'));
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.error, 'Not mcpsnoop\'s JSONL session log: line 2 has no RFC 3339 "ts".');
  });
});

describe('the MCP Inspector’s protocol log', () => {
  test('a response folded into its request comes `duration` ms later from the server; no transport is recorded', () => {
    const r = ok(importTrace(sample('inspector-python-v1-code-0.json')));
    assert.equal(r.format, 'inspector');
    assert.equal(r.revision, '2025-11-25');
    assert.equal(r.transport, undefined);
    const entries: { timestamp: string; duration?: number; message: { method?: string } }[] = JSON.parse(sample('inspector-python-v1-code-0.json'));
    const call = entries.find((e) => e.message.method === 'tools/call' && e.duration !== undefined);
    assert.ok(call?.duration !== undefined);
    const fs = frames(r.trace);
    const request = fs.find((f) => f.msg?.method === 'tools/call');
    const response = fs.find((f) => f.dir === 's2c' && f.msg?.id === request?.msg?.id && f.msg?.method === undefined);
    assert.equal((response?.t ?? 0) - (request?.t ?? 0), call.duration);
  });
  test('an entry without a message is named; a JSON array of something else is no format', () => {
    const entries: unknown[] = JSON.parse(sample('inspector-python-v1-code-0.json'));
    entries[1] = { id: 'x', timestamp: '2026-12-01T13:00:00.000Z', direction: 'request' };
    const text = JSON.stringify(entries);
    assert.equal(detectFormat(text), 'inspector');
    const r = importTrace(text);
    assert.equal(r.ok ? '' : r.error, 'Not the MCP Inspector\'s protocol log export: entry 1 has no "message" object.');
    const other = importTrace('[1, 2, 3]');
    assert.deepEqual(other.ok ? null : [other.format, other.error.slice(0, 15)], [null, 'Unknown format:']);
  });
  test('a stdio log cut off mid-line keeps that line as a note, not a frame that breaks STDIO-FRAMING; a clock that steps back is said once, where it does', () => {
    const cut = importTrace('[+ 0ms] C: {"jsonrpc":"2.0","id":1,"method":"ping"}\n[+ 5ms] S: {"jsonrpc":"2.0","id":1,"result":{}}\n[+ 9ms] C: {"jsonrpc":"2.0","meth');
    assert.ok(cut.ok);
    assert.equal(frames(cut.trace).length, 2);
    const notes = cut.trace.filter((e) => e.kind === 'observed' && e.what === 'note').map((e) => (e.kind === 'observed' ? e.text : ''));
    assert.deepEqual(notes, ['The log ends in the middle of this line, cut short: it is no frame of the wire. [+ 9ms] C: {"jsonrpc":"2.0","meth']);
    const framing = checkRun({ revision: '2025-11-25', transport: 'stdio' }, cut.trace).find((f) => f.rule === 'STDIO-FRAMING');
    assert.notEqual(framing?.verdict, 'violated');
    // The same line with its newline is a whole line the program wrote: a frame, and not JSON-RPC.
    const whole = importTrace('[+ 0ms] C: {"jsonrpc":"2.0","id":1,"method":"ping"}\n[+ 9ms] C: {"jsonrpc":"2.0","meth\n');
    assert.equal(whole.ok ? frames(whole.trace).length : 0, 2);

    const back = importTrace(['[+ 100ms] C: {"jsonrpc":"2.0","id":1,"method":"ping"}', '[+ 40ms] S: {"jsonrpc":"2.0","id":1,"result":{}}', '[+ 30ms] C: {"jsonrpc":"2.0","id":2,"method":"ping"}', ''].join('\n'));
    assert.ok(back.ok);
    const said = back.trace.filter((e) => e.kind === 'observed' && e.what === 'note');
    assert.deepEqual(said.map((e) => [e.t, e.kind === 'observed' ? e.text : '']), [[0, "The log's clock goes back 60 ms here: from here on, a line stamped earlier than the one before it is kept at that one's time, in the log's order."]]);
    assert.deepEqual(frames(back.trace).map((f) => f.t), [0, 0, 0]);
  });

  test('an export cut short is still known by how it begins, and its error says where the JSON broke', () => {
    const inspector = importTrace(sample('inspector-python-v1-code-0.json').slice(0, 700));
    assert.deepEqual(inspector.ok ? null : [inspector.format, /^Not the MCP Inspector's protocol log export: the file is not JSON \(.* at position 700/.test(inspector.error)], ['inspector', true]);
    const har = importTrace(sample('har-streamable-http-lost-cancel.har').slice(0, 500));
    assert.deepEqual(har.ok ? null : [har.format, /^Not a HAR 1\.2 capture of an HTTP session: the file is not JSON \(.* at position 500/.test(har.error)], ['har', true]);
  });
});

/** The frames an Inspector export holds, as `ms dir what`: each entry at its timestamp, a folded answer `duration` ms later. */
function inspectorFrames(name: string): string[] {
  const entries: InspectorEntry[] = JSON.parse(sample(name));
  const t0 = Date.parse(entries[0]?.timestamp ?? '');
  const seen = entries.flatMap((e) => {
    const at = Date.parse(e.timestamp) - t0;
    const dir = e.origin === 'server' ? 's2c' : 'c2s';
    const sent = { at, line: `${dir} ${e.message.method ?? `response ${String(e.message.id)}`}` };
    return e.response ? [sent, { at: at + (e.duration ?? 0), line: `${dir === 'c2s' ? 's2c' : 'c2s'} response ${String(e.message.id)}` }] : [sent];
  });
  return seen.sort((a, b) => a.at - b.at).map((s) => `${s.at} ${s.line}`);
}

describe('the MCP Inspector’s own export (its web UI’s Export, captured by capture/capture-inspector.ts)', () => {
  const check = (name: string) => checkTraceFile(`tests/fixtures/import/${name}`, { cwd: new URL('../../', import.meta.url).pathname, transport: 'stdio' });
  const verdicts = async (name: string, rule: string) => {
    const c = await check(name);
    const setting = c.setting;
    return setting ? c.findings.filter((f) => f.rule === rule).map((f) => `${findingLabel(f, setting)}: ${f.why}`) : [];
  };

  test('the SDK v2 server: detected, each entry a frame at its time from its origin, the cancelled call never answered', () => {
    const text = sample('inspector-sdk-v2-stdio.json');
    assert.equal(detectFormat(text), 'inspector');
    const r = ok(importTrace(text));
    assert.deepEqual([r.format, r.revision, r.transport], ['inspector', '2025-11-25', undefined]);
    const fs = frames(r.trace);
    assert.deepEqual(fs.map((f) => `${f.t} ${f.dir} ${f.msg?.method ?? `response ${String(f.msg?.id)}`}`), inspectorFrames('inspector-sdk-v2-stdio.json'));
    assert.deepEqual(methods(r.trace), ['initialize', 'response 0', 'notifications/initialized', 'tools/list', 'response 1', 'tools/call', 'notifications/cancelled', 'tools/call', 'response 3']);
    const cancel = fs.find((f) => f.msg?.method === 'notifications/cancelled');
    assert.deepEqual(cancel?.msg?.params, { requestId: 2, reason: 'Tool call cancelled by user' });
    assert.ok(!fs.some((f) => f.dir === 's2c' && f.msg?.id === 2), 'no answer to the cancelled call');
    // The Inspector stamps each message where its client saw it: its server frames are arrivals.
    const source = r.trace[0];
    assert.equal(source?.kind === 'observed' ? source.seenAt : undefined, 'client');
  });

  test('the SDK v2 server: cancel-lab check --transport stdio passes, its cancel in flight unanswered', async () => {
    const c = await check('inspector-sdk-v2-stdio.json');
    assert.deepEqual([c.problem, c.format, c.exitCode], [null, 'inspector', 0]);
    assert.deepEqual(c.setting, { revision: '2025-11-25', transport: 'stdio', from: { revision: 'the trace', transport: 'the flag' } });
    assert.deepEqual(await verdicts('inspector-sdk-v2-stdio.json', 'CANCEL-NO-RESPONSE'), ['satisfied: The server sent no response to request 2 after the cancel (frame 6) reached it.']);
    assert.match((await verdicts('inspector-sdk-v2-stdio.json', 'CANCEL-RECV-STOP'))[0] ?? '', /^can’t tell: Can’t tell from this trace/);
  });

  test('the python-1.x-like server: its code-0 answer to the cancel is folded into the call; from the client’s log it may have crossed the cancel (R2)', async () => {
    const r = ok(importTrace(sample('inspector-py-v1-like-stdio.json')));
    assert.deepEqual(frames(r.trace).map((f) => `${f.t} ${f.dir} ${f.msg?.method ?? `response ${String(f.msg?.id)}`}`), inspectorFrames('inspector-py-v1-like-stdio.json'));
    const error = frames(r.trace).find((f) => f.dir === 's2c' && f.msg?.id === 2);
    assert.deepEqual(error?.msg?.error, { code: 0, message: 'Request cancelled' });
    const c = await check('inspector-py-v1-like-stdio.json');
    assert.equal(c.exitCode, 0);
    assert.deepEqual(await verdicts('inspector-py-v1-like-stdio.json', 'CANCEL-NO-RESPONSE'), ['allowed race: The response to request 2 (frame 7) was written before the cancel (frame 6) reached the server: a race the spec allows (R2).']);
  });

  test('a clientError (the Inspector refused a well-formed answer) is a note where the answer came', () => {
    const entries: InspectorEntry[] = JSON.parse(sample('inspector-sdk-v2-stdio.json'));
    const list = entries.find((e) => e.message.method === 'tools/list');
    assert.ok(list);
    list.clientError = 'Invalid tools/list result: ttlMs is required';
    const trace = ok(importTrace(JSON.stringify(entries))).trace;
    const at = Date.parse(list.timestamp) - Date.parse(entries[0]?.timestamp ?? '') + (list.duration ?? 0);
    const shown = trace.filter((e) => e.kind !== 'delivery');
    const i = shown.findIndex((e) => e.kind === 'observed' && e.what === 'note');
    const note = shown[i];
    assert.deepEqual(note?.kind === 'observed' ? [note.t, note.text] : null, [at, 'The Inspector refused the answer to tools/list (id 1): Invalid tools/list result: ttlMs is required']);
    const before = shown[i - 1];
    assert.ok(before?.kind === 'frame' && before.msg?.id === 1 && before.dir === 's2c', 'right after the answer it refused');
  });
});

describe('a plain stdio log', () => {
  test('every marker style, ISO and relative times, and notes kept in order', () => {
    const text = [
      'starting server…',
      '2026-12-01T13:00:00.000Z --> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}',
      '[2026-12-01T13:00:00.010Z] <-- {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
      '> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
      'S: this is not JSON',
      '< {"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"Request cancelled"}}',
      '[+ 30ms] C: {"jsonrpc":"2.0","id":2,"method":"ping"}',
      '[+0.04s] server ==> {"jsonrpc":"2.0","id":2,"result":{}}',
      'client ==> {not json',
      '-> {"jsonrpc":"2.0","id":3,"method":"ping"}',
      '<- {"jsonrpc":"2.0","id":3,"result":{}}',
      'C->S: {"jsonrpc":"2.0","id":4,"method":"ping"}',
      'server -> client: {"jsonrpc":"2.0","id":4,"result":{}}',
    ].join('\n');
    const r = ok(importTrace(text));
    assert.equal(r.format, 'stdio-log');
    assert.equal(r.transport, 'stdio');
    const shown = r.trace.filter((e) => e.kind === 'frame' || (e.kind === 'observed' && e.what === 'note')).map((e) => (e.kind === 'frame' ? `${e.dir} ${e.msg ? (e.msg.method ?? `#${String(e.msg.id)}`) : 'raw'}` : `note ${e.kind === 'observed' ? e.text : ''}`));
    assert.deepEqual(shown, ['note starting server…', 'c2s tools/call', 's2c notifications/progress', 'c2s notifications/cancelled', 'note S: this is not JSON', 's2c #1', 'c2s ping', 's2c #2', 'c2s raw', 'c2s ping', 's2c #3', 'c2s ping', 's2c #4']);
    assert.equal(frames(r.trace)[1]?.t, 10);
    assert.equal(frames(r.trace)[6]?.raw, '{not json\n');
  });
  test('text with no message line is refused, saying what a line needs', () => {
    const r = importTrace('hello\nworld\n', 'stdio-log');
    assert.equal(r.ok ? '' : r.error, 'Not a stdio log (one JSON-RPC message per line with a direction marker): no line holds a direction marker (such as -->, <--, C:, S:) followed by a JSON-RPC message.');
    assert.match(importTrace('hello\nworld\n').ok ? '' : 'unknown', /unknown/);
  });
  test(`more than ${MAX_IMPORT_LINES.toLocaleString('en-US')} lines are refused with the bound`, () => {
    const r = importTrace('> {}\n'.repeat(MAX_IMPORT_LINES + 1));
    assert.match(r.ok ? '' : r.error, /has 200,001 lines, more than the 200,000 an import reads/);
  });
});

describe('HAR', () => {
  test('Streamable HTTP: one stream per entry, the session header, the version header, SSE split into events', () => {
    const r = ok(importTrace(sample('har-streamable-http-lost-cancel.har')));
    assert.equal(r.format, 'har');
    assert.deepEqual([r.revision, r.transport], ['2025-11-25', 'streamable-http']);
    const fs = frames(r.trace);
    const har: { log: { entries: unknown[] } } = JSON.parse(sample('har-streamable-http-lost-cancel.har'));
    assert.equal(new Set(fs.map((f) => f.http?.stream)).size, har.log.entries.length);
    assert.ok(fs.some((f) => f.http?.part === 'response-head' && f.http.headers?.['mcp-session-id'] === undefined));
    const call = fs.find((f) => f.msg?.method === 'tools/call');
    const onStream = fs.filter((f) => f.http?.stream === call?.http?.stream).map((f) => `${f.http?.part}${f.msg ? ` ${f.msg.method ?? 'response'}` : ''}`);
    assert.equal(onStream[0], 'request tools/call');
    assert.equal(onStream.at(-1), 'end');
  });
  test('HTTP+SSE: the endpoint event on the GET stream names the transport', () => {
    const r = ok(importTrace(sample('har-http-sse-cancel.har')));
    assert.deepEqual([r.revision, r.transport], ['2024-11-05', 'http-sse']);
  });
  test('an entry DevTools marks as failed ends with the client’s abort', () => {
    const har: { log: { entries: { response: { status: number }; _error?: string }[] } } = JSON.parse(sample('har-streamable-http-lost-cancel.har'));
    const last = har.log.entries.at(-1);
    assert.ok(last);
    last.response.status = 0;
    last._error = 'net::ERR_ABORTED';
    const fs = frames(ok(importTrace(JSON.stringify(har))).trace);
    const aborts = fs.filter((f) => f.http?.part === 'abort');
    assert.equal(aborts.length, 1);
    assert.deepEqual(
      fs.filter((f) => f.http?.stream === aborts[0]?.http?.stream).map((f) => f.http?.part),
      ['request', 'abort'],
    );
  });
  test('a bad entry is named with the field', () => {
    const har: { log: { entries: { request: { url?: string } }[] } } = JSON.parse(sample('har-http-sse-cancel.har'));
    const second = har.log.entries[2];
    assert.ok(second);
    delete second.request.url;
    const r = importTrace(JSON.stringify(har));
    assert.match(r.ok ? '' : r.error, /^Not a HAR 1.2 capture of an HTTP session: entry 2 has a bad "request.url"/);
  });
});

describe('judging an imported trace', () => {
  test('a response the client may not have read yet when it cancelled is the race the spec allows, not a broken MUST', () => {
    const r = ok(importTrace(sample('stdio-r2-clean.log')));
    const findings = checkRun({ revision: '2025-11-25', transport: 'stdio' }, r.trace);
    assert.ok(!findings.some((f) => f.verdict === 'violated' && f.severity === 'error'), JSON.stringify(findings.filter((f) => f.verdict === 'violated')));
    assert.ok(findings.some((f) => f.rule === 'CANCEL-REF-INPROGRESS' && f.verdict === 'satisfied'));
  });
  test('what the wire shows is judged: a cancel of initialize breaks its MUST NOT', () => {
    const r = ok(importTrace(sample('stdio-cancel-initialize.log')));
    const findings = checkRun({ revision: '2025-11-25', transport: 'stdio' }, r.trace);
    assert.ok(findings.some((f) => f.rule === 'CANCEL-NO-INITIALIZE' && f.verdict === 'violated' && f.severity === 'error'));
  });
  test('rules that need the lab’s own sides say they can’t tell, SKIPPED in checks.json; the lab’s own trace is judged in full', () => {
    const outside = checkRun({ revision: '2025-11-25', transport: 'stdio' }, ok(importTrace(sample('stdio-python-v1-code-0.log'))).trace);
    const recv = outside.find((f) => f.rule === 'CANCEL-RECV-STOP');
    assert.equal(recv?.verdict, 'cannot-tell');
    assert.match(recv?.why ?? '', /^Can’t tell from this trace: it was observed from outside the lab's sides, and this rule needs the receiving handler's state/);
    assert.equal(recv && statusOf(recv), 'SKIPPED');
    const inside = checkRun({ revision: '2025-11-25', transport: 'stdio' }, lab('lab-python-v1-code-0.jsonl'));
    assert.notEqual(inside.find((f) => f.rule === 'CANCEL-RECV-STOP')?.verdict, 'cannot-tell');
  });
});
