/**
 * The explorer (src/explore/, src/cli/explore.ts): from R2 with a latency range it finds the
 * schedules where the response crosses the cancel, as the wire shows; from seed 004 with a Stop
 * window the smallest schedule that crashes the python-sdk 1.x server, shrunk; a witness link
 * replays its trace exactly; shards merged give the unsharded result; a pool of worker threads
 * running whole schedules gives the one-lane result; the command's exit codes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { startExploreWorker } from '../../src/host/index.ts';
import type { Sides } from '../../src/engine/index.ts';
import { explore, mergeExplorations, PooledLane, serveSchedules, summarize, type Exploration, type PoolWorker, type Ran, type ScheduleRecord } from '../../src/explore/index.ts';
import { exploreCommand } from '../../src/cli/explore.ts';
import { compareChoices, decodeLink, libraryEntry, parseSchedule, parseScenario, type Scenario } from '../../src/scenario/index.ts';
import { traceHash, type FrameEvent, type TraceEvent } from '../../src/trace/index.ts';
import { deliveriesOf, framesOf } from './trace-helpers.ts';

const lanes = [createNodeSides(), createNodeSides()];
after(() => Promise.all(lanes.map((l) => l.close())));

const FIXTURES = new URL('../fixtures/explore/', import.meta.url);

async function fixture(name: string): Promise<Scenario> {
  const parsed = parseScenario(JSON.parse(await readFile(new URL(name, FIXTURES), 'utf8')).scenario);
  assert.ok(parsed.ok);
  return parsed.scenario;
}

function choices(r: ScheduleRecord): number[] {
  const parsed = parseSchedule(r.schedule);
  assert.ok(parsed.ok);
  return parsed.choices;
}

function withSchedule(s: Scenario, schedule: string): Scenario {
  return { ...s, explore: { ...s.explore, schedule } };
}

/** Where in the trace the frame was delivered (its delivery's seq); never, when it was not. */
function arrival(trace: readonly TraceEvent[], f: FrameEvent): number {
  return deliveriesOf(trace).find((d) => d.frame === f.frame && d.dropped === undefined)?.seq ?? Infinity;
}

/** The tool call's response and the cancel, as written. */
function responseAndCancel(trace: readonly TraceEvent[]): { response: FrameEvent | undefined; cancel: FrameEvent | undefined } {
  const frames = framesOf(trace);
  const id = frames.find((f) => f.msg?.method === 'tools/call')?.msg?.id;
  return {
    response: frames.find((f) => f.dir === 's2c' && f.msg?.method === undefined && f.msg?.id === id),
    cancel: frames.find((f) => f.dir === 'c2s' && f.msg?.method === 'notifications/cancelled'),
  };
}

/** `sides`, counting the runs started on them (each run starts its client side once). */
function countingRuns(sides: Sides): { sides: Sides; runs: () => number } {
  let runs = 0;
  const init: typeof sides.client.init = (config, t) => {
    runs++;
    return sides.client.init(config, t);
  };
  return { sides: { ...sides, client: { ...sides.client, init } }, runs: () => runs };
}

let r2: Scenario;
let seed4: Scenario;
before(async () => {
  r2 = await fixture('r2-latency-range.json');
  seed4 = await fixture('seed-004-stop-window.json');
});

describe('R2 with a latency range', () => {
  let found: Exploration;
  before(async () => {
    found = await explore(r2, { lanes, budget: 24, seed: 'r2' });
  });

  test('is searched at random (its space is larger than the budget), schedule 0 first', () => {
    assert.equal(found.strategy, 'random');
    assert.equal(found.records.length, 24);
    assert.deepEqual(found.records.map((r) => r.n), Array.from({ length: 24 }, (_, i) => i));
    assert.equal(found.records[0]?.schedule, 's1');
  });

  test('finds schedules where the response crosses the cancel, and others where it comes before Stop; the wire says which', async () => {
    const crossing = found.records.filter((r) => r.outcome.includes('A STOPPED_LOCALLY crossed'));
    const before = found.records.filter((r) => r.outcome.includes('A SUCCEEDED'));
    assert.ok(crossing.length > 1 && before.length > 0, `${crossing.length} crossing, ${before.length} answered before Stop`);
    for (const r of [...crossing.slice(0, 3), ...before.slice(0, 2)]) {
      const trace = await runHeadless(withSchedule(r2, r.schedule), lanes[0]);
      assert.equal(await traceHash(trace), r.traceHash, 'the schedule string replays the run');
      const { response, cancel } = responseAndCancel(trace);
      assert.ok(response);
      if (crossing.includes(r)) {
        assert.ok(cancel, r.schedule);
        assert.ok(response.seq < arrival(trace, cancel), 'the response is written before the cancel is delivered');
        assert.ok(cancel.seq < arrival(trace, response), 'the cancel is written before the response is delivered');
      } else {
        assert.equal(cancel, undefined, 'the response reached the client before Stop: nothing was cancelled');
        const delivered = deliveriesOf(trace).find((d) => d.frame === response.frame);
        assert.ok(delivered && delivered.t <= 370);
      }
    }
  });

  test('stops starting schedules once its signal is aborted, and feeds each record as it runs', async () => {
    const stop = new AbortController();
    const fed: string[] = [];
    const stopped = await explore(r2, {
      lanes: lanes.slice(0, 1),
      budget: 24,
      seed: 'r2',
      signal: stop.signal,
      onRecord: (record, done) => {
        fed.push(record.schedule);
        if (done === 3) stop.abort();
      },
    });
    assert.deepEqual(stopped.records, found.records.slice(0, 3), 'what ran before the Stop, as the whole search had it');
    assert.deepEqual(fed, stopped.records.map((r) => r.schedule));
  });

  test('taken up again after a Stop, with what it ran, it runs only the rest and gives the records of a search never stopped', async () => {
    const known = new Map<string, Ran>();
    const stop = new AbortController();
    const counted = lanes.map(countingRuns);
    const stopped = await explore(r2, { lanes: counted.map((c) => c.sides), budget: 24, seed: 'r2', known, signal: stop.signal, onRecord: (_, done) => done === 5 && stop.abort() });
    const ranBefore = counted.reduce((n, c) => n + c.runs(), 0);
    assert.equal(ranBefore, stopped.records.length, 'each schedule run once');
    const resumed = await explore(r2, { lanes: counted.map((c) => c.sides), budget: 24, seed: 'r2', known });
    assert.deepEqual(resumed.records, found.records);
    assert.equal(counted.reduce((n, c) => n + c.runs(), 0) - ranBefore, 24 - stopped.records.length, 'the schedules run before the Stop are not run again');
  });

  test('the same seed and budget give the same schedules; another seed others', async () => {
    const again = await explore(r2, { lanes: lanes.slice(0, 1), budget: 8, seed: 'r2' });
    assert.deepEqual(again.records, found.records.slice(0, 8), 'one pair of sides or two: the same records');
    const other = await explore(r2, { lanes, budget: 8, seed: 'other' });
    assert.notDeepEqual(other.records.map((r) => r.schedule), again.records.map((r) => r.schedule));
  });
});

describe('seed 004 with a Stop window', () => {
  let found: Exploration;
  before(async () => {
    found = await explore(seed4, { lanes, budget: 100 });
  });

  test('is searched whole: the default schedule, then each other time for the Stop', () => {
    assert.equal(found.strategy, 'exhaustive');
    assert.equal(found.exhausted, true);
    assert.equal(found.records.length, 38, 'the Stop\'s own 1500 ms, then 20, 60, … 1460');
    assert.equal(found.records[0]?.outcome, 'A SUCCEEDED · B SUCCEEDED · C SUCCEEDED · server up', 'a Stop after the call ended crashes nothing');
  });

  test('in the exhaustive order too, taken up again after a Stop it runs only the rest, and gives the whole search', async () => {
    const known = new Map<string, Ran>();
    const stop = new AbortController();
    const counted = countingRuns(lanes[0] as Sides);
    await explore(seed4, { lanes: [counted.sides], budget: 100, known, signal: stop.signal, onRecord: (_, done) => done === 10 && stop.abort() });
    assert.equal(counted.runs(), 10);
    const resumed = await explore(seed4, { lanes: [counted.sides], budget: 100, known });
    assert.deepEqual(resumed.records, found.records);
    assert.equal(resumed.exhausted, true);
    assert.equal(counted.runs(), found.records.length, 'the 10 run before the Stop are not run again');
  });

  test('finds the smallest schedule that crashes the server, shrunk, and its link replays it exactly', async () => {
    const result = await summarize(found, lanes);
    const graceful = result.rules.find((r) => r.rule === 'CANCEL-RACE-GRACEFUL');
    assert.ok(graceful?.must);
    const crashing = found.records.filter((r) => r.outcome.includes('server exited'));
    assert.equal(graceful.schedules, found.records.filter((r) => r.violated.includes('CANCEL-RACE-GRACEFUL')).length);
    assert.ok(crashing.length > 5);
    const witness = graceful.witness;
    assert.equal(witness.steps, 2, 'call A and its Stop: the calls B and C are not needed');
    assert.deepEqual(witness.scenario.steps.map((s) => s.action.type), ['call', 'stop']);
    for (const r of crashing) {
      const c = choices(r);
      assert.ok(compareChoices(choicesOf(witness.schedule), c) <= 0, `${witness.schedule} ≤ ${r.schedule}`);
    }
    const decoded = await decodeLink(witness.link);
    assert.ok(decoded.ok);
    assert.equal(decoded.scenario.explore?.schedule, witness.schedule);
    const replay = await runHeadless(decoded.scenario, lanes[1]);
    assert.equal(await traceHash(replay), witness.traceHash);
    assert.equal(decoded.meta?.trace, witness.traceHash);
    assert.ok(replay.some((e) => e.kind === 'connection' && e.event === 'crashed'), 'the witness crashes the server');
    assert.ok(result.mustBroken);
  });

  test('sharded in three and merged, it gives the unsharded search and result, cut at a budget too', async () => {
    const whole = await explore(seed4, { lanes, budget: 15 });
    const parts: Exploration[] = [];
    // One shard at a time: a pair of sides runs one schedule at a time. The first on one pair only.
    for (const k of [1, 2, 3]) parts.push(await explore(seed4, { lanes: k === 1 ? lanes.slice(1) : lanes, budget: 15, shard: { k, n: 3 } }));
    const merged = mergeExplorations(parts);
    assert.ok(merged.ok);
    assert.deepEqual(merged.exploration, whole);
    assert.deepEqual(await summarize(merged.exploration, lanes), await summarize(whole, lanes));
    const missing = mergeExplorations(parts.slice(0, 2));
    assert.deepEqual(missing, { ok: false, error: 'shard 3/3 is missing' });
  });
});

describe('R5 (a cancel of initialize) with a latency range for the answer', () => {
  test('judges the schedules where the client never connected: the cancel of initialize is counted, and their class says so', async () => {
    const entry = libraryEntry('race-r5-cancel-initialize');
    assert.ok(entry);
    const parsed = parseScenario({ ...entry.scenario, explore: { s2c: [20, 200, 20] } });
    assert.ok(parsed.ok);
    const found = await explore(parsed.scenario, { lanes, budget: 100 });
    assert.equal(found.records.length, 10);
    for (const r of found.records) {
      assert.equal(r.problem, undefined, `${r.schedule} is judged`);
      const neverConnected = r.outcome.startsWith('never connected');
      assert.equal(r.must.includes('CANCEL-NO-INITIALIZE'), neverConnected, `${r.schedule}: ${r.outcome}`);
    }
    // The ts-v1 client gives up on initialize at 100 ms, so the answers taking 100 to 200 ms come too late.
    assert.equal(found.records.filter((r) => r.must.includes('CANCEL-NO-INITIALIZE')).length, 6);
  });
});

describe('same-instant reorders', () => {
  test('are offered only between events that touch the same request (partial-order reduction)', async () => {
    const base = { ...seed4, serverProfile: undefined, explore: { ties: true } };
    // Two calls at one instant touch different requests: reordering them is the same run, no choice.
    const apart = parseScenario({ ...base, steps: [{ at: 20, action: { type: 'call', call: 'A', tool: 'quick', args: {} } }, { at: 20, action: { type: 'call', call: 'B', tool: 'quick', args: {} } }], endAt: 200 });
    assert.ok(apart.ok);
    const one = await explore(apart.scenario, { lanes });
    assert.deepEqual(one.records.map((r) => r.schedule), ['s1']);
    // Stop at the instant the response arrives: the same request, two orders, two runs.
    const together = parseScenario({ ...base, steps: [{ at: 20, action: { type: 'call', call: 'A', tool: 'stubborn', args: { ms: 100 } } }, { at: 130, action: { type: 'stop', call: 'A' } }], endAt: 400 });
    assert.ok(together.ok);
    const two = await explore(together.scenario, { lanes });
    assert.deepEqual(two.records.map((r) => r.schedule), ['s1', 's1.1']);
    assert.deepEqual(two.records.map((r) => r.outcome), ['A SUCCEEDED · server up', 'A STOPPED_LOCALLY crossed · server up']);
  });
});

describe('a pair of sides that fails in a run', () => {
  test('is replaced by renew, the failed schedule is kept without a verdict, and the search goes on', async () => {
    const spare = createNodeSides();
    after(() => spare.close());
    let failed = false;
    const real = lanes[0] as (typeof lanes)[number];
    // A pair whose server fails once, at the first delivery of the second schedule (asked one step at a time).
    let runs = 0;
    const flaky = {
      client: { ...real.client, batch: undefined, init: (...a: Parameters<typeof real.client.init>) => (runs++, real.client.init(...a)) },
      server: {
        ...real.server,
        batch: undefined,
        deliver: (...a: Parameters<typeof real.server.deliver>) => {
          if (runs === 2 && !failed) {
            failed = true;
            return Promise.reject(new Error('the worker died'));
          }
          return real.server.deliver(...a);
        },
      },
    };
    const renewed: unknown[] = [];
    const pairs: Sides[] = [flaky];
    const found = await explore(seed4, { lanes: pairs, budget: 5, renew: async (broken) => (renewed.push(broken), spare) });
    assert.deepEqual(renewed, [flaky]);
    assert.equal(pairs[0], spare, 'the lane runs on the fresh pair');
    assert.equal(found.records.length, 5);
    const noVerdict = found.records.filter((r) => r.problem !== undefined);
    assert.equal(noVerdict.length, 1);
    assert.match(noVerdict[0]?.problem ?? '', /a side failed: the server failed in frame \d+: the worker died/);
    assert.ok(found.records.slice(2).every((r) => r.problem === undefined));
  });
});

function choicesOf(schedule: string): number[] {
  const parsed = parseSchedule(schedule);
  assert.ok(parsed.ok);
  return parsed.choices;
}

describe('on a pool of worker threads, each running whole schedules', () => {
  let pool: PooledLane[] = [];
  before(() => {
    pool = [new PooledLane(startExploreWorker), new PooledLane(startExploreWorker)];
  });
  after(() => Promise.all(pool.map((l) => l.close())));

  test('the random search gives the records of one pair of sides in this thread, and each schedule replays its trace here', async () => {
    const one = await explore(r2, { lanes: lanes.slice(0, 1), budget: 24, seed: 'r2' });
    const pooled = await explore(r2, { lanes: pool, budget: 24, seed: 'r2' });
    assert.deepEqual(pooled, one);
    for (const r of pooled.records.filter((x) => x.outcome.includes('crossed')).slice(0, 3)) {
      assert.equal(await traceHash(await runHeadless(withSchedule(r2, r.schedule), lanes[0])), r.traceHash, `${r.schedule} replays byte for byte`);
    }
  });

  test('the exhaustive search, sharded or not, and its summary with the witnesses shrunk, are the one-lane ones', async () => {
    const one = await explore(seed4, { lanes: lanes.slice(0, 1), budget: 15 });
    assert.deepEqual(await explore(seed4, { lanes: pool, budget: 15 }), one);
    const parts: Exploration[] = [];
    for (const k of [1, 2]) parts.push(await explore(seed4, { lanes: pool, budget: 15, shard: { k, n: 2 } }));
    const merged = mergeExplorations(parts);
    assert.ok(merged.ok);
    assert.deepEqual(merged.exploration, one);
    const whole = await explore(seed4, { lanes: lanes.slice(0, 1), budget: 100 });
    assert.deepEqual(await summarize(whole, pool), await summarize(whole, lanes.slice(0, 1)));
  });

  test('a worker that dies in a run gives that schedule no verdict, and a fresh worker runs the next', async () => {
    let jobs = 0;
    // A real worker, that exits instead of answering the second job it is sent.
    const dying = (): PoolWorker => {
      const real = startExploreWorker();
      return {
        ...real,
        postMessage(message) {
          if (++jobs === 2) void real.terminate();
          else real.postMessage(message);
        },
      };
    };
    const lane = new PooledLane(dying);
    after(() => lane.close());
    const found = await explore(seed4, { lanes: [lane], budget: 4 });
    const one = await explore(seed4, { lanes: lanes.slice(0, 1), budget: 4 });
    assert.equal(found.records.length, 4);
    assert.match(found.records[1]?.problem ?? '', /^the run failed: the explorer's worker died: it exited with code 1$/);
    assert.deepEqual([found.records[0], ...found.records.slice(2)], [one.records[0], ...one.records.slice(2)]);
  });

  test('a run that breaks its worker\'s sides ends that worker, and the schedule sent after it runs again on a fresh one', async () => {
    const spawned: number[] = [];
    let answers = 0;
    // A worker in this thread (serveSchedules on a pair of its own) whose third answer says its sides broke.
    const flaky = (): PoolWorker => {
      const sides = createNodeSides();
      let gone = false;
      let lane: ((message: unknown) => void) | null = null;
      let served: ((message: unknown) => void) | null = null;
      const answer = (m: unknown): void => {
        if (gone) return;
        if (++answers === 3 && isObject(m) && isObject(m.ran)) m.ran.broken = true;
        lane?.(m);
      };
      serveSchedules({ postMessage: answer, listen: (h) => void (served = h) }, sides);
      spawned.push(spawned.length);
      return {
        postMessage: (m) => void setImmediate(() => gone || served?.(m)),
        listen: (h) => void (lane = h),
        onDeath: () => undefined,
        terminate: async () => {
          gone = true;
          await sides.close();
        },
      };
    };
    const lane = new PooledLane(flaky);
    after(() => lane.close());
    const found = await explore(seed4, { lanes: [lane], budget: 6 });
    assert.equal(spawned.length, 2, 'a fresh worker after the broken run');
    assert.deepEqual(found, await explore(seed4, { lanes: lanes.slice(0, 1), budget: 6 }), 'every schedule kept, as one pair of sides runs them');
  });
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

describe('cancel-lab explore', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'explore-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('exits 1 when a schedule breaks a MUST, with the witness link that `run` replays exactly', async () => {
    const out = await exploreCommand([new URL('seed-004-stop-window.json', FIXTURES).pathname, '--site', 'https://lab.example'], { lanes });
    assert.equal(out.exitCode, 1);
    const text = out.stdout.join('\n');
    assert.match(text, /^Searched the whole space: 38 schedules; 38 distinct traces\.$/m);
    assert.match(text, /^ {2}CANCEL-RACE-GRACEFUL \(MUST\): \d+ of 38 schedules; smallest witness s1\.[0-9a-z]+: 2 steps, 1 choice off the default, its link replays the same trace$/m);
    assert.match(text, /^ {4}https:\/\/lab\.example\/playground\/#v1\.[A-Za-z0-9_-]+$/m);
    assert.ok(out.witnesses.every((j) => j.reproduction?.exact === true));
  });

  test('CI formats judge each witness once, placed at the explored file, in one shape whatever the verdict', async () => {
    // Seed 004's two rules share their smallest witness (s1.1): judged once per rule, every
    // finding came out twice, and SARIF placed them at "CANCEL-…%20witness%20(s1.1)", no file.
    const file = new URL('seed-004-stop-window.json', FIXTURES).pathname;
    const sarif = JSON.parse((await exploreCommand([file, '--format', 'sarif'], { lanes })).stdout.join('\n')) as {
      runs: { results: { ruleId: string; locations: { physicalLocation?: { artifactLocation: { uri: string } } }[]; properties: { run?: string } }[] }[];
    };
    const results = sarif.runs[0]?.results ?? [];
    assert.deepEqual(results.map((r) => r.ruleId).sort(), ['CANCEL-NO-RESPONSE', 'CANCEL-RACE-GRACEFUL']);
    for (const r of results) {
      assert.equal(r.locations[0]?.physicalLocation?.artifactLocation.uri, pathToFileURL(file).href);
      assert.equal(r.properties.run, 'witness s1.1 (CANCEL-NO-RESPONSE, CANCEL-RACE-GRACEFUL)');
    }
    const junit = (await exploreCommand([file, '--format', 'junit'], { lanes })).stdout.join('\n');
    assert.equal(junit.match(/<testsuite /g)?.length, 1);
    assert.match(junit, /<testsuites name="cancel-lab" tests="\d+" failures="2" /);
    const shapes: unknown[] = [];
    for (const args of [[file], [new URL('r2-latency-range.json', FIXTURES).pathname, '--budget', '20']]) {
      const checks = JSON.parse((await exploreCommand([...args, '--format', 'checks'], { lanes })).stdout.join('\n')) as unknown;
      shapes.push(Array.isArray(checks) ? checks.map((entry) => (isObject(entry) ? Object.keys(entry).join() : typeof entry)) : typeof checks);
    }
    assert.deepEqual(shapes, [['scenario,checks'], ['scenario,checks']], 'a broken and a clean exploration, one shape');
  });

  test('two searches at once on the same lanes take turns on each pair of sides: each prints what it prints alone', async () => {
    // Before, the second search's runs reset the sides the first's were running on, and one
    // exploration or the other came out with broken runs.
    const seed004 = [new URL('seed-004-stop-window.json', FIXTURES).pathname, '--format', 'json'];
    const r2Search = [new URL('r2-latency-range.json', FIXTURES).pathname, '--budget', '20', '--format', 'json'];
    const alone = [(await exploreCommand(seed004, { lanes })).stdout, (await exploreCommand(r2Search, { lanes })).stdout];
    const together = await Promise.all([exploreCommand(seed004, { lanes }), exploreCommand(r2Search, { lanes })]);
    assert.deepEqual(together.map((t) => t.stdout), alone);
  });

  test('a search the clock ends says so', async () => {
    const out = await exploreCommand([new URL('r2-latency-range.json', FIXTURES).pathname, '--seconds', '0.2'], { lanes });
    assert.match(out.stdout.join('\n'), /^Searched \d+ schedules? drawn at random \(seed 0, as many as 0\.2 s allowed\) from a space too large to run whole;/m);
  });

  test('on its own pool of worker threads, it prints what it prints on given lanes', async () => {
    const file = new URL('seed-004-stop-window.json', FIXTURES).pathname;
    const pooled = await exploreCommand([file, '--budget', '12']);
    const given = await exploreCommand([file, '--budget', '12'], { lanes });
    assert.equal(pooled.exitCode, 1);
    assert.deepEqual([pooled.stdout, pooled.stderr, pooled.exploration], [given.stdout, given.stderr, given.exploration]);
  });

  test('--shard K/N --format json writes shard files that --merge joins into the unsharded result', async () => {
    const file = new URL('seed-004-stop-window.json', FIXTURES).pathname;
    const whole = await exploreCommand([file, '--budget', '12', '--format', 'json'], { lanes });
    const names: string[] = [];
    for (const k of [1, 2]) {
      const shard = await exploreCommand([file, '--budget', '12', '--shard', `${k}/2`, '--format', 'json'], { lanes });
      names.push(join(dir, `shard-${k}.json`));
      await writeFile(names.at(-1) ?? '', shard.stdout.join('\n'));
    }
    const merged = await exploreCommand(['--merge', ...names, '--format', 'json'], { lanes });
    assert.equal(merged.exitCode, whole.exitCode);
    assert.deepEqual(JSON.parse(merged.stdout.join('\n')), JSON.parse(whole.stdout.join('\n')));
  });

  test('exits 2 for bad usage and for a scenario whose space is not valid, in words', async () => {
    const usage = await exploreCommand(['x.json', '--shard', '3/2'], { lanes });
    assert.equal(usage.exitCode, 2);
    assert.equal(usage.stderr[0], 'cancel-lab: --shard takes K/N, with 1 ≤ K ≤ N.');
    // A negative number is the flag's value, not an option: its own check says what it takes.
    assert.equal((await exploreCommand(['x.json', '--budget', '-1'], { lanes })).stderr[0], 'cancel-lab: --budget takes a whole number of schedules, 1 or more.');
    assert.equal((await exploreCommand(['x.json', '--seconds', '-1'], { lanes })).stderr[0], 'cancel-lab: --seconds takes a number of seconds above 0 (a day at most).');
    const hostile = join(dir, 'hostile.json');
    await writeFile(hostile, JSON.stringify({ ...seed4, explore: { ...seed4.explore, schedule: 's1.-zzzzz' } }));
    const counted = await exploreCommand([hostile], { lanes });
    assert.equal(counted.exitCode, 2, 'refused, not run out of memory or stack');
    assert.match(counted.stderr[0] ?? '', /hostile\.json is not a valid scenario: explore\.schedule: this schedule string stands for more than 100,000 choices/);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...seed4, explore: { at: { '9': [1, 2] } } }));
    const refused = await exploreCommand([bad], { lanes });
    assert.equal(refused.exitCode, 2);
    assert.match(refused.stderr[0] ?? '', /bad\.json is not a valid scenario: explore\.at\.9: "9" names no step/);
    const notShards = await exploreCommand(['--merge', bad], { lanes });
    assert.equal(notShards.exitCode, 2);
    assert.match(notShards.stderr[0] ?? '', /is not an explorer's result/);
  });
});
