/**
 * Any message forged whole (the `inject` action) and Stop before the wire (a call's `stop`):
 * what the schema takes and refuses, what the engine writes on each transport and direction,
 * how the client request's table ends when nothing was sent, and what the CLI prints.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { INPUT_BOUNDS, parseScenario, type Scenario, type Step } from '../../src/scenario/index.ts';
import { decodeLink, encodeLink } from '../../src/scenario/permalink.ts';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';
import { FORGED_MESSAGE_BOUNDS, forgedMessageProblem, jsonRpcProblems, traceHash, type ClientStateEvent, type FrameEvent, type TraceEvent } from '../../src/trace/index.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { runScenarioFile } from '../../src/cli/run.ts';
import { bugReport } from '../../src/report/bug-report.ts';
import { call, scenario } from './trace-helpers.ts';

const sides = createNodeSides();
const META = { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '0000000000000000' };
after(() => sides.close());

const inject = (at: number, dir: 'c2s' | 's2c', message: unknown): Step => ({ at, action: { type: 'inject', dir, message } });
const forged = (trace: readonly TraceEvent[]): FrameEvent[] => trace.filter((e): e is FrameEvent => e.kind === 'frame' && e.injected === true);
const statesOf = (trace: readonly TraceEvent[], name: string): string[] =>
  trace.filter((e): e is ClientStateEvent => e.kind === 'client-state' && e.call === name).map((e) => `${e.from ?? '∅'} → ${e.to} (${e.because})`);
const errors = (trace: readonly TraceEvent[]): string[] => trace.flatMap((e) => (e.kind === 'error' ? [e.message] : []));

describe('the inject action in the schema', () => {
  test('any JSON value is a message: an object with extra fields, an array, a string, null', () => {
    for (const message of [{ jsonrpc: '2.0', id: 0, method: 'ping', extra: true }, [1, 2], 'hello', null, 0]) {
      const parsed = parseScenario(scenario([inject(10, 'c2s', message)]));
      assert.ok(parsed.ok, JSON.stringify(message));
    }
  });

  test('a missing message, one too long, too deep, or with a "__proto__" key is refused at action.message', () => {
    const deep: unknown[] = [];
    let inner = deep;
    for (let i = 0; i < 40; i++) {
      const next: unknown[] = [];
      inner.push(next);
      inner = next;
    }
    const cases: [unknown, RegExp][] = [
      [undefined, /missing/],
      ['x'.repeat(FORGED_MESSAGE_BOUNDS.length), /more than the 10,000/],
      [deep, /nested more than 32 levels deep/],
      [JSON.parse('{"params":{"__proto__":{"polluted":true}}}'), /"__proto__"/],
    ];
    for (const [message, why] of cases) {
      const parsed = parseScenario(scenario([{ at: 10, action: { type: 'inject', dir: 'c2s', message } }]));
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.errors.join('\n'), new RegExp(`steps\\.0\\.action\\.message: .*${why.source}`));
    }
    assert.equal(INPUT_BOUNDS.forgedMessageLength, FORGED_MESSAGE_BOUNDS.length, 'the form takes the bound the schema keeps');
    assert.equal(forgedMessageProblem({ jsonrpc: '2.0' }), null);
  });

  test('a 10,000-deep message is measured without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) as unknown;
    assert.match(forgedMessageProblem(deep) ?? '', /nested more than/);
  });

  test('the link decoder keeps the same bound, and a forged message round-trips through a permalink', async () => {
    const s = scenario([inject(10, 'c2s', { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'quick' }, extra: [1] })]);
    const link = await encodeLink(s, META);
    const opened = await decodeLink(link);
    assert.ok(opened.ok);
    if (opened.ok) assert.deepEqual(opened.scenario, s);
    const tooLong = await encodeLink({ ...s, steps: [inject(10, 'c2s', 'y'.repeat(FORGED_MESSAGE_BOUNDS.length + 1))] }, META);
    const refused = await decodeLink(tooLong);
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.match(refused.error, /steps\.0\.action\.message: .*characters as JSON/);
  });

  test('the JSON Schema describes inject and a call\'s stop', () => {
    const text = JSON.stringify(scenarioJsonSchema());
    assert.match(text, /Forge any message, JSON-RPC or not/);
    assert.match(text, /"enum":\["before-call","same-tick"\]/);
  });

  test('jsonRpcProblems says what a value lacks to be one JSON-RPC message, and nothing for a valid one', () => {
    assert.deepEqual(jsonRpcProblems({ jsonrpc: '2.0', id: 0, method: 'ping' }), []);
    assert.deepEqual(jsonRpcProblems({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }), []);
    assert.deepEqual(jsonRpcProblems({ jsonrpc: '2.0', id: 'x', result: {} }), []);
    assert.deepEqual(jsonRpcProblems({ id: 1.5, method: 'ping', extra: 1 }), ['"jsonrpc" is not "2.0"', '"id" is neither a string nor an integer', 'an extra field "extra"']);
    assert.deepEqual(jsonRpcProblems({ jsonrpc: '2.0', result: 1, error: {} }), ['a response has no "id"', 'a response carries both "result" and "error"']);
    assert.match(jsonRpcProblems([{}])[0] ?? '', /batch/);
    assert.match(jsonRpcProblems(42)[0] ?? '', /not an object/);
  });
});

describe('the engine writes a forged message exactly as typed', () => {
  test('stdio, client → server: one line, marked injected; a cancel without requestId cancels nothing', async () => {
    const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { reason: 'which one?' } };
    const s = scenario([call(20, 'A', 'stubborn', { ms: 200 }), inject(100, 'c2s', message)], { endAt: 1000 });
    const trace = await runHeadless(s, sides);
    const [frame, ...more] = forged(trace);
    assert.equal(more.length, 0);
    assert.equal(frame?.dir, 'c2s');
    assert.equal(frame?.t, 100);
    assert.equal(frame?.raw, `${JSON.stringify(message)}\n`);
    assert.deepEqual(statesOf(trace, 'A').at(-1), 'RUNNING → SUCCEEDED (result)');
    const shape = checkRun(s, trace).find((f) => f.rule === 'CANCEL-NOTIFY-SHAPE' && f.verdict === 'violated');
    assert.match(shape?.why ?? '', /forged frame \d+ is malformed: it has no requestId/);
    assert.deepEqual(errors(trace), []);
  });

  test('a request reusing an in-flight id: the client takes the other request\'s answer; ID-UNIQUE blames the forged frame, RESPONSE-SAME-ID not the server', async () => {
    const s = scenario([call(20, 'A', 'stubborn', { ms: 200 }), inject(60, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick', arguments: {} } })], { endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(statesOf(trace, 'A'), ['∅ → RUNNING (Call pressed)', 'RUNNING → SUCCEEDED (result)', 'SUCCEEDED → SUCCEEDED (ignored: already settled)']);
    const settled = trace.find((e) => e.kind === 'client-state' && e.to === 'SUCCEEDED');
    assert.equal(settled?.t, 70, 'settled by the quick answer to the forged request, not at 230 ms');
    const findings = checkRun(s, trace).filter((f) => f.verdict === 'violated' && f.severity !== 'info');
    assert.deepEqual(findings.map((f) => f.rule), ['ID-UNIQUE']);
    assert.match(findings[0]?.why ?? '', /\(forged frame \d+\)/);
    const same = checkRun(s, trace).find((f) => f.rule === 'RESPONSE-SAME-ID' && f.witnesses.length > 0);
    assert.match(same?.why ?? '', /2 requests carried that id .*one answer for each/);
  });

  test('Streamable HTTP: the client\'s as a POST of its own; the server\'s on its request\'s stream, else on the GET stream', async () => {
    const s = scenario(
      [
        call(20, 'A', 'stubborn', { ms: 200 }),
        inject(50, 'c2s', { jsonrpc: '2.0', id: 0, method: 'ping' }),
        inject(60, 's2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 0.5 } }),
        inject(70, 's2c', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } }),
      ],
      { transport: 'streamable-http', endAt: 1000 },
    );
    const trace = await runHeadless(s, sides);
    const frames = trace.filter((e): e is FrameEvent => e.kind === 'frame');
    const toolCall = frames.find((f) => f.msg?.method === 'tools/call');
    const getStream = frames.find((f) => f.http?.method === 'GET')?.http?.stream;
    const [post, progress, log] = forged(trace);
    assert.equal(post?.http?.part, 'request');
    assert.equal(post?.http?.method, 'POST');
    assert.match(post?.raw ?? '', /\r\n\r\n\{"jsonrpc":"2\.0","id":0,"method":"ping"\}$/);
    assert.equal(progress?.http?.stream, toolCall?.http?.stream, 'progress for request 1 rides on its POST stream');
    assert.notEqual(getStream, undefined);
    assert.equal(log?.http?.stream, getStream, 'a message that names no request rides on the GET stream');
    assert.equal(log?.raw, `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } })}\n\n`);
    assert.deepEqual(errors(trace), []);
  });

  test('no stream can carry a server message: the run says why and writes nothing', async () => {
    const s = scenario([inject(50, 's2c', { jsonrpc: '2.0', method: 'notifications/message' })], { transport: 'streamable-http', httpServer: 'stateless', endAt: 500 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(forged(trace), []);
    assert.match(errors(trace).join('\n'), /no open SSE stream can carry .*notifications\/message.*no GET stream/);
  });
});

describe('Stop before the wire', () => {
  test('Stop in the same tick as Call, and a signal already aborted: nothing is written, each call ends STOPPED_BEFORE_SEND', async () => {
    const s: Scenario = scenario(
      [
        { at: 20, action: { type: 'call', call: 'A', tool: 'stubborn', args: { ms: 200 }, stop: 'same-tick' } },
        { at: 40, action: { type: 'call', call: 'B', tool: 'quick', args: {}, stop: 'before-call' } },
        { at: 60, action: { type: 'stop', call: 'A' } },
      ],
      { endAt: 1000 },
    );
    const trace = await runHeadless(s, sides);
    const afterHandshake = trace.filter((e): e is FrameEvent => e.kind === 'frame' && e.t >= 20);
    assert.deepEqual(afterHandshake, [], 'nothing reaches the wire');
    assert.deepEqual(statesOf(trace, 'A'), [
      '∅ → RUNNING (Call pressed)',
      'RUNNING → CANCEL_REQUESTED (Stop pressed)',
      'CANCEL_REQUESTED → STOPPED_BEFORE_SEND (nothing reached the wire)',
      'STOPPED_BEFORE_SEND → STOPPED_BEFORE_SEND (ignored: not running)',
    ]);
    assert.equal(statesOf(trace, 'B').at(-1), 'CANCEL_REQUESTED → STOPPED_BEFORE_SEND (nothing reached the wire)');
    const settled = trace.find((e) => e.kind === 'handler' && e.note.type === 'call-settled' && e.note.call === 'B');
    assert.deepEqual(settled?.kind === 'handler' && settled.note, { type: 'call-settled', call: 'B', outcome: 'error', message: 'user pressed Stop', code: 'REQUEST_TIMEOUT', unsent: true });
    assert.deepEqual(errors(trace), []);
    assert.deepEqual(checkRun(s, trace).filter((f) => f.verdict === 'violated' && f.severity !== 'info').map((f) => f.rule), []);
  });

  test('on Streamable HTTP too: no POST for the call', async () => {
    const s = scenario([{ at: 20, action: { type: 'call', call: 'A', tool: 'quick', args: {}, stop: 'same-tick' } }], { transport: 'streamable-http', endAt: 500 });
    const trace = await runHeadless(s, sides);
    assert.equal(trace.some((e) => e.kind === 'frame' && e.msg?.method === 'tools/call'), false);
    assert.equal(statesOf(trace, 'A').at(-1), 'CANCEL_REQUESTED → STOPPED_BEFORE_SEND (nothing reached the wire)');
  });
});

describe('the CLI', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cancel-lab-forge-'));
    await writeFile(join(dir, 'reuse.json'), JSON.stringify(scenario([call(20, 'A', 'stubborn', { ms: 200 }), inject(60, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick' } })], { endAt: 1000 })));
    await writeFile(join(dir, 'too-long.json'), JSON.stringify(scenario([inject(60, 'c2s', 'z'.repeat(20_000))])));
    await writeFile(join(dir, 'same-tick.json'), JSON.stringify(scenario([{ at: 20, action: { type: 'call', call: 'A', tool: 'quick', args: {}, stop: 'same-tick' } }], { endAt: 500 })));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a forged request prints as the user\'s and as a forged frame, and its reused id exits 1', async () => {
    const result = await runScenarioFile('reuse.json', { json: false, sides, cwd: dir });
    assert.equal(result.exitCode, 1);
    const text = result.stdout.join('\n');
    assert.match(text, /user: forge a message client → server: \{"jsonrpc":"2\.0","id":1,"method":"tools\/call"/);
    assert.match(text, /tools\/call request id 1 {2}\[forged, due 65 ms\]/);
    assert.match(text, /MUST broken +ID-UNIQUE: /);
  });

  test('a message past the bound is bad input (exit 2), and the run never starts', async () => {
    const result = await runScenarioFile('too-long.json', { json: false, sides, cwd: dir });
    assert.equal(result.exitCode, 2);
    assert.equal(result.trace.length, 0);
    assert.match([...result.stderr, result.error ?? ''].join('\n'), /steps\.0\.action\.message: 20,002 characters as JSON/);
  });

  test('Stop in the same tick prints with the call and ends STOPPED_BEFORE_SEND', async () => {
    const result = await runScenarioFile('same-tick.json', { json: false, sides, cwd: dir });
    assert.equal(result.exitCode, 0);
    const text = result.stdout.join('\n');
    assert.match(text, /user: call A: quick \{\} \(Stop in the same tick\)/);
    assert.match(text, /call A: CANCEL_REQUESTED → STOPPED_BEFORE_SEND \(nothing reached the wire\)/);
  });
});

describe('the bug report', () => {
  test('a forged message and a Stop before the wire are marked in its diagram, the forged frame as injected', async () => {
    const s = scenario(
      [{ at: 20, action: { type: 'call', call: 'A', tool: 'quick', args: {}, stop: 'same-tick' } }, inject(60, 'c2s', { jsonrpc: '2.0', id: 7, method: 'ping' })],
      { endAt: 500 },
    );
    const trace = await runHeadless(s, sides);
    const report = bugReport({ scenario: s, trace, findings: checkRun(s, trace), link: null, traceHash: await traceHash(trace) });
    // Mermaid text: braces, quotes and colons are entity codes.
    assert.match(report, /Note over Client: t=60 ⚠ inject c2s #123;#34;jsonrpc#34;#58;#34;2\.0#34;,#34;id#34;#58;7,/);
    assert.match(report, /Client->>Server: ⚠ injected ping id=7 \(t=60\)/);
    assert.match(report, /Call A · quick\(\) · Stop in the same tick/);
  });
});
