/**
 * Both sides in the test's own thread (src/host/in-thread.ts) give the traces the worker
 * threads give, byte for byte, for every library scenario, and each its recorded hash; the
 * code of neither side (the coordinator's deadlines) keeps the real clock.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { parseScenario, type Scenario } from '../../src/scenario/index.ts';
import { indexTrace, serializeTrace, traceHash } from '../../src/trace/index.ts';
import { Run } from '../../src/engine/index.ts';

const inThread = createNodeSides();
const workers = createNodeSides({ threads: true });
after(() => Promise.all([inThread.close(), workers.close()]));

const dir = new URL('../../content/scenarios/', import.meta.url);

async function library(): Promise<{ file: string; scenario: Scenario; recorded: unknown }[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const entry = JSON.parse(await readFile(new URL(file, dir), 'utf8')) as { scenario: unknown; trace: unknown };
      const parsed = parseScenario(entry.scenario);
      if (!parsed.ok) throw new Error(`${file}: ${parsed.errors.join('; ')}`);
      return { file, scenario: parsed.scenario, recorded: entry.trace };
    }),
  );
}

test('every library scenario: the same trace in this thread as in worker threads, and its recorded hash', async () => {
  const entries = await library();
  assert.ok(entries.length > 50, `${entries.length} library scenarios`);
  for (const { file, scenario, recorded } of entries) {
    const here = await runHeadless(scenario, inThread);
    const there = await runHeadless(scenario, workers);
    assert.equal(serializeTrace(here), serializeTrace(there), `${file}: in this thread and in workers`);
    assert.equal(await traceHash(here), recorded, `${file}: the recorded hash`);
  }
});

test('every library scenario: the index a run grows with its trace is the index of the trace it ends with', async () => {
  // The explorer judges each schedule on the run's own index (src/explore/run-one.ts) instead of indexing the trace again.
  for (const { file, scenario } of await library()) {
    const run = await Run.start(scenario, inThread);
    await run.runToEnd();
    assert.deepEqual(run.index, indexTrace(run.trace), file);
  }
});

test('a second pair while this thread’s is taken runs in workers, with the same trace', async () => {
  const scenario = (await library())[0]?.scenario;
  assert.ok(scenario);
  const second = createNodeSides();
  try {
    assert.equal(serializeTrace(await runHeadless(scenario, second)), serializeTrace(await runHeadless(scenario, inThread)));
  } finally {
    await second.close();
  }
});

test('code outside the sides keeps real time: Date.now() is the wall clock, and a 5 ms timer fires', async () => {
  const scenario = (await library())[0]?.scenario;
  assert.ok(scenario);
  await runHeadless(scenario, inThread);
  const wall = performance.timeOrigin + performance.now();
  assert.ok(Math.abs(Date.now() - wall) < 1000, `Date.now() ${Date.now()} against the wall clock ${wall}`);
  assert.ok(Math.abs(new Date().getTime() - wall) < 1000, 'new Date() too');
  assert.equal(await new Promise((done) => setTimeout(() => done('fired'), 5)), 'fired');
});

/** This process's pending wall-clock timers (Node counts each as a `Timeout` resource). */
function pendingTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

test('the run’s deadlines are wall-clock timers, cleared when each step answers, however the sides are composed', async () => {
  // The sides in this thread are asked for one step at a time: the run's coordinator then sets
  // and clears a deadline around every step, some during a side's turn.
  assert.equal(inThread.client.batch, undefined, 'a pair in this thread takes no batches');
  const scenario = (await library()).find((e) => e.file === 'race-r1-cancel-after-response.json')?.scenario;
  assert.ok(scenario);
  const before = pendingTimers();
  const trace = await runHeadless(scenario, inThread);
  assert.equal(serializeTrace(trace), serializeTrace(await runHeadless(scenario, workers)), 'the same trace as the workers’ batches');
  assert.equal(pendingTimers(), before, 'no deadline is left pending on the wall clock');
});
