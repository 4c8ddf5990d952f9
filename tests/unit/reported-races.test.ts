/**
 * The emulations made for reported races (Effect-TS #7131, rust-sdk #1251, openai/codex #40390),
 * read off the wire and the client state, each beside what the real TypeScript SDK v2 does in
 * the same run: the difference is the reported bug.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { CLIENT_PROFILE_INFO, libraryEntry, type ClientProfile, type Scenario, type ServerProfile } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { checkRun } from '../../src/rules/index.ts';
import { assertNoEngineErrors, clientStates, framesOf, isResponse, notesOf, responsesFor } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

function entry(id: string): Scenario {
  const found = libraryEntry(id);
  assert.ok(found, id);
  return found.scenario;
}

async function run(s: Scenario, profiles: { server?: ServerProfile; client?: ClientProfile } = {}): Promise<TraceEvent[]> {
  const trace = await runHeadless({ ...s, ...(profiles.server && { serverProfile: profiles.server }), ...(profiles.client && { clientProfile: profiles.client }) }, sides);
  assertNoEngineErrors(trace);
  return trace;
}

/** The responses the client wrote to the server's request `id`. */
const clientAnswers = (trace: readonly TraceEvent[], id: number): number => framesOf(trace).filter((f) => f.dir === 'c2s' && isResponse(f.msg) && f.msg.id === id).length;
const finalState = (trace: readonly TraceEvent[], call: string): string | undefined => clientStates(trace, call).at(-1)?.to;
const settledAt = (trace: readonly TraceEvent[], call: string): number | undefined => notesOf(trace, 'call-settled').find((n) => n.note.call === call)?.t;

describe('Effect-TS #7131: a cancel for an unknown id silences the later request that gets it', () => {
  const s = entry('effect-7131-stale-cancel-silences-a-later-request');

  test('the emulated server writes no answer for request 2, and call B times out', async () => {
    const trace = await run(s);
    assert.equal(responsesFor(trace, 1).length, 1, 'call A is answered');
    assert.equal(responsesFor(trace, 2).length, 0, 'call B is not');
    assert.equal(notesOf(trace, 'call-settled').find((n) => n.note.call === 'B')?.note.code, 'REQUEST_TIMEOUT');
  });

  test('the real v2 server ignores the stale cancel and answers request 2', async () => {
    const trace = await run(s, { server: 'ts-v2' });
    assert.equal(responsesFor(trace, 2).length, 1);
    assert.equal(finalState(trace, 'B'), 'SUCCEEDED');
  });
});

describe('rust-sdk #1251: a server cancel of its elicitation removes the waiter of the client request with the same id', () => {
  const s = entry('rust-sdk-1251-server-cancel-removes-a-client-waiter');

  test("the server's cancel of its request 1 ends the client's call A (request 1) with rmcp's Cancelled error; the cancelled elicitation is answered anyway", async () => {
    const trace = await run(s);
    const cancel = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.method === 'notifications/cancelled');
    assert.deepEqual(cancel?.msg?.params, { requestId: 1, reason: 'the server stopped waiting' }, "the server cancels its own request 1 (B's elicitation)");
    const settled = notesOf(trace, 'call-settled').find((n) => n.note.call === 'A');
    assert.equal(settled?.t, cancel?.deliverAt, 'call A ends when that cancel reaches the client');
    assert.equal(settled?.note.outcome, 'error');
    assert.equal(settled?.note.message, 'ServiceError::Cancelled: task cancelled for reason the server stopped waiting');
    assert.equal(settled?.note.code, undefined, 'a local error: no JSON-RPC code');
    assert.equal(finalState(trace, 'A'), 'FAILED');
    assert.equal(framesOf(trace).filter((f) => f.dir === 'c2s' && f.msg?.method === 'notifications/cancelled').length, 0, 'the client sends no cancel of its own');
    const answerToA = responsesFor(trace, 1);
    assert.equal(answerToA.length, 1, "the server still answers the client's request 1");
    assert.ok((answerToA[0]?.deliverAt ?? 0) > (settled?.t ?? Infinity), 'after the call has ended');
    assert.deepEqual([...notesOf(trace, 'client-onerror'), ...notesOf(trace, 'stderr')], [], 'and it is dropped without a word');
    assert.equal(clientAnswers(trace, 1), 1, "the client still answers the server's cancelled request 1");
    assert.equal(finalState(trace, 'B'), 'SUCCEEDED');
    // The verdict says what the client did: it failed call A, and kept its one connection.
    const graceful = checkRun(s, trace).find((f) => f.rule === 'CANCEL-RACE-GRACEFUL' && f.verdict === 'violated');
    assert.match(graceful?.why ?? '', /in that same step the client failed call A, still in flight \("ServiceError::Cancelled/);
    assert.doesNotMatch(graceful?.why ?? '', /closed the connection/);
  });

  test('the real v2 client cancels its handler instead, and call A succeeds', async () => {
    const trace = await run(s, { client: 'ts-v2' });
    assert.equal(finalState(trace, 'A'), 'SUCCEEDED');
    assert.equal(clientAnswers(trace, 1), 0);
  });

  test('the profile is named for the rmcp release its links are pinned at', () => {
    const info = CLIENT_PROFILE_INFO.rmcp;
    const tags = new Set(info.sources.flatMap((l) => [...l.url.matchAll(/\/rust-sdk\/blob\/([^/]+)\//g)].map((m) => m[1])));
    assert.deepEqual([...tags], ['rmcp-v3.1.4']);
    assert.match(info.label, /rmcp 3\.1\.4 client/);
    for (const link of info.sources.filter((l) => l.url.includes('/blob/'))) assert.match(link.label, /\(rmcp 3\.1\.4\)/, link.label);
  });
});

describe('openai/codex #40390: a cancelled elicitation is not dismissed, and the result stays hidden', () => {
  const s = entry('codex-40390-cancelled-elicitation-hides-the-result');

  test('the result reaches the client at 330 ms, and call A settles only when the form is answered, at 3130 ms', async () => {
    const trace = await run(s);
    const [result] = responsesFor(trace, 1);
    assert.equal(result?.deliverAt, 330);
    assert.equal(settledAt(trace, 'A'), 3130);
    assert.equal(clientAnswers(trace, 0), 1, 'the form is answered after its cancel');
  });

  test('the real v2 client stops its handler on the cancel and shows the result at once', async () => {
    const trace = await run(s, { client: 'ts-v2' });
    assert.equal(settledAt(trace, 'A'), 330);
  });
});
