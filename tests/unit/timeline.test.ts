/**
 * The timeline model (src/views/timeline.ts): lanes, arrows and marks as the trace shows them,
 * on real runs of library scenarios and on hand-built traces for the wire states a run rarely
 * stops in (held, in flight, dropped by a fault).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { createTimelineBuilder, describeTimeline, timelineModel, type TimelineArrow, type TimelineModel } from '../../src/views/timeline.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';

const sides = createNodeSides();
after(() => sides.close());

async function libraryRun(id: string): Promise<TraceEvent[]> {
  const entry = libraryEntry(id);
  assert.ok(entry, `${id} is in the library`);
  return runHeadless(entry.scenario, sides);
}

function arrow(model: TimelineModel, match: (a: TimelineArrow) => boolean, what: string): TimelineArrow {
  const found = model.arrows.filter(match);
  assert.equal(found.length, 1, `exactly one ${what}`);
  return found[0] as TimelineArrow;
}

const isCancel = (a: TimelineArrow): boolean => a.label.startsWith('notifications/cancelled');
const isToolResult = (a: TimelineArrow): boolean => a.label.startsWith('result of tools/call');

test('race R2: the response and the cancel are two arrows that cross', async () => {
  const trace = await libraryRun('race-r2-response-crosses-cancel');
  const model = timelineModel(trace);
  assert.deepEqual(model.lanes.map((l) => l.id), ['client', 'server']);
  const cancel = arrow(model, isCancel, 'cancel');
  const response = arrow(model, isToolResult, 'tools/call result');
  assert.deepEqual([cancel.fromLane, cancel.toLane, response.fromLane, response.toLane], ['client', 'server', 'server', 'client']);
  assert.equal(cancel.state, 'delivered');
  assert.equal(response.state, 'delivered');
  const [cancelAt, responseAt] = [cancel.deliveredAt ?? NaN, response.deliveredAt ?? NaN];
  assert.ok(cancel.sentAt < responseAt, `the cancel (sent ${cancel.sentAt}) left before the result arrived (${responseAt})`);
  assert.ok(response.sentAt < cancelAt, `the result (sent ${response.sentAt}) left before the cancel arrived (${cancelAt})`);
  assert.deepEqual([cancel.sentAt, cancelAt, response.sentAt, responseAt], [370, 420, 350, 400], 'the times the scenario states');
  assert.equal(response.crossesCancel, cancel.frame);
  assert.equal(cancel.crossesResponse, response.frame);
  assert.equal(model.arrows.filter((a) => a.crossesCancel !== undefined || a.crossesResponse !== undefined).length, 2, 'nothing else crosses');
  assert.equal(response.late, true, 'the result reached the client after Stop');
  const marks = model.marks.map((m) => [m.kind, m.t, m.lane]);
  assert.deepEqual(marks, [
    ['stop', 370, 'client'],
    ['late', 400, 'client'],
  ]);
  assert.equal(model.tEnd, trace.at(-1)?.t);
});

test('race R1 (a delayed cancel) crosses too; a cancel sent after the response arrived does not', async () => {
  const r1 = timelineModel(await libraryRun('race-r1-cancel-after-response'));
  const slow = arrow(r1, isCancel, 'cancel');
  assert.equal(slow.fault, 'delayed');
  assert.equal(arrow(r1, isToolResult, 'tools/call result').crossesCancel, slow.frame, 'the result left and landed while the cancel was on the wire');

  // The TypeScript v1 client cancels a call it already has the answer to.
  const model = timelineModel(await libraryRun('sdk-ts-v1-client-cancels-answered-id'));
  const response = arrow(model, isToolResult, 'tools/call result');
  const cancel = arrow(model, isCancel, 'cancel');
  assert.ok((response.deliveredAt ?? Infinity) < cancel.sentAt);
  assert.equal(response.crossesCancel, undefined);
  assert.equal(cancel.crossesResponse, undefined);
  assert.equal(response.late, false, 'it arrived before Stop');
  assert.equal(model.marks.some((m) => m.kind === 'late'), false);
});

test('stateless HTTP: one client lane per HTTP stream, each frame on its own stream', async () => {
  const trace = await libraryRun('sdk-stateless-http-loses-cancel');
  const model = timelineModel(trace);
  const streams = [...new Set(trace.flatMap((e) => (e.kind === 'frame' && e.http ? [e.http.stream] : [])))].sort((a, b) => a - b);
  assert.ok(streams.length >= 4, 'the run opens several streams');
  assert.deepEqual(model.lanes.map((l) => l.id), [...streams.map((s) => `stream-${s}`), 'server']);
  assert.deepEqual(model.lanes.map((l) => l.side), [...streams.map(() => 'client'), 'server']);
  for (const e of trace) {
    if (e.kind !== 'frame' || !e.http) continue;
    const a = model.arrows.find((x) => x.frame === e.frame);
    assert.equal(e.dir === 'c2s' ? a?.fromLane : a?.toLane, `stream-${e.http.stream}`, `frame ${e.frame} on its stream's lane`);
  }
  const call = arrow(model, (a) => a.label.startsWith('tools/call'), 'tools/call request');
  const cancel = arrow(model, isCancel, 'cancel');
  const response = arrow(model, isToolResult, 'tools/call result');
  assert.notEqual(cancel.fromLane, call.fromLane, 'the cancel is a POST of its own');
  assert.equal(response.toLane, call.fromLane, 'the late result comes back on the call’s stream');
  assert.equal(model.lanes.find((l) => l.id === call.fromLane)?.title, `stream ${call.fromLane.slice('stream-'.length)}: POST tools/call`);
  assert.equal(response.crossesCancel, undefined, 'the cancel had long arrived when the result was written');
  const late = model.marks.find((m) => m.kind === 'late');
  assert.deepEqual([late?.lane, late?.t], [call.fromLane, response.deliveredAt]);
  assert.equal(model.marks.find((m) => m.kind === 'stop')?.lane, call.fromLane, 'Stop sits on the stopped call’s stream');
  assert.equal(model.arrows.filter((a) => a.kind === 'framing').length > 0, true);
  const messages = timelineModel(trace, { messagesOnly: true });
  assert.ok(messages.arrows.every((a) => a.kind !== 'framing') && messages.arrows.length < model.arrows.length);
});

test('a server crash, the disconnect it causes and the reconnect are marked', async () => {
  const trace = await libraryRun('race-r7-server-crash-mid-request');
  const model = timelineModel(trace);
  const at = (event: string): number => trace.find((e) => e.kind === 'connection' && e.event === event)?.t ?? NaN;
  assert.deepEqual(
    model.marks.map((m) => [m.kind, m.lane, m.t]),
    [
      ['crash', 'server', at('crashed')],
      ['disconnect', 'server', at('disconnected')],
      ['reconnect', 'client', at('reconnecting')],
    ],
  );
  assert.match(model.marks[0]?.label ?? '', /killed by the user/);
  assert.match(describeTimeline(model), /1 crash, 1 disconnect, 1 reconnect/);
});

test('2026-07-28 HTTP: closing the stream is the cancel', async () => {
  const trace = await libraryRun('transport-2026-http-close-stream-is-cancel');
  const model = timelineModel(trace);
  const cancels = model.arrows.filter((a) => a.cancel);
  assert.equal(cancels.length, 1);
  const call = arrow(model, (a) => a.label.startsWith('tools/call'), 'tools/call request');
  assert.deepEqual([cancels[0]?.kind, cancels[0]?.label, cancels[0]?.fromLane], ['framing', 'stream closed by client', call.fromLane]);
  assert.equal(cancels[0]?.sentAt, model.marks.find((m) => m.kind === 'stop')?.t, 'written as Stop is pressed');
  assert.equal(model.arrows.some(isCancel), false, 'no notifications/cancelled');
});

test('a strict host’s reconnect: the cancel written on the closed connection reaches nobody', async () => {
  const trace = await libraryRun('race-r2-strict-host-reconnects');
  const model = timelineModel(trace);
  const cancel = arrow(model, isCancel, 'cancel');
  assert.equal(cancel.state, 'dropped');
  assert.equal(cancel.deliveredAt, null);
  assert.equal(cancel.end.reach, 1, 'it crossed the wire: the cross is on the server’s lane');
  assert.match(cancel.droppedBecause ?? '', /connection was closed/);
});

test('held, released, in flight and dropped frames, as far as the trace has got', () => {
  const b = traceBuilder({ c2s: 10, s2c: 10 });
  handshake(b);
  const call = toolCall(b, 'A', 1);
  b.at(100);
  const progress = b.progress('s2c', 'p', 1);
  progress.deliverAt = null;
  progress.fault = 'dropped';
  const held = b.result('s2c', 1, { content: [] });
  held.deliverAt = null;
  held.fault = 'held';
  b.at(150);
  const holdUntil = b.trace.length - 1;
  b.action({ type: 'release', dir: 's2c' });
  b.at(155);
  b.note('server', { type: 'stderr', text: 'time passes' });
  const midFlight = b.trace.length - 1;
  b.deliver({ ...held, deliverAt: 160 });
  const injected = b.cancel('c2s', 1, { injected: true });

  const atHold = timelineModel(b.trace, { until: holdUntil });
  const h = atHold.arrows.find((a) => a.frame === held.frame);
  assert.deepEqual([h?.state, h?.releasedAt, h?.end], ['held', null, { t: 100, reach: 0 }]);
  const dropped = atHold.arrows.find((a) => a.frame === progress.frame);
  assert.deepEqual([dropped?.state, dropped?.deliveredAt], ['dropped', null]);
  assert.ok((dropped?.end.reach ?? 1) < 1, 'dropped by the wire as it was written: it never reached the client');

  // Released at 150, moving at the s2c latency the trace shows (10 ms): halfway at 155.
  const moving = timelineModel(b.trace, { until: midFlight }).arrows.find((a) => a.frame === held.frame);
  assert.deepEqual([moving?.state, moving?.releasedAt, moving?.end], ['in-flight', 150, { t: 155, reach: 0.5 }]);

  const whole = timelineModel(b.trace);
  const done = whole.arrows.find((a) => a.frame === held.frame);
  assert.deepEqual([done?.state, done?.sentAt, done?.releasedAt, done?.deliveredAt], ['delivered', 100, 150, 160]);
  const forged = whole.arrows.find((a) => a.frame === injected.frame);
  assert.deepEqual([forged?.injected, forged?.state, forged?.end], [true, 'in-flight', { t: 160, reach: 0 }]);
  assert.equal(whole.arrows.find((a) => a.frame === call.frame)?.kind, 'request');
  assert.match(describeTimeline(whole), /1 frame in flight, 1 frame dropped, 1 injected frame/);
});

test('until cuts the trace at a position: the model is that of the prefix', async () => {
  const trace = await libraryRun('race-r2-response-crosses-cancel');
  const stop = trace.findIndex((e) => e.kind === 'user-action' && e.action.type === 'stop');
  const cut = timelineModel(trace, { until: stop });
  assert.deepEqual(cut, timelineModel(trace.slice(0, stop + 1)));
  assert.equal(cut.tEnd, 370);
  const response = arrow(cut, isToolResult, 'tools/call result');
  // Written at 350, due at 400: at 370 it is 40% of the way.
  assert.deepEqual([response.state, response.end], ['in-flight', { t: 370, reach: 0.4 }]);
  assert.equal(response.late, false, 'not yet arrived');
  assert.equal(cut.arrows.some(isCancel), false, 'the cancel is written after Stop');
  assert.deepEqual(timelineModel(trace, { until: -1 }).arrows, []);
});

test('built event by event, the model is the whole-trace model, and unchanged arrows keep their identity', async () => {
  const trace = await libraryRun('sdk-stateless-http-loses-cancel');
  const builder = createTimelineBuilder();
  let previous: TimelineModel | null = null;
  let kept = 0;
  for (const e of trace) {
    builder.add(e);
    const model = builder.model();
    for (const a of previous?.arrows ?? []) {
      const now = model.arrows.find((x) => x.frame === a.frame);
      if (now === a) kept++;
      else assert.notDeepEqual(now, a, `frame ${a.frame} is a new object only when it changed`);
    }
    previous = model;
  }
  assert.ok(kept > trace.length, 'most arrows are the same objects from one model to the next');
  assert.deepEqual(previous, timelineModel(trace));
});

test('findings are marked at their latest witness, on the lane where it happened', async () => {
  const trace = await libraryRun('race-r2-response-crosses-cancel');
  const cancelFrame = trace.find((e) => e.kind === 'frame' && e.msg?.method === 'notifications/cancelled');
  const delivery = trace.find((e) => e.kind === 'delivery' && cancelFrame?.kind === 'frame' && e.frame === cancelFrame.frame);
  assert.ok(cancelFrame && delivery);
  const model = timelineModel(trace, {
    findings: [
      { witnesses: [cancelFrame.seq, delivery.seq], severity: 'warning', rule: 'SOME-RULE' },
      { witnesses: [cancelFrame.seq], severity: 'error' },
      { witnesses: [trace.length + 5], severity: 'info' },
    ],
  });
  const findings = model.marks.filter((m) => m.kind === 'finding');
  assert.deepEqual(
    findings.map((m) => [m.seq, m.t, m.lane, m.severity, m.label]),
    [
      [cancelFrame.seq, 370, 'client', 'error', 'error'],
      [delivery.seq, 420, 'server', 'warning', 'warning SOME-RULE'],
    ],
    'a witness past the end of the trace (cut by until) marks nothing',
  );
});

test('an empty trace still has both lifelines', () => {
  const model = timelineModel([]);
  assert.deepEqual(model.lanes.map((l) => l.id), ['client', 'server']);
  assert.deepEqual([model.arrows, model.marks, model.tEnd], [[], [], 0]);
});
