/**
 * The channel between the coordinator and a side in another thread (workers/side-channel.ts):
 * each call's answer comes back to that call, in whatever order the side answers; a side's
 * error comes back as an Error with its message and name, whether it threw or rejected.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { exposeSide, heldFromNow, nodePort, sideOver, withFirst, type Port } from '../../workers/side-channel.ts';
import type { SideApi, StepResult } from '../../src/engine/index.ts';

const quiet = (t: number): StepResult => ({ out: [{ kind: 'note', note: { type: 'stderr', text: `at ${t}` } }], nextTimerAt: null });

/** `side` at the far end of a MessageChannel, as a worker's side is; the ports close after the test. */
function pair(t: TestContext, side: Required<SideApi<{ type: 'crash' }>>): Required<SideApi<{ type: 'crash' }>> {
  const { port1, port2 } = new MessageChannel();
  exposeSide(side, nodePort(port2));
  t.after(() => {
    port1.close();
    port2.close();
  });
  return sideOver<{ type: 'crash' }>(nodePort(port1));
}

test('answers reach their own calls, even when a later call is answered first', async (t) => {
  const remote = pair(t, {
    init: async (_config, at) => quiet(at),
    // The first frame takes longer than the second.
    deliver: (at, frame) => new Promise((done) => setTimeout(() => done(quiet(at + frame.raw.length)), frame.raw.length)),
    fireTimer: async (at) => quiet(at),
    act: async (at) => quiet(at),
    batch: async (plan) => [{ kind: 'timer', t: plan.from, result: quiet(plan.from) }],
  });
  const [slow, fast] = await Promise.all([remote.deliver(1, { raw: 'x'.repeat(30) }), remote.deliver(2, { raw: 'y' })]);
  assert.deepEqual(slow, quiet(31));
  assert.deepEqual(fast, quiet(3));
  const steps = await remote.batch({ from: 7, deliveries: [], before: 10, through: 10, most: 5, stopOn: [] });
  assert.deepEqual(steps, [{ kind: 'timer', t: 7, result: quiet(7) }]);
});

test("a side's error comes back with its message and name, thrown or rejected", async (t) => {
  const remote = pair(t, {
    init: async () => {
      throw new TypeError('no such profile');
    },
    deliver: () => {
      throw new RangeError('virtual time ran backwards: 5 → 3');
    },
    fireTimer: (at) => Promise.reject(new Error(`asked to fire a timer at ${at}, earliest is null`)),
    act: async (at) => quiet(at),
    batch: async () => [],
  });
  await assert.rejects(remote.fireTimer(9), { name: 'Error', message: 'asked to fire a timer at 9, earliest is null' });
  await assert.rejects(remote.deliver(3, { raw: '{}' }), { name: 'RangeError', message: 'virtual time ran backwards: 5 → 3' });
  await assert.rejects(
    remote.init({ revision: '2025-11-25', transport: 'stdio', httpServer: 'sessionful', serverProfile: 'ts-v2', clientProfile: 'ts-v2' }, 0),
    { name: 'TypeError', message: 'no such profile' },
  );
  assert.deepEqual(await remote.act(4, { type: 'crash' }), quiet(4), 'the channel still answers after errors');
});

/** A port whose messages the test sends by hand, as a worker's own port delivers them: to the listeners there are, now. */
function handPort(): { port: Port; send(message: unknown): void; sent: unknown[] } {
  const listeners: ((message: unknown) => void)[] = [];
  const sent: unknown[] = [];
  return {
    port: { postMessage: (message) => sent.push(message), listen: (handler) => void listeners.push(handler) },
    send: (message) => listeners.forEach((l) => l(message)),
    sent,
  };
}

test('withFirst hands its messages first, those added before the listener came among them, then what the port brings', () => {
  const { port, send, sent } = handPort();
  const kept = ['a'];
  const first = withFirst(port, kept);
  kept.push('b');
  const got: unknown[] = [];
  first.listen((m) => got.push(m));
  send('c');
  first.postMessage('out');
  assert.deepEqual(got, ['a', 'b', 'c']);
  assert.deepEqual(sent, ['out']);
});

test('heldFromNow keeps what comes before its listener, in order, and then passes everything on', () => {
  const { port, send } = handPort();
  const held = heldFromNow(port);
  send(1);
  send(2);
  const got: unknown[] = [];
  held.listen((m) => got.push(m));
  send(3);
  assert.deepEqual(got, [1, 2, 3]);
});
