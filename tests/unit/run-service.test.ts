/**
 * The playground's run, played in the sides' worker (workers/run-service.ts) and read by the page
 * through RemoteRun (site/lib/remote-run.ts): the browser worker's own modules in a Node worker
 * thread, the page's handle in this one, over the thread's own port. Every library scenario
 * gives its recorded trace this way too, however the page slices the work; and the explorer's
 * lanes on those modules give the records a pair of sides in this process gives.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { LIBRARY, libraryEntry } from '../../src/scenario/library.ts';
import { traceHash } from '../../src/trace/hash.ts';
import { RemoteRun, RunChannel } from '../../site/lib/remote-run.ts';
import { CONNECT_AT_ONCE_MS, freshScenario, prestartCommands } from '../../workers/first-run.ts';
import { EXPLORE_LANE_WORKER, FRESH_RUN_WORKER, RUN_WORKER } from '../../workers/worker-names.ts';
import { nodePort } from '../../workers/side-channel.ts';
import type { RunCommand } from '../../workers/run-service.ts';
import { explore, PooledLane, type PoolWorker } from '../../src/explore/index.ts';
import { createNodeSides } from '../../src/host/index.ts';
import type { Scenario } from '../../src/scenario/index.ts';

/** A sides worker of the browser's modules, named as the page names it, serving on its own port. */
function sidesWorker(name: string): Worker {
  return new Worker(new URL('./fixtures/workers/browser-sides.ts', import.meta.url), { workerData: name });
}

function browserWorker(): { channel: RunChannel; worker: Worker } {
  const worker = sidesWorker(RUN_WORKER);
  return { channel: new RunChannel(nodePort(worker)), worker };
}

const { channel, worker } = browserWorker();
after(() => worker.terminate());

for (const entry of LIBRARY) {
  test(`${entry.id}: the run in the browser's worker gives the recorded trace ${entry.trace}`, async () => {
    const run = await RemoteRun.start(entry.scenario, channel);
    assert.equal(await run.runToEnd(), true);
    assert.equal(await traceHash(run.trace), entry.trace);
  });
}

test('sliced as thinly as the page may slice it, a run gives the same trace as in one piece', async () => {
  for (const id of ['race-r1-cancel-after-response', 'seed-004-python-v1-swallowed-cancel-crash']) {
    const entry = libraryEntry(id);
    assert.ok(entry, id);
    const run = await RemoteRun.start(entry.scenario, channel);
    let calls = 0;
    for (let caughtUp = false; !caughtUp; calls++) caughtUp = await run.runUntil(entry.scenario.endAt, { budgetMs: 0.01 });
    assert.ok(calls > 3, `${id}: the run took ${calls} calls of a hundredth of a millisecond each`);
    assert.equal(await traceHash(run.trace), entry.trace, id);
  }
});

test('the handshake plays at once and stops where the client is connected, before the first step of the scenario', async () => {
  const entry = libraryEntry('race-r1-cancel-after-response');
  assert.ok(entry);
  const run = await RemoteRun.start(entry.scenario, channel);
  await run.handshake(1_000);
  const states = run.trace.filter((e) => e.kind === 'connection-state');
  assert.equal(states.at(-1)?.kind === 'connection-state' && states.at(-1)?.to, 'open');
  assert.equal(run.trace.some((e) => e.kind === 'user-action'), false);
  const first = entry.scenario.steps[0]?.at ?? Infinity;
  assert.ok(run.virtualTime < first, `connected at ${run.virtualTime} ms, before the first step at ${first} ms`);
  assert.ok((run.nextEventTime() ?? Infinity) >= run.virtualTime);
});

test('a lost worker fails every command, waiting and later, with the reason', async () => {
  const lost = browserWorker();
  const entry = libraryEntry('race-r1-cancel-after-response');
  assert.ok(entry);
  const run = await RemoteRun.start(entry.scenario, lost.channel);
  const waiting = run.runToEnd();
  lost.channel.fail(new Error("the sides' worker failed: gone"));
  await assert.rejects(waiting, /the sides' worker failed: gone/);
  await assert.rejects(run.step(), /the sides' worker failed: gone/);
  await lost.worker.terminate();
});

test('live play\'s calls, two out at once, give the trace a replay of the same steps gives: each runs what wall time had reached when the worker began it', async () => {
  const entry = libraryEntry('race-r1-cancel-after-response');
  assert.ok(entry);
  const run = await RemoteRun.start(entry.scenario, channel);
  // Virtual time at 1 ms a wall ms, counted from 50 wall ms ago: the worker begins at 50 ms or later.
  const clock = { wall: performance.timeOrigin + performance.now() - 50, virtual: 0, speed: 1 };
  const [first, second] = await Promise.all([run.pace(clock, 1_000), run.pace(clock, 1_000)]);
  assert.equal(first && second, true);
  const after = performance.timeOrigin + performance.now() - clock.wall;
  assert.ok(run.virtualTime >= 50 && run.virtualTime <= after, `the clock moved to ${run.virtualTime} ms, between 50 and ${after.toFixed(0)}`);
  assert.ok(run.trace.every((e) => e.t <= run.virtualTime), 'no event due later ran');
  // Far ahead of the run: each call stops at its budget, and the calls between them run the rest.
  const ahead = { wall: performance.timeOrigin + performance.now(), virtual: entry.scenario.endAt, speed: 1 };
  let calls = 0;
  for (let done = false; !done; calls += 2) done = (await Promise.all([run.pace(ahead, 0.01), run.pace(ahead, 0.01)])).some(Boolean);
  assert.ok(calls > 3, `the rest took ${calls} calls`);
  assert.equal(await traceHash(run.trace), entry.trace);
});

/**
 * A worker started under the fresh run's name, as the head script starts one, and the commands
 * the channel sends after the ones the worker played by itself.
 */
function prestartedWorker(): { channel: RunChannel; worker: Worker; sentLater: RunCommand[] } {
  const worker = sidesWorker(FRESH_RUN_WORKER);
  const port = nodePort(worker);
  const sentLater: RunCommand[] = [];
  const counting = {
    postMessage(message: unknown) {
      sentLater.push((message as { command: RunCommand }).command);
      port.postMessage(message);
    },
    listen: port.listen,
  };
  return { channel: new RunChannel(counting, prestartCommands()), worker, sentLater };
}

test('the fresh run its worker started by itself is taken up as it stands: the same trace, and no start or handshake sent again', async () => {
  const early = prestartedWorker();
  const run = await RemoteRun.start(freshScenario(), early.channel);
  await run.handshake(CONNECT_AT_ONCE_MS);
  await run.runUntil(300);
  const plain = await RemoteRun.start(freshScenario(), channel);
  await plain.handshake(CONNECT_AT_ONCE_MS);
  await plain.runUntil(300);
  assert.deepEqual(early.sentLater.map((c) => c.op), ['run-until']);
  assert.equal(await traceHash(run.trace), await traceHash(plain.trace));
  assert.ok(run.trace.some((e) => e.kind === 'connection-state' && e.to === 'open'), 'the handshake events are in the copy');
  await early.worker.terminate();
});

test('a page that starts another run (a link, saved work) leaves the fresh run behind: its own scenario runs', async () => {
  const early = prestartedWorker();
  const entry = libraryEntry('race-r1-cancel-after-response');
  assert.ok(entry);
  const run = await RemoteRun.start(entry.scenario, early.channel);
  await run.runToEnd();
  assert.equal(early.sentLater[0]?.op, 'start');
  assert.equal(await traceHash(run.trace), entry.trace);
  await early.worker.terminate();
});

/** A lane of the browser explorer's pool, as site/lib/browser-sides.ts starts one, on the browser worker's modules. */
function browserLaneWorker(): PoolWorker {
  const worker = sidesWorker(EXPLORE_LANE_WORKER);
  const port = nodePort(worker);
  return {
    postMessage: (message) => port.postMessage(message),
    listen: (handler) => port.listen(handler),
    onDeath: (handler) => void worker.once('error', (error) => handler(error.message)),
    terminate: async () => void (await worker.terminate()),
  };
}

test('the browser explorer\'s lanes give the records a pair of sides in this process gives: R2 with a latency range', async () => {
  const r2 = libraryEntry('race-r2-response-crosses-cancel');
  assert.ok(r2);
  const space: Scenario = { ...r2.scenario, explore: { c2s: [1, 30], s2c: [1, 30] } };
  const browserLanes = [new PooledLane(browserLaneWorker), new PooledLane(browserLaneWorker)];
  const here = createNodeSides();
  try {
    const pooled = await explore(space, { lanes: browserLanes, budget: 16, seed: 'browser' });
    const inThread = await explore(space, { lanes: [here], budget: 16, seed: 'browser' });
    assert.equal(pooled.records.length, 16);
    assert.deepEqual(pooled, inThread);
    assert.ok(pooled.records.some((r) => r.outcome.includes('crossed')), 'some schedules cross the cancel');
  } finally {
    await Promise.all(browserLanes.map((l) => l.close()));
    await here.close();
  }
});
