/**
 * Event orders that really happen are steps of the tables, never engine errors; and every run
 * ends: at a bound (trace events, steps, virtual time, a side that never goes quiet) or when a
 * side fails, with the reason as the trace's last event, and the headless runner returns exit
 * 3 with it instead of hanging or dying with the worker.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { boundReached, haltOf, MAX_STEPS, MAX_VIRTUAL_MS, Run, wallTimers, type Sides, type StepResult } from '../../src/engine/index.ts';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { runScenarioFile } from '../../src/cli/run.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { call, framesOf, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const errorsOf = (trace: readonly TraceEvent[]): string[] => trace.flatMap((e) => (e.kind === 'error' ? [e.message] : []));
const handlerSteps = (trace: readonly TraceEvent[]): string[] =>
  trace.flatMap((e) => (e.kind === 'server-state' ? [`${JSON.stringify(e.requestId)}: ${e.from ?? '∅'} → ${e.to}`] : []));
const DUPLICATE_CALL = [{ dir: 'c2s' as const, action: 'duplicate' as const, match: 'tools/call', nth: 1 }];

describe('a duplicated tools/call (found by the lifecycle fuzz)', () => {
  test('runs two handlers for one id, each answering: two results on the wire, no engine error', async () => {
    const trace = await runHeadless(scenario([call(20, 'A', 'quick')], { faults: DUPLICATE_CALL, endAt: 500 }), sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace), ['1: ∅ → running', '1: running → returned', '1: returned → response sent', '1: ∅ → running', '1: running → returned', '1: returned → response sent']);
    const second = trace.filter((e) => e.kind === 'server-state' && e.from === null).at(1);
    assert.match(second?.kind === 'server-state' ? second.because : '', /the same request received again/);
    const results = framesOf(trace).filter((f) => f.dir === 's2c' && f.msg?.id === 1 && f.msg.result !== undefined);
    assert.equal(results.length, 2, 'the server answers both copies');
  });

  test('Stop aborts the newest handler (the SDK keeps one abort controller per id): the older one runs on and answers after the cancel', async () => {
    const s = scenario([call(20, 'A', 'work', { ms: 300, onCancel: 'observe' }), stop(100, 'A')], { faults: DUPLICATE_CALL, endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace), [
      '1: ∅ → running',
      '1: ∅ → running',
      '1: running → cancellation seen',
      '1: cancellation seen → threw',
      '1: threw → response suppressed',
      '1: running → returned',
      '1: returned → response sent',
    ]);
    const late = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === 1 && f.msg.result !== undefined);
    assert.ok(late && late.t > 300, `the older handler's result leaves at ${late?.t} ms`);
  });

  test('the older handler, whose progress can no longer be sent once the connection closed, counts on and returns: its tool throws only once cancelled (found by the sweep, seed 21, run 2532)', async () => {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 100 }), { at: 60, action: { type: 'disconnect' } }], { faults: DUPLICATE_CALL, endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace).slice(2), [
      '1: running → cancellation seen',
      '1: cancellation seen → threw',
      '1: threw → response suppressed',
      '1: running → returned',
      '1: returned → result undeliverable',
    ]);
    const unsent = trace.flatMap((e) => (e.kind === 'handler' && e.note.type === 'server-onerror' ? [e.note.message] : []));
    assert.deepEqual(unsent, [1, 2, 3].map((i) => `progress ${i} not sent: SdkError: Not connected`));
  });

  test('over Streamable HTTP the older handler loses its stream to the newer one: its last progress is not sent, and nor is its result (found by the sweep, seed 21, run 5611)', async () => {
    const s = scenario([call(30, 'A', 'slow_count', { steps: 2, stepMs: 100 })], { transport: 'streamable-http', faults: DUPLICATE_CALL, endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace).slice(2), ['1: running → returned', '1: returned → response sent', '1: running → returned', '1: returned → result undeliverable']);
  });

  test('a handler that finishes says whether its signal aborted, which tells the two apart (found by scripts/fuzz-engine.ts, seed 3, run 1924)', async () => {
    // The timeout's cancel aborts the newer handler, which shields for 96 ms; the older one
    // finishes its 49 ms of work first, with its signal never aborted.
    const timedOut = { type: 'call' as const, call: 'A', tool: 'work', args: { ms: 49, onCancel: 'shield', unwindMs: 96 }, timeoutMs: 26 };
    const s = scenario([{ at: 20, action: timedOut }], { faults: DUPLICATE_CALL, endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.deepEqual(errorsOf(trace), []);
    assert.deepEqual(handlerSteps(trace), [
      '1: ∅ → running',
      '1: ∅ → running',
      '1: running → cancellation seen',
      '1: running → returned',
      '1: returned → response sent',
      '1: cancellation seen → threw',
      '1: threw → response suppressed',
    ]);
  });
});

describe('a forged result for initialize (found by the sweep of the whole schema, seed 5, run 438)', () => {
  test('is a handshake answer the client refuses: the connection goes from connecting to closed, and the client’s end of stream finds it closed', async () => {
    const forged = { at: 3, action: { type: 'inject-response' as const, initialize: true as const, outcome: 'result' as const } };
    const trace = await runHeadless(scenario([forged], { endAt: 100 }), sides);
    assert.deepEqual(errorsOf(trace), []);
    const connection = trace.flatMap((e) => (e.kind === 'connection-state' ? [`${e.from} --${e.on}--> ${e.to}`] : []));
    assert.deepEqual(connection, ['connecting --handshake-error--> closed', 'closed --disconnected--> closed']);
    const eof = framesOf(trace).find((f) => f.dir === 'c2s' && f.eof === true);
    assert.equal(eof?.t, 8, 'the client closes its end when the forged result reaches it');
  });
});

/** The messages the client reported to onerror. */
const clientErrors = (trace: readonly TraceEvent[]): string[] =>
  trace.flatMap((e) => (e.kind === 'handler' && e.note.type === 'client-onerror' ? [e.note.message] : []));

describe('a TS v1 client whose own cancel meets a closed transport (found by fuzzing: its worker died, and the run hung or took the process down)', () => {
  test('a disconnect, then Stop of the settled call: the real v1 client has no transport left, writes nothing and reports nothing, and the run ends at its end', async () => {
    const s = scenario([call(20, 'A', 'quick'), { at: 100, action: { type: 'disconnect' } }, stop(200, 'A')], { clientProfile: 'ts-v1', endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.equal(haltOf(trace), null);
    assert.deepEqual(clientErrors(trace), []);
    assert.deepEqual(framesOf(trace).filter((f) => f.t >= 200), [], 'the Stop writes no cancel');
    assert.equal(trace.at(-1)?.t, 200);
  });

  test('a connect timeout on sessionful Streamable HTTP: v1 cancels initialize before the session exists, the POST is refused, and the run ends', async () => {
    const s = scenario([], { revision: '2025-03-26', transport: 'streamable-http', clientProfile: 'ts-v1', connectTimeoutMs: 5, endAt: 1000 });
    const trace = await runHeadless(s, sides);
    assert.equal(haltOf(trace), null);
    assert.ok(clientErrors(trace).includes('connect failed: McpError: MCP error -32001: Request timed out'));
    // close() then aborts every fetch in flight, the cancel's own POST included, so v1 never reads its 400.
    assert.ok(clientErrors(trace).includes('Failed to send cancellation: AbortError: This operation was aborted'));
    const refused = framesOf(trace).find((f) => f.dir === 's2c' && f.http?.status === 400);
    assert.ok(refused, 'the cancel POST gets a 400');
  });
});

/** Hand-made sides: both start quiet; `client` / `server` override what they do. */
function fakeSides(over: { client?: Partial<Sides['client']>; server?: Partial<Sides['server']> } = {}): Sides {
  const quiet = (): Promise<StepResult> => Promise.resolve({ out: [], nextTimerAt: null });
  const side = { init: quiet, deliver: quiet, fireTimer: quiet, act: quiet };
  return { client: { ...side, ...over.client }, server: { ...side, ...over.server } };
}

const EMPTY: Scenario = scenario([], { endAt: 1000 });

describe('every run ends, and says which bound ended it', () => {
  test('a side that never answers a step halts the run at the wall-clock bound', async () => {
    const hung = fakeSides({ client: { act: () => new Promise<StepResult>(() => undefined) } });
    const run = await Run.start(scenario([call(20, 'A', 'quick')], { endAt: 1000 }), hung, { sideTimeoutMs: 50 });
    await run.runToEnd();
    assert.equal(run.halt?.reason, 'side-busy');
    assert.match(run.halt.message, /^The run stopped at its bound on one step: the client was still busy with call A after 50 ms of wall-clock time/);
    assert.deepEqual(haltOf(run.trace), run.halt, 'the trace alone says so');
    assert.equal(boundReached(run.trace), run.halt.message);
    assert.equal(run.trace.at(-1)?.t, 20);
  });

  test('a short deadline is kept while a long one is in flight: one timer watches both, set again for the earlier', async () => {
    const ended: string[] = [];
    // A run whose client answers its call 2 s of wall-clock time later, under the default 30 s deadline...
    const slow = fakeSides({ client: { act: () => new Promise<StepResult>((resolve) => wallTimers.setTimeout(() => resolve({ out: [], nextTimerAt: null }), 2_000)) } });
    const long = Run.start(scenario([call(20, 'A', 'quick')], { endAt: 1000 }), slow).then(async (run) => {
      await run.runToEnd();
      ended.push('slow run');
    });
    await new Promise((resolve) => setImmediate(resolve));
    // ...and, while its step is in flight, a run whose client never answers, under 50 ms.
    const hung = fakeSides({ client: { act: () => new Promise<StepResult>(() => undefined) } });
    const run = await Run.start(scenario([call(20, 'A', 'quick')], { endAt: 1000 }), hung, { sideTimeoutMs: 50 });
    await run.runToEnd();
    ended.push('hung run');
    assert.equal(run.halt?.reason, 'side-busy');
    await long;
    assert.deepEqual(ended, ['hung run', 'slow run'], 'the hung run was ended while the slow step was still in flight');
  });

  test('a run that has ended leaves no timer holding the process open', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const run = await Run.start(scenario([call(20, 'A', 'quick'), call(30, 'B', 'quick')], { endAt: 1000 }), fakeSides());
    assert.ok(timers() <= before, 'none between steps either');
    await run.runToEnd();
    assert.equal(timers(), before);
  });

  test('a side whose step throws halts the run as a failed side', async () => {
    const broken = fakeSides({ server: { init: () => Promise.reject(new Error('boom')) } });
    const run = await Run.start(EMPTY, broken);
    assert.equal(await run.step(), false, 'nothing runs after it');
    assert.deepEqual(run.halt, { reason: 'side-failed', message: 'The run stopped because a side failed: the server failed in starting: boom.' });
  });

  test('timers that fire at one instant for ever, showing nothing, halt at the bound on steps', async () => {
    const spinning = fakeSides({
      server: {
        init: (_c, t) => Promise.resolve({ out: [], nextTimerAt: t + 5 }),
        fireTimer: (t) => Promise.resolve({ out: [], nextTimerAt: t }),
      },
    });
    const run = await Run.start(EMPTY, spinning);
    await run.runToEnd();
    assert.equal(run.halt?.reason, 'steps');
    assert.match(run.halt.message, new RegExp(`bound of ${MAX_STEPS.toLocaleString('en-US')} steps`));
    assert.equal(run.trace.length, 1, 'the halt is the only event');
    assert.equal(run.trace[0]?.t, 5);
  });

  test('a clock driven past a day halts at the bound on virtual time', async () => {
    const daily = fakeSides({
      server: {
        init: (_c, t) => Promise.resolve({ out: [], nextTimerAt: t + 40_000_000 }),
        fireTimer: (t) => Promise.resolve({ out: [], nextTimerAt: t + 40_000_000 }),
      },
    });
    const run = await Run.start(EMPTY, daily);
    await run.runUntil(MAX_VIRTUAL_MS * 2);
    assert.equal(run.halt?.reason, 'virtual-time');
    assert.equal(run.trace.at(-1)?.t, 80_000_000, 'it stopped at the last event before the bound');
  });
});

/**
 * Sides whose workers misbehave for real, built from the workers/ folder of a scratch root:
 * the client is `client`, the server the real one.
 */
async function scratchSides(root: string, client: string): Promise<ReturnType<typeof createNodeSides>> {
  const repo = new URL('../../', import.meta.url);
  await mkdir(join(root, 'workers'), { recursive: true });
  await writeFile(join(root, 'workers', 'client.node.ts'), client.replaceAll('REPO/', repo.href));
  await writeFile(join(root, 'workers', 'server.node.ts'), `import '${new URL('workers/server.node.ts', repo).href}';\n`);
  return createNodeSides({ root: pathToFileURL(`${root}/`) });
}

const EXPOSE = `
import { parentPort } from 'node:worker_threads';
import { exposeSide, nodePort } from 'REPO/workers/side-channel.ts';
import { runAt } from 'REPO/workers/runtime.ts';
`;

describe('a side that dies or never goes quiet, in a real worker', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cancel-lab-sides-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a worker that dies of an uncaught error halts the run; the process lives on, and the runner returns exit 3', async () => {
    const dying = await scratchSides(join(dir, 'dying'), `${EXPOSE}
parentPort.on('message', () => { throw new Error('transport closed'); });
`);
    try {
      await writeFile(join(dir, 'one.json'), JSON.stringify(EMPTY));
      const result = await runScenarioFile(join(dir, 'one.json'), { sides: dying });
      assert.equal(result.exitCode, 3);
      assert.equal(result.error, 'The run stopped because a side failed: the client failed in starting: the client worker died: transport closed.');
      assert.equal(haltOf(result.trace)?.reason, 'side-failed');
    } finally {
      await dying.close();
    }
  });

  test('a step that never goes quiet (endless promise work) halts at the wall-clock bound, and its worker can still be closed', async () => {
    const stuck = await scratchSides(join(dir, 'stuck'), `${EXPOSE}
const quiet = (t) => runAt(t, () => undefined);
exposeSide({ init: quiet, deliver: quiet, fireTimer: quiet, act: (t) => runAt(t, () => { const spin = () => Promise.resolve().then(spin); spin(); }) }, nodePort(parentPort));
`);
    try {
      // A first run warms the server up: a cold worker takes longer than 300 ms to load the SDK.
      await runHeadless(EMPTY, stuck);
      const trace = await runHeadless(scenario([call(20, 'A', 'quick')], { endAt: 100 }), stuck, { sideTimeoutMs: 300 });
      assert.equal(haltOf(trace)?.reason, 'side-busy');
      assert.match(boundReached(trace) ?? '', /the client was still busy with call A after 300 ms of wall-clock time/);
    } finally {
      await stuck.close();
    }
  });
});
