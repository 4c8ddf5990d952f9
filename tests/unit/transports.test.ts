/**
 * Every revision × transport the picker allows, on the real SDK: the cancel signal each uses,
 * what reaches the client after Stop, and the negotiated version read off the trace.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { allowedCombinations, whyNot } from '../../src/scenario/combinations.ts';
import { negotiated } from '../../src/views/derive.ts';
import type { FrameEvent } from '../../src/trace/index.ts';
import {
  assertNoEngineErrors,
  call,
  clientStates,
  deliveryOf,
  framesOf,
  framesWithMethod,
  notesOf,
  requestIdOf,
  scenario,
  stop,
  toolCallFrame,
} from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const STOP_AT = 280;

describe('slow_count + Stop on every allowed combination', () => {
  for (const combo of allowedCombinations()) {
    const name = `${combo.revision} over ${combo.transport}${combo.transport === 'streamable-http' ? ` (${combo.httpServer})` : ''}`;
    test(name, async () => {
      const s = scenario([call(50, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(STOP_AT, 'A')], { ...combo, endAt: 3000 });
      const trace = await runHeadless(s, sides);
      assertNoEngineErrors(trace);

      assert.equal(negotiated(trace)?.protocolVersion, combo.revision, 'negotiated version');
      const id = requestIdOf(trace, 'A');
      const request = toolCallFrame(trace, 'A');
      const cancels = framesWithMethod(trace, 'notifications/cancelled', 'c2s');
      const modernHttp = combo.transport === 'streamable-http' && combo.revision === '2026-07-28';
      if (modernHttp) {
        // 2026-07-28 Streamable HTTP: closing the request's response stream is the cancel.
        assert.equal(cancels.length, 0, 'no notifications/cancelled on 2026-07-28 HTTP');
        const aborts = framesOf(trace).filter((f) => f.http?.part === 'abort');
        assert.equal(aborts.length, 1);
        assert.equal(aborts[0]?.http?.stream, request.http?.stream, 'the abort closes the tools/call stream');
        assert.equal(aborts[0]?.t, STOP_AT);
        const seen = notesOf(trace, 'handler-cancel-seen').find((n) => n.note.requestId === id);
        assert.match(seen?.note.reason ?? '', /Connection closed/, 'the handler sees the disconnect');
      } else {
        assert.equal(cancels.length, 1, 'one notifications/cancelled');
        assert.deepEqual(cancels[0]?.msg?.params?.requestId, id);
        assert.equal(cancels[0]?.t, STOP_AT);
      }

      const stoppedAt = clientStates(trace, 'A').find((e) => e.to === 'STOPPED_LOCALLY')?.t;
      assert.equal(stoppedAt, STOP_AT);
      const resultsAfterStop = framesOf(trace).filter(
        (f: FrameEvent) => f.dir === 's2c' && f.msg?.id === id && f.msg.method === undefined && deliveryOf(trace, f).t > STOP_AT,
      );
      if (combo.transport === 'streamable-http' && combo.httpServer === 'stateless' && !modernHttp) {
        // createMcpHandler's 2025 fallback: the cancel POST reaches a fresh instance and is lost.
        assert.equal(resultsAfterStop.length, 1, 'the lost cancel lets the result through');
        assert.equal(clientStates(trace, 'A').at(-1)?.because, 'ignored: arrived after Stop');
      } else {
        assert.equal(resultsAfterStop.length, 0, 'no result reaches the client after Stop');
      }
      assert.equal(clientStates(trace, 'A').at(-1)?.to, 'STOPPED_LOCALLY');
    });
  }
});

test('stateless 2025 HTTP + stubborn + Stop: the cancel is lost, the late result arrives and is dropped', async () => {
  const s = scenario([call(50, 'A', 'stubborn', { ms: 300 }), stop(100, 'A')], {
    revision: '2025-11-25',
    transport: 'streamable-http',
    httpServer: 'stateless',
  });
  const trace = await runHeadless(s, sides);
  const id = requestIdOf(trace, 'A');
  const cancel = framesWithMethod(trace, 'notifications/cancelled', 'c2s')[0];
  assert.ok(cancel?.http, 'the cancel is POSTed');
  const accepted = framesOf(trace).find((f) => f.http?.stream === cancel.http?.stream && f.http?.part === 'response-head');
  assert.equal(accepted?.http?.status, 202, 'the fresh instance accepts it');
  assert.equal(notesOf(trace, 'handler-cancel-seen').filter((n) => n.note.requestId === id && n.t < 355).length, 0, 'the handler never hears of it');
  const result = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === id && f.msg.result !== undefined);
  assert.ok(result, 'the late result is written');
  assert.equal(deliveryOf(trace, result).t, 355 + 5);
  const dropped = notesOf(trace, 'client-onerror').find((n) => n.note.message.startsWith('Received a response for an unknown message ID'));
  assert.ok(dropped, 'the client SDK reports the unknown id');
  assert.deepEqual(
    clientStates(trace, 'A').map((e) => e.to),
    ['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY', 'STOPPED_LOCALLY'],
  );
});

test('sessionful 2025 HTTP: the cancelled request’s SSE stream stays open', async () => {
  const s = scenario([call(50, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(STOP_AT, 'A')], {
    revision: '2025-06-18',
    transport: 'streamable-http',
    httpServer: 'sessionful',
    endAt: 5000,
  });
  const trace = await runHeadless(s, sides);
  const stream = toolCallFrame(trace, 'A').http?.stream;
  assert.ok(stream !== undefined);
  const closes = trace.filter((e) => e.kind === 'connection' && e.event === 'stream-closed' && e.stream === stream);
  assert.deepEqual(closes, [], 'nobody closes it');
  assert.ok(trace.some((e) => e.kind === 'connection' && e.event === 'session-created'));
});

test('the picker refuses what the SDK cannot make, with a reason', () => {
  assert.match(whyNot('2025-11-25', 'http-sse') ?? '', /2024-11-05/);
  assert.match(whyNot('2024-11-05', 'streamable-http') ?? '', /2025-03-26/);
  assert.match(whyNot('2026-07-28', 'streamable-http', 'sessionful') ?? '', /sessions/);
  assert.equal(whyNot('2026-07-28', 'stdio'), null);
  assert.equal(allowedCombinations().length, 5 + 1 + 3 * 2 + 1);
});
