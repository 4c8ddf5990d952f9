/**
 * The tie rule documented in src/engine/run.ts, for events due at the same virtual ms:
 *   1. timers (the client's before the server's), 2. frame arrivals in write order,
 *   3. user actions in the order they were scheduled.
 * Each case is built so that the other order would leave a different mark on the trace.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import {
  assertNoEngineErrors,
  assertWireInvariants,
  call,
  clientStates,
  defined,
  deliveryOf,
  framesWithMethod,
  notesOf,
  requestIdOf,
  responsesFor,
  scenario,
  stop,
  toolCallFrame,
  userActions,
} from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

test('frame arrival before user action: Stop at the ms a progress frame reaches the client sees that progress', async () => {
  // Call at 20 → arrives 25; progress 1 written 125 → arrives at the client at 130 = Stop.
  const s = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(130, 'A')]);
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  assertWireInvariants(s, trace);

  const progress = framesWithMethod(trace, 'notifications/progress');
  assert.equal(progress.length, 1);
  const arrival = deliveryOf(trace, defined(progress[0]));
  const stopAction = defined(userActions(trace).find((e) => e.action.type === 'stop'));
  assert.equal(arrival.t, 130);
  assert.equal(stopAction.t, 130);
  assert.ok(arrival.seq < stopAction.seq, 'the delivery event comes before the user-action event');

  // The client handled the progress while the call was still running…
  const received = notesOf(trace, 'progress-received');
  assert.deepEqual(
    received.map((e) => [e.t, e.note.progress]),
    [[130, 1]],
  );
  assert.ok(defined(received[0]).seq < stopAction.seq);
  // …so it was not reported as a progress for an unknown token (what a Stop-first order gives).
  assert.deepEqual(
    notesOf(trace, 'client-onerror').filter((e) => e.note.message.includes('unknown token')),
    [],
  );
  const cancelRequested = defined(clientStates(trace, 'A').find((e) => e.to === 'CANCEL_REQUESTED'));
  assert.ok(cancelRequested.seq > arrival.seq);
});

test('timer before frame arrival: a cancel arriving the ms the ledger commit is due is too late', async () => {
  // Call at 20 → arrives 25, commit timer due at 125. Stop at 120 → the cancel arrives at 125.
  const s = scenario([
    call(20, 'L', 'ledger_write', { key: 'k', value: 'v', commitAfterMs: 100, totalMs: 400 }),
    stop(120, 'L'),
  ]);
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  const cancel = defined(framesWithMethod(trace, 'notifications/cancelled')[0]);
  const cancelArrival = deliveryOf(trace, cancel);
  assert.equal(cancelArrival.t, 125);
  const commits = notesOf(trace, 'ledger-commit');
  assert.equal(commits.length, 1, 'the commit timer fired before the cancel was delivered');
  assert.equal(defined(commits[0]).t, 125);
  assert.ok(defined(commits[0]).seq < cancelArrival.seq);
});

test('timer before frame arrival: a request arriving the ms a progress timer fires is handled after it', async () => {
  // slow_count progress 1 is due on the server at 125; quick's tools/call (sent 120) arrives at 125.
  const s = scenario([call(20, 'A', 'slow_count', { steps: 2, stepMs: 100 }), call(120, 'Q', 'quick')]);
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  const progress1 = defined(framesWithMethod(trace, 'notifications/progress')[0]);
  const qArrival = deliveryOf(trace, toolCallFrame(trace, 'Q'));
  const qResponse = defined(responsesFor(trace, requestIdOf(trace, 'Q'))[0]);
  assert.deepEqual([progress1.t, qArrival.t, qResponse.t], [125, 125, 125]);
  assert.ok(progress1.seq < qArrival.seq, 'the timer fired before the frame arrived');
  assert.ok(progress1.frame < qResponse.frame, 'so progress 1 is on the wire before the quick result');
});

test('timer before user action: Stop at the ms a progress timer fires comes after that progress is written', async () => {
  // Arrives 25; progress 1 due at 35 = Stop.
  const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 10 }), stop(35, 'A')]);
  const trace = await runHeadless(s, sides);
  const progress1 = defined(framesWithMethod(trace, 'notifications/progress')[0]);
  const stopAction = defined(userActions(trace).find((e) => e.action.type === 'stop'));
  const cancel = defined(framesWithMethod(trace, 'notifications/cancelled')[0]);
  assert.deepEqual([progress1.t, stopAction.t, cancel.t], [35, 35, 35]);
  assert.ok(progress1.seq < stopAction.seq);
  assert.ok(progress1.frame < cancel.frame);
});

test("client timer before server timer: the SDK's 60 s timeout fires before the handler's reply at the same ms", async () => {
  // Call at 20: the client's request timeout (60 000 ms) is due at 60 020; the handler, started at 25,
  // sleeps 59 995 ms and returns at 60 020 too. endAt stops the run before either frame arrives.
  const s = scenario([call(20, 'A', 'stubborn', { ms: 59_995 })], { endAt: 60_020 });
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  const id = requestIdOf(trace, 'A');
  const cancel = framesWithMethod(trace, 'notifications/cancelled');
  const response = responsesFor(trace, id);
  assert.equal(cancel.length, 1, 'the timeout made the client send notifications/cancelled');
  assert.equal(response.length, 1, 'the server answered');
  assert.deepEqual([defined(cancel[0]).t, defined(response[0]).t], [60_020, 60_020]);
  assert.equal(defined(cancel[0]).msg?.params?.requestId, id);
  assert.ok(defined(cancel[0]).frame < defined(response[0]).frame, "the client's timer fired first");
  assert.deepEqual(
    clientStates(trace, 'A').map((e) => [e.t, e.to]),
    [
      [20, 'RUNNING'],
      [60_020, 'FAILED'],
    ],
  );
  const returned = notesOf(trace, 'handler-returned');
  assert.ok(defined(returned[0]).seq > defined(cancel[0]).seq);
});

test('user actions at the same ms run in the order they were scheduled', async () => {
  const s = scenario([call(20, 'B', 'quick'), call(20, 'A', 'quick'), stop(20, 'A')]);
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  assert.deepEqual(
    userActions(trace).map((e) => [e.t, e.action.type, 'call' in e.action ? e.action.call : null]),
    [
      [20, 'call', 'B'],
      [20, 'call', 'A'],
      [20, 'stop', 'A'],
    ],
  );
  const b = toolCallFrame(trace, 'B');
  const a = toolCallFrame(trace, 'A');
  assert.ok(b.frame < a.frame, "B's tools/call is written first");
  assert.ok(Number(b.msg?.id) < Number(a.msg?.id), 'and gets the lower request id');
  // The Stop came after A's call in the same ms; the cancel is written after the tools/call, so it
  // also arrives after it (both at 25): quick answers first, and that answer is ignored at 30.
  assert.deepEqual(
    clientStates(trace, 'A').map((e) => [e.t, e.to, e.because]),
    [
      [20, 'RUNNING', 'Call pressed'],
      [20, 'CANCEL_REQUESTED', 'Stop pressed'],
      [20, 'STOPPED_LOCALLY', 'local wait ended'],
      [30, 'STOPPED_LOCALLY', 'ignored: arrived after Stop'],
    ],
  );
  const cancel = defined(framesWithMethod(trace, 'notifications/cancelled')[0]);
  assert.ok(a.frame < cancel.frame);
  assert.ok(deliveryOf(trace, a).seq < deliveryOf(trace, cancel).seq);
  assert.equal(responsesFor(trace, requestIdOf(trace, 'A')).length, 1);
  assert.equal(clientStates(trace, 'B').at(-1)?.to, 'SUCCEEDED');
});
