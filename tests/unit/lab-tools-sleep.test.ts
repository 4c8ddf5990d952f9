/**
 * The tools' sleep, on a side's virtual clock (runtime.ts: this thread's one side): each step of
 * slow_count sleeps on the call's one signal, and takes its abort listener off again when its
 * time is up, so that a long count leaves no listener per step behind on that signal; an abort
 * still ends the sleep at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fireTimerAt, runAt } from '../../workers/runtime.ts';
import { sleep } from '../../workers/lab-tools.ts';

/** An AbortController whose signal counts the abort listeners on it. */
function countedController(): { controller: AbortController; listening: () => number } {
  const controller = new AbortController();
  const { signal } = controller;
  let count = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => {
    count++;
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<typeof remove>) => {
    count--;
    remove(...args);
  };
  return { controller, listening: () => count };
}

test('ten sleeps in a row on one signal leave no abort listener on it', async () => {
  const { controller, listening } = countedController();
  let slept = 0;
  let most = 0;
  await runAt(0, () => {
    void (async () => {
      for (let i = 1; i <= 10; i++) {
        await sleep(1, controller.signal);
        slept = i;
      }
    })();
  });
  for (let t = 1; t <= 10; t++) {
    most = Math.max(most, listening());
    await fireTimerAt(t);
  }
  assert.equal(slept, 10);
  assert.equal(most, 1, 'one listener at a time: the sleep under way');
  assert.equal(listening(), 0);
});

test('an abort ends a sleep at once, its timer cleared', async () => {
  const { controller, listening } = countedController();
  let woke = false;
  const step = await runAt(100, () => void sleep(1000, controller.signal).then(() => (woke = true)));
  assert.equal(step.nextTimerAt, 1100, 'the sleep set its timer');
  const aborted = await runAt(200, () => controller.abort());
  assert.equal(woke, true);
  assert.equal(aborted.nextTimerAt, null, 'no timer left');
  assert.equal(listening(), 1, 'the listener was added once, and went with the abort (a once listener)');
});
