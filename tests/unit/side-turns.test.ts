/**
 * Both sides in one browser worker take turns (workers/side-turns.ts): a step's timers, Date and
 * randomness are its own side's, even while the other side's step waits to run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inTurn } from '../../workers/side-turns.ts';
import { SideState } from '../../workers/runtime.ts';

const macrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('two sides\' steps run one after the other, each on its own clock', async () => {
  const client = new SideState();
  const server = new SideState();
  client.reset(100);
  server.reset(250);
  const order: string[] = [];
  const step = (name: string, state: SideState) =>
    inTurn(state, async () => {
      order.push(`${name} starts at ${Date.now()}`);
      await macrotask();
      const fired = new Promise<number>((resolve) => setTimeout(() => resolve(Date.now()), 5));
      state.clock.next();
      const at = await fired;
      order.push(`${name} ends at ${Date.now()}`);
      return at;
    });
  const [c, s] = await Promise.all([step('client', client), step('server', server)]);
  assert.deepEqual([c, s], [105, 255]);
  assert.deepEqual(order, ['client starts at 100', 'client ends at 105', 'server starts at 250', 'server ends at 255']);
  // Outside any step, the real clock.
  assert.ok(Math.abs(Date.now() - performance.timeOrigin - performance.now()) < 1000);
});

test('a step that fails does not hold up the next one', async () => {
  const a = new SideState();
  const b = new SideState();
  b.reset(7);
  const failed = inTurn(a, () => Promise.reject(new Error('side failed')));
  const next = inTurn(b, async () => Date.now());
  await assert.rejects(failed, /side failed/);
  assert.equal(await next, 7);
});
