/**
 * Requests in both directions (issue 15 §1) on the real SDK v2: what the wire carries when the
 * server asks the client mid-call and either side cancels, how the checker judges the server as
 * the sender and the client as the receiver, ping both ways, and which settings are refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { checkRun } from '../../src/rules/index.ts';
import { askWhyNot, decodeLink, libraryEntry, parseScenario, permalinkOf, scenarioAskWhyNot, type Scenario } from '../../src/scenario/index.ts';
import { runScenarioFile } from '../../src/cli/run.ts';
import type { FrameEvent, TraceEvent } from '../../src/trace/index.ts';
import { assertNoEngineErrors, call, defined, framesOf, notesOf, scenario } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

function entry(id: string): Scenario {
  return defined(libraryEntry(id), id).scenario;
}

function finding(s: Scenario, trace: TraceEvent[], rule: string): { verdict: string; severity: string; why: string }[] {
  return checkRun(s, trace).filter((f) => f.rule === rule);
}

const sent = (trace: TraceEvent[], dir: 'c2s' | 's2c', method: string): FrameEvent[] => framesOf(trace).filter((f) => f.dir === dir && f.msg?.method === method);
const answersTo = (trace: TraceEvent[], dir: 'c2s' | 's2c', id: unknown): FrameEvent[] =>
  framesOf(trace).filter((f) => f.dir === dir && f.msg !== null && f.msg.method === undefined && f.msg.id === id);

describe('the server cancels its own elicitation', () => {
  const s = entry('server-cancels-its-elicitation');
  let trace: TraceEvent[] = [];
  before(async () => {
    trace = await runHeadless(s, sides);
  });

  test('the server writes elicitation/create, then notifications/cancelled naming it 500 ms later, and the client writes no answer', () => {
    assertNoEngineErrors(trace);
    const [ask] = sent(trace, 's2c', 'elicitation/create');
    const [cancel] = sent(trace, 's2c', 'notifications/cancelled');
    assert.ok(ask && cancel, 'an elicitation and a cancel from the server');
    assert.equal(cancel.msg?.params?.requestId, ask.msg?.id);
    assert.equal(cancel.t - ask.t, 500);
    assert.deepEqual(answersTo(trace, 'c2s', ask.msg?.id), [], 'the client SDK answers a cancelled request with nothing');
    assert.deepEqual(
      trace.filter((e) => e.kind === 'client-handler-state').map((e) => e.kind === 'client-handler-state' && e.to),
      ['running', 'cancellation seen', 'threw', 'response suppressed'],
    );
    assert.deepEqual(
      trace.filter((e) => e.kind === 'server-request-state').map((e) => e.kind === 'server-request-state' && e.to),
      ['awaiting', 'cancelled'],
    );
  });

  test('the client is judged as the receiver of the cancel', () => {
    const [stopped] = finding(s, trace, 'CANCEL-RECV-STOP');
    assert.equal(stopped?.verdict, 'satisfied');
    assert.match(stopped?.why ?? '', /^The client stopped the handler of request 0/);
    assert.match(finding(s, trace, 'CANCEL-REF-ISSUED')[0]?.why ?? '', /The server's cancel .* names request 0, which the server issued/);
  });
});

test('a client handler that ignores the server cancel breaks CANCEL-RECV-STOP, a SHOULD, and still sends nothing', async () => {
  const s = entry('client-handler-ignores-server-cancel');
  const trace = await runHeadless(s, sides);
  const [ask] = sent(trace, 's2c', 'elicitation/create');
  assert.deepEqual(answersTo(trace, 'c2s', ask?.msg?.id), []);
  const returned = notesOf(trace, 'client-handler-returned');
  assert.equal(returned[0]?.t, 3130);
  assert.equal(returned[0]?.note.aborted, true);
  const [stopped] = finding(s, trace, 'CANCEL-RECV-STOP');
  assert.equal(stopped?.verdict, 'violated');
  assert.equal(stopped?.severity, 'warning');
  assert.match(stopped?.why ?? '', /returned its answer at 3130 ms/);
});

test('Stop on the call leaves the server’s elicitation pending: no cancel for it, and the client still answers it', async () => {
  const s = entry('stop-while-elicitation-pending');
  const trace = await runHeadless(s, sides);
  const [ask] = sent(trace, 's2c', 'elicitation/create');
  const cancels = [...sent(trace, 'c2s', 'notifications/cancelled'), ...sent(trace, 's2c', 'notifications/cancelled')];
  assert.deepEqual(
    cancels.map((c) => [c.dir, c.msg?.params?.requestId]),
    [['c2s', 1]],
    'only the client cancels, and only its tools/call',
  );
  const [answer] = answersTo(trace, 'c2s', ask?.msg?.id);
  assert.equal(answer?.t, 3130);
  assert.deepEqual(answersTo(trace, 's2c', 1), [], 'the cancelled call gets no response');
  assert.equal(notesOf(trace, 'client-answered')[0]?.note.outcome, 'result', 'the tool took the answer after its call was cancelled');
});

test('a late client answer after the server cancel: the server ignores it (onerror), and both sides come through the race', async () => {
  const s = entry('late-client-answer-after-server-cancel');
  const trace = await runHeadless(s, sides);
  const [cancel] = sent(trace, 's2c', 'notifications/cancelled');
  const [answer] = answersTo(trace, 'c2s', 0);
  assert.ok(cancel && answer && answer.t > cancel.t, 'the answer is written after the cancel');
  assert.ok(answer.t < defined(cancel.deliverAt ?? undefined, 'cancel delivery'), '… before the cancel reaches the client: they cross');
  assert.match(notesOf(trace, 'server-onerror')[0]?.note.message ?? '', /^Received a response for an unknown message ID: .*"id":0/);
  const [late] = finding(s, trace, 'CANCEL-IGNORE-LATE-RESPONSE');
  assert.equal(late?.verdict, 'satisfied');
  assert.match(late?.why ?? '', /^The server ignored the response to request 0/);
  assert.deepEqual(
    finding(s, trace, 'CANCEL-RACE-GRACEFUL').map((f) => [f.verdict, f.why.split(' ')[1]]),
    [
      ['satisfied', 'client'],
      ['satisfied', 'server'],
    ],
  );
});

test('ping both ways: the client pings the server, the server pings the client mid-call, each answered with {}', async () => {
  const trace = await runHeadless(entry('ping-both-ways'), sides);
  const pings = framesOf(trace).filter((f) => f.msg?.method === 'ping');
  assert.deepEqual(
    pings.map((p) => p.dir),
    ['c2s', 's2c'],
  );
  for (const p of pings) {
    const [answer] = answersTo(trace, p.dir === 'c2s' ? 's2c' : 'c2s', p.msg?.id);
    assert.deepEqual(answer?.msg?.result, {});
  }
});

test('a sampling/createMessage and a roots/list from the server reach the client’s handlers and are answered', async () => {
  const handlers = { sampling: { ms: 50, onCancel: 'observe' as const }, roots: { ms: 0, onCancel: 'observe' as const } };
  const s = scenario(
    [call(20, 'S', 'ask_client', { request: 'sampling/createMessage', afterMs: 10, then: 'wait' }), call(20, 'R', 'ask_client', { request: 'roots/list', afterMs: 10, then: 'wait' })],
    { clientHandlers: handlers, endAt: 1000 },
  );
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  const init = framesOf(trace).find((f) => f.msg?.method === 'initialize');
  assert.deepEqual(init?.msg?.params?.capabilities, { sampling: {}, roots: {} }, 'the client declares exactly the capabilities it has handlers for');
  for (const method of ['sampling/createMessage', 'roots/list']) {
    const [ask] = sent(trace, 's2c', method);
    assert.ok(answersTo(trace, 'c2s', ask?.msg?.id)[0]?.msg?.result, `${method} answered`);
  }
});

test('a client with no clientHandlers declares no capability, as before', async () => {
  const trace = await runHeadless(scenario([], { endAt: 100 }), sides);
  assert.deepEqual(framesOf(trace).find((f) => f.msg?.method === 'initialize')?.msg?.params?.capabilities, {});
});

describe('what cannot be asked, and why', () => {
  const base = { transport: 'stdio', httpServer: 'sessionful' } as const;
  test('elicitation before 2025-06-18, anything on 2026-07-28, a capability the client does not declare, a stateless server', () => {
    const handlers = { elicitation: { ms: 0, onCancel: 'observe' as const } };
    assert.match(askWhyNot('elicitation/create', { ...base, revision: '2025-03-26', clientHandlers: handlers }) ?? '', /Elicitation arrived in 2025-06-18/);
    assert.match(askWhyNot('ping', { ...base, revision: '2026-07-28' }) ?? '', /2026-07-28 has no server-to-client requests/);
    assert.match(askWhyNot('elicitation/create', { ...base, revision: '2025-11-25' }) ?? '', /declares no elicitation capability/);
    assert.match(askWhyNot('ping', { revision: '2025-11-25', transport: 'streamable-http', httpServer: 'stateless' }) ?? '', /stateless server/);
    assert.equal(askWhyNot('ping', { ...base, revision: '2025-11-25' }), null, 'ping needs no capability');
    assert.equal(askWhyNot('elicitation/create', { ...base, revision: '2025-06-18', clientHandlers: handlers }), null);
  });

  test('the runner refuses such a scenario with exit 2 and the reason, naming the step', async () => {
    const s = scenario([call(20, 'A', 'ask_client', { request: 'elicitation/create', afterMs: 0, then: 'wait' })], { revision: '2025-03-26' });
    assert.match(scenarioAskWhyNot(s) ?? '', /^steps\.0: ask_client cannot send elicitation\/create here/);
    const link = await permalinkOf(s, '');
    const result = await runScenarioFile(`#${link}`, { sides });
    assert.equal(result.exitCode, 2);
    assert.match(result.error ?? '', /does not offer: steps\.0: ask_client cannot send elicitation\/create here/);
  });

  test('a ping step on 2026-07-28 and elicitation handlers on 2025-03-26 are refused', () => {
    assert.match(scenarioAskWhyNot(scenario([{ at: 0, action: { type: 'ping' } }], { revision: '2026-07-28', transport: 'stdio' })) ?? '', /removed ping/);
    assert.match(scenarioAskWhyNot(scenario([], { revision: '2025-03-26', clientHandlers: { elicitation: { ms: 0, onCancel: 'ignore' } } })) ?? '', /clientHandlers\.elicitation/);
  });
});

test('clientHandlers round-trip through a permalink and the schema refuses an unknown behaviour', async () => {
  const s = entry('client-handler-ignores-server-cancel');
  const decoded = await decodeLink(await permalinkOf(s, 'abc'));
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.scenario.clientHandlers, { elicitation: { ms: 3000, onCancel: 'ignore' } });
  const bad = parseScenario({ ...s, clientHandlers: { elicitation: { ms: 0, onCancel: 'swallow' } } });
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : (bad.errors[0] ?? ''), /^clientHandlers\.elicitation\.onCancel/);
});
