/**
 * What Stop does on the wire and to the two lifecycles, for each tool: the client sends
 * notifications/cancelled, stops waiting at once, and the server suppresses the response
 * (cooperative handler, stubborn handler), side effects already done stay done (ledger),
 * and a response that still arrives afterwards is ignored (injected late response).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import {
  assertNoEngineErrors,
  assertWireInvariants,
  call,
  clientStates,
  defined,
  deliveryOf,
  framesOf,
  framesWithMethod,
  inject,
  isResponse,
  notesOf,
  requestIdOf,
  responsesFor,
  scenario,
  serverStates,
  stop,
  toolCallFrame,
  userActions,
} from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

describe('slow_count stopped after the 2nd progress', () => {
  // Call at 20 → arrives 25; progress 1 written 125 (arrives 130), progress 2 written 225 (arrives 230).
  const s = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(240, 'A')]);
  let trace: TraceEvent[] = [];
  before(async () => {
    trace = await runHeadless(s, sides);
  });

  test('the wire carries tools/call, progress, then notifications/cancelled for that id, and no response after it', async () => {
    assertNoEngineErrors(trace);
    assertWireInvariants(s, trace);

    const callFrame = toolCallFrame(trace, 'A');
    const id = requestIdOf(trace, 'A');
    assert.equal(callFrame.dir, 'c2s');
    assert.equal(callFrame.t, 20);
    assert.equal(callFrame.msg?.params?.name, 'slow_count');
    assert.deepEqual(callFrame.msg?.params?.arguments, { steps: 5, stepMs: 100 });
    const token = (callFrame.msg?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    assert.notEqual(token, undefined, 'the client asked for progress (onprogress gives a progressToken)');

    const progress = framesWithMethod(trace, 'notifications/progress');
    assert.ok(progress.length >= 1, 'at least one progress notification');
    for (const p of progress) {
      assert.equal(p.dir, 's2c');
      assert.equal(p.msg?.params?.progressToken, token);
    }
    // The server saw the cancel at 245, before its 3rd step (325): exactly two progress frames.
    assert.deepEqual(
      progress.map((p) => [p.t, p.msg?.params?.progress]),
      [
        [125, 1],
        [225, 2],
      ],
    );
    // Stop came after the 2nd progress had reached the client.
    const received = notesOf(trace, 'progress-received').filter((e) => e.note.call === 'A');
    assert.deepEqual(
      received.map((e) => [e.t, e.note.progress]),
      [
        [130, 1],
        [230, 2],
      ],
    );

    const cancels = framesWithMethod(trace, 'notifications/cancelled');
    assert.equal(cancels.length, 1);
    const cancel = defined(cancels[0]);
    assert.equal(cancel.dir, 'c2s');
    assert.equal(cancel.t, 240, 'cancel is written at the Stop instant');
    assert.equal(cancel.msg?.params?.requestId, id);
    assert.equal(cancel.msg?.id, undefined, 'cancelled is a notification (no id)');
    assert.ok(cancel.seq > callFrame.seq);

    const lateResponses = framesOf(trace).filter(
      (f) => f.dir === 's2c' && f.seq > cancel.seq && isResponse(f.msg) && f.msg.id === id,
    );
    assert.deepEqual(lateResponses, [], 'no response with that id is written after the cancel frame');
    assert.deepEqual(responsesFor(trace, id), [], 'nor before it: the call never got a response');
  });

  test('client goes RUNNING → CANCEL_REQUESTED → STOPPED_LOCALLY at the Stop instant', async () => {
    const states = clientStates(trace, 'A');
    assert.deepEqual(
      states.map((e) => [e.t, e.from, e.to]),
      [
        [20, null, 'RUNNING'],
        [240, 'RUNNING', 'CANCEL_REQUESTED'],
        [240, 'CANCEL_REQUESTED', 'STOPPED_LOCALLY'],
      ],
    );
    const settled = notesOf(trace, 'call-settled').filter((e) => e.note.call === 'A');
    assert.equal(settled.length, 1);
    assert.equal(defined(settled[0]).note.outcome, 'error', 'callTool rejected (aborted)');
    assert.equal(defined(settled[0]).t, 240, 'the local wait ends at Stop, not when the server reacts');
  });

  test('server handler sees the cancel and its response is suppressed', async () => {
    const id = requestIdOf(trace, 'A');
    const states = serverStates(trace, id);
    assert.deepEqual(
      states.map((e) => [e.t, e.to]),
      [
        [25, 'running'],
        [245, 'cancellation seen'],
        // slow_count observes the signal: it stops by throwing (it unwinds), and the SDK writes nothing.
        [245, 'threw'],
        [245, 'response suppressed'],
      ],
    );
    const seen = notesOf(trace, 'handler-cancel-seen').filter((e) => e.note.requestId === id);
    assert.equal(seen.length, 1);
    assert.equal(defined(seen[0]).t, 245, 'the cancel reaches the server one c2s latency after Stop');
  });
});

describe('stubborn handler that ignores the cancel', () => {
  const s = scenario([call(20, 'A', 'stubborn', { ms: 300 }), stop(100, 'A')]);
  let trace: TraceEvent[] = [];
  before(async () => {
    trace = await runHeadless(s, sides);
  });

  test('returns later with aborted:true, and the server writes no frame with that id', async () => {
    assertNoEngineErrors(trace);
    assertWireInvariants(s, trace);
    const id = requestIdOf(trace, 'A');
    const stopAt = defined(userActions(trace).find((e) => e.action.type === 'stop')).t;
    assert.equal(stopAt, 100);

    const returned = notesOf(trace, 'handler-returned').filter((e) => e.note.requestId === id);
    assert.equal(returned.length, 1);
    assert.ok(defined(returned[0]).t > stopAt, 'handler returns after Stop');
    assert.equal(defined(returned[0]).t, 25 + 300, 'it ran its full 300 ms from arrival');
    assert.equal(defined(returned[0]).note.aborted, true, 'its signal was aborted when it returned');
    assert.equal(notesOf(trace, 'handler-cancel-seen').filter((e) => e.note.requestId === id)[0]?.t, 105);

    const serverFramesWithId = framesOf(trace).filter((f) => f.dir === 's2c' && f.msg?.id === id);
    assert.deepEqual(serverFramesWithId, [], 'no response (result or error) for the cancelled request');
    assert.equal(serverStates(trace, id).at(-1)?.to, 'response suppressed');
    assert.equal(clientStates(trace, 'A').at(-1)?.to, 'STOPPED_LOCALLY');
  });
});

describe('ledger_write: Stop is not a rollback', () => {
  const args = { key: 'order-42', value: 'paid', commitAfterMs: 100, totalMs: 400 };

  test('stopped after the commit: the commit stays, the call ends STOPPED_LOCALLY', async () => {
    const s = scenario([call(20, 'L', 'ledger_write', args), stop(20 + 200, 'L')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    assertWireInvariants(s, trace);
    const id = requestIdOf(trace, 'L');
    const commits = notesOf(trace, 'ledger-commit');
    assert.equal(commits.length, 1);
    assert.deepEqual(defined(commits[0]).note, { type: 'ledger-commit', requestId: id, key: 'order-42', value: 'paid' });
    assert.equal(defined(commits[0]).t, 25 + 100, 'committed commitAfterMs after the request arrived');
    assert.equal(clientStates(trace, 'L').at(-1)?.to, 'STOPPED_LOCALLY');
    assert.deepEqual(responsesFor(trace, id), []);
    assert.equal(serverStates(trace, id).at(-1)?.to, 'response suppressed');
  });

  test('stopped before commitAfterMs: no commit at all', async () => {
    const s = scenario([call(20, 'L', 'ledger_write', args), stop(20 + 50, 'L')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    assertWireInvariants(s, trace);
    assert.deepEqual(notesOf(trace, 'ledger-commit'), []);
    const id = requestIdOf(trace, 'L');
    const unwound = notesOf(trace, 'handler-threw').filter((e) => e.note.requestId === id);
    assert.deepEqual(
      unwound.map((e) => [e.t, e.note.aborted]),
      [[75, true]],
      'the handler unwound as soon as the cancel arrived',
    );
    assert.equal(clientStates(trace, 'L').at(-1)?.to, 'STOPPED_LOCALLY');
  });

  test('Stop pressed before the server commits, but the cancel arrives too late: the commit happens', async () => {
    // Commit is due on the server at 125. Stop at 122 → cancel arrives 127.
    const s = scenario([call(20, 'L', 'ledger_write', args), stop(122, 'L')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    const commits = notesOf(trace, 'ledger-commit');
    assert.deepEqual(
      commits.map((e) => e.t),
      [125],
    );
    const stopEvent = defined(userActions(trace).find((e) => e.action.type === 'stop'));
    assert.ok(stopEvent.seq < defined(commits[0]).seq, 'the user pressed Stop before the commit happened');
    assert.equal(clientStates(trace, 'L').at(-1)?.to, 'STOPPED_LOCALLY');
  });

  test('cancel arriving 1 ms before the commit prevents it', async () => {
    // Stop at 119 → cancel arrives 124 < 125.
    const s = scenario([call(20, 'L', 'ledger_write', args), stop(119, 'L')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    assert.deepEqual(notesOf(trace, 'ledger-commit'), []);
  });
});

describe('a response injected after Stop', () => {
  for (const outcome of ['result', 'error'] as const) {
    test(`(${outcome}) is delivered, reported as unknown id, and ignored: the call stays STOPPED_LOCALLY`, async () => {
      // The stubborn handler would return at 325; the forged response goes out at 150, before it.
      const s = scenario([call(20, 'A', 'stubborn', { ms: 300 }), stop(100, 'A'), inject(150, 'A', outcome)]);
      const trace = await runHeadless(s, sides);
      assertNoEngineErrors(trace);
      assertWireInvariants(s, trace);
      const id = requestIdOf(trace, 'A');

      const injected = framesOf(trace).filter((f) => f.injected === true);
      assert.equal(injected.length, 1);
      const forged = defined(injected[0]);
      assert.equal(forged.dir, 's2c');
      assert.equal(forged.t, 150);
      assert.ok(isResponse(forged.msg));
      assert.equal(forged.msg?.id, id);
      assert.equal(outcome === 'result' ? forged.msg?.result !== undefined : forged.msg?.error !== undefined, true);
      const delivered = deliveryOf(trace, forged);
      assert.equal(delivered.t, 155);
      // Only the forged frame carries the id: the real handler's result is still suppressed.
      assert.deepEqual(
        responsesFor(trace, id).map((f) => f.frame),
        [forged.frame],
      );

      const onerror = notesOf(trace, 'client-onerror').filter((e) =>
        e.note.message.startsWith('Received a response for an unknown message ID'),
      );
      assert.equal(onerror.length, 1);
      assert.equal(defined(onerror[0]).side, 'client');
      assert.equal(defined(onerror[0]).t, 155);
      assert.ok(defined(onerror[0]).seq > delivered.seq);

      const states = clientStates(trace, 'A');
      const ignored = states.filter((e) => e.from === 'STOPPED_LOCALLY' && e.to === 'STOPPED_LOCALLY');
      assert.deepEqual(
        ignored.map((e) => [e.t, e.because]),
        [[155, 'ignored: arrived after Stop']],
      );
      assert.equal(states.at(-1)?.to, 'STOPPED_LOCALLY');
      assert.equal(notesOf(trace, 'call-settled').length, 1, 'callTool settled once, at Stop');
    });
  }
});

describe('Stop when there is nothing (more) to cancel', () => {
  test('Stop after the result arrived sends nothing and is ignored', async () => {
    // quick at 20 → answered at 25 → result arrives at 30; Stop at 40.
    const s = scenario([call(20, 'Q', 'quick'), stop(40, 'Q')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    assert.deepEqual(framesWithMethod(trace, 'notifications/cancelled'), []);
    assert.deepEqual(
      clientStates(trace, 'Q').map((e) => [e.t, e.from, e.to, e.because]),
      [
        [20, null, 'RUNNING', 'Call pressed'],
        [30, 'RUNNING', 'SUCCEEDED', 'result'],
        [40, 'SUCCEEDED', 'SUCCEEDED', 'ignored: not running'],
      ],
    );
  });

  test('a second Stop sends no second cancel', async () => {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(60, 'A'), stop(70, 'A')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    assert.deepEqual(
      framesWithMethod(trace, 'notifications/cancelled').map((f) => f.t),
      [60],
    );
    assert.deepEqual(
      clientStates(trace, 'A').map((e) => [e.t, e.to, e.because]),
      [
        [20, 'RUNNING', 'Call pressed'],
        [60, 'CANCEL_REQUESTED', 'Stop pressed'],
        [60, 'STOPPED_LOCALLY', 'local wait ended'],
        [70, 'STOPPED_LOCALLY', 'ignored: not running'],
      ],
    );
  });

  test('a progress notification already in flight at Stop is dropped by the client', async () => {
    // Arrives 25; progress 1 written at 35 (timer before the Stop at 35), delivered at 40.
    const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 10 }), stop(35, 'A')]);
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    const progress = framesWithMethod(trace, 'notifications/progress');
    assert.deepEqual(
      progress.map((f) => [f.t, deliveryOf(trace, f).t]),
      [[35, 40]],
    );
    assert.deepEqual(notesOf(trace, 'progress-received'), [], 'onprogress is not called after Stop');
    const dropped = notesOf(trace, 'client-onerror').filter((e) =>
      e.note.message.startsWith('Received a progress notification for an unknown token'),
    );
    assert.deepEqual(
      dropped.map((e) => e.t),
      [40],
    );
    assert.equal(clientStates(trace, 'A').at(-1)?.t, 35, 'the dropped progress changes no state');
  });
});

describe('a second response for a settled call', () => {
  test('a response arriving after the call already SUCCEEDED is ignored without an engine error', async () => {
    // The forged result settles the call at 55; the real one (written 125) arrives at 130.
    const s = scenario([call(20, 'A', 'stubborn', { ms: 100 }), inject(50, 'A')]);
    const trace = await runHeadless(s, sides);
    const states = clientStates(trace, 'A');
    assert.equal(states.at(-1)?.to, 'SUCCEEDED');
    assert.equal(states.at(-1)?.t, 130);
    assert.equal(states.at(-1)?.because, 'ignored: already settled');
    assertNoEngineErrors(trace);
  });

  test('a response arriving after the client timed out (FAILED) is ignored without an engine error', async () => {
    // SDK default request timeout is 60 s: it fires at 60 020; the server answers at 60 025.
    const s = scenario([call(20, 'A', 'stubborn', { ms: 60_000 })], { endAt: 61_000 });
    const trace = await runHeadless(s, sides);
    const states = clientStates(trace, 'A');
    assert.deepEqual(
      states.map((e) => [e.t, e.to]),
      [
        [20, 'RUNNING'],
        [60_020, 'FAILED'],
        [60_030, 'FAILED'],
      ],
    );
    assertNoEngineErrors(trace);
  });
});
