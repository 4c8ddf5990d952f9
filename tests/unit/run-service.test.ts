/**
 * The playground's run, played in the sides' worker (workers/run-service.ts) and read by the page
 * through RemoteRun (site/lib/remote-run.ts): the browser worker's own modules in a Node worker
 * thread, the page's handle in this one, over a real MessageChannel. Every library scenario
 * gives its recorded trace this way too, however the page slices the work; and the explorer's
 * lanes on those modules give the records a pair of sides in this process gives.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, Worker } from 'node:worker_threads';
import { LIBRARY, libraryEntry } from '../../src/scenario/library.ts';
import { traceHash } from '../../src/trace/hash.ts';
import { RemoteRun, RunChannel } from '../../site/lib/remote-run.ts';
import { CONNECT_AT_ONCE_MS, FRESH_RUN_WORKER, freshScenario, prestartCommands } from '../../workers/first-run.ts';
import type { RunCommand } from '../../workers/run-service.ts';
import { explore, PooledLane, type PoolWorker } from '../../src/explore/index.ts';
import { createNodeSides } from '../../src/host/index.ts';
import type { Scenario } from '../../src/scenario/index.ts';

function browserWorker(): { channel: RunChannel; worker: Worker } {
  const worker = new Worker(new URL('./fixtures/workers/browser-sides.ts', import.meta.url));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ run: port1 }, [port1]);
  // Node's MessagePort has the browser's addEventListener and start.
  return { channel: new RunChannel(port2 as unknown as MessagePort), worker };
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

/**
 * A worker started under the fresh run's name, as the head script starts one, and the commands
 * the channel sends after the ones the worker played by itself. Its port arrives only after
 * `portAfterMs`, as a busy page's main thread may hand it over late.
 */
function prestartedWorker(portAfterMs = 0): { channel: RunChannel; worker: Worker; sentLater: RunCommand[] } {
  const worker = new Worker(new URL('./fixtures/workers/browser-sides.ts', import.meta.url), { workerData: FRESH_RUN_WORKER });
  const { port1, port2 } = new MessageChannel();
  setTimeout(() => worker.postMessage({ run: port1 }, [port1]), portAfterMs);
  const sentLater: RunCommand[] = [];
  const post = port2.postMessage.bind(port2);
  port2.postMessage = (message: { command: RunCommand }) => {
    sentLater.push(message.command);
    post(message);
  };
  return { channel: new RunChannel(port2 as unknown as MessagePort, prestartCommands()), worker, sentLater };
}

// By 400 ms the worker has long played the start and the handshake: their answers wait for the port.
for (const [when, portAfterMs] of [['as soon as it has loaded', 0], ['400 ms late, its answers kept for it', 400]] as const) {
  test(`the fresh run its worker started by itself, its port arriving ${when}, is taken up as it stands: the same trace, and no start or handshake sent again`, async () => {
    const early = prestartedWorker(portAfterMs);
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
}

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
  const worker = new Worker(new URL('./fixtures/workers/browser-sides.ts', import.meta.url));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ schedules: port1 }, [port1]);
  return {
    postMessage: (message) => port2.postMessage(message),
    listen: (handler) => void port2.on('message', handler),
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
