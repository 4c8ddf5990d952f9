/**
 * Every run is bounded: a runaway stops at the engine's bound on trace events and says so (the
 * headless runner exits 3 with the message), a tool argument asking for unbounded work, or
 * arguments nested or sized past INPUT_BOUNDS, are refused before they run, and a host can stop
 * a run between events. The other bounds (steps, virtual time, a side that never goes quiet)
 * are in engine-robustness.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundReached, EVENT_BOUND_MESSAGE, MAX_TRACE_EVENTS, Run } from '../../src/engine/index.ts';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { runScenarioFile } from '../../src/cli/run.ts';
import { INPUT_BOUNDS, validateToolArgs } from '../../src/scenario/index.ts';
import { parseScenario } from '../../src/scenario/schema.ts';
import { serializeTrace } from '../../src/trace/index.ts';
import { call, scenario } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

/** Twenty calls counting 10,000 steps of 0 ms each: progress without end at one instant. */
const RUNAWAY = scenario(
  Array.from({ length: 20 }, (_, i) => call(20, `#${i + 1}`, 'slow_count', { steps: 10_000, stepMs: 0 })),
  { endAt: 1000 },
);

describe('a runaway scenario', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cancel-lab-bounds-'));
    await writeFile(join(dir, 'runaway.json'), JSON.stringify(RUNAWAY));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('stops at the bound on trace events with an error naming it, and the runner exits 3 with that message', async () => {
    const result = await runScenarioFile(join(dir, 'runaway.json'), { sides });
    assert.equal(result.trace.length, MAX_TRACE_EVENTS + 1);
    const last = result.trace.at(-1);
    assert.equal(last?.kind, 'error');
    assert.match(EVENT_BOUND_MESSAGE, /bound of 20,000 trace events/);
    assert.equal(last.kind === 'error' && last.message, EVENT_BOUND_MESSAGE);
    assert.ok(last.t < RUNAWAY.endAt, 'it stopped on the bound, not at the scenario end');
    assert.equal(boundReached(result.trace), EVENT_BOUND_MESSAGE);
    assert.equal(result.exitCode, 3);
    assert.equal(result.error, EVENT_BOUND_MESSAGE);
    assert.deepEqual(result.stderr, [`cancel-lab: ${EVENT_BOUND_MESSAGE}`]);
    assert.match(result.stdout.at(-1) ?? '', /^Exit 3: the run stopped at its bound/);
  });
});

describe('unbounded tool arguments', () => {
  test('slow_count with a billion steps is refused by validateToolArgs', () => {
    assert.deepEqual(validateToolArgs('slow_count', { steps: 1e9, stepMs: 1 }), { ok: false, errors: ['steps: at most 10,000 (the server says "Too big: expected number to be <=10000")'] });
  });

  test('and by the server: the call ends with an invalid-params error at once, and no progress is sent', async () => {
    const trace = await runHeadless(scenario([call(20, 'A', 'slow_count', { steps: 1e9, stepMs: 1 })], { endAt: 500 }), sides);
    const progress = trace.filter((e) => e.kind === 'frame' && e.msg?.method === 'notifications/progress');
    assert.equal(progress.length, 0);
    const settled = trace.find((e) => e.kind === 'handler' && e.note.type === 'call-settled');
    assert.ok(settled?.kind === 'handler' && settled.note.type === 'call-settled' && (settled.note.outcome === 'error' || settled.note.isError === true), 'the call settles as an error');
    assert.ok(settled.t < 100, `settled at ${settled.t} ms`);
    assert.equal(boundReached(trace), null);
  });
});

describe('tool arguments nested 10,000 deep (found by fuzzing: they passed the schema and crashed the run)', () => {
  let dir = '';
  // Built as text: JSON.stringify of the value itself would overflow the stack.
  const nested = (depth: number): string => `${'{"a":'.repeat(depth)}{"b":1}${'}'.repeat(depth)}`;
  const withArgs = (args: string): string =>
    JSON.stringify(scenario([], { endAt: 100 })).replace('"steps":[]', `"steps":[{"at":20,"action":{"type":"call","call":"A","tool":"quick","args":{"x":${args}}}}]`);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cancel-lab-deep-'));
    await writeFile(join(dir, 'deep.json'), withArgs(nested(10_000)));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('are refused by the runner as bad input (exit 2), naming the argument', async () => {
    const result = await runScenarioFile(join(dir, 'deep.json'), { sides });
    assert.equal(result.exitCode, 2);
    assert.match(result.error ?? '', /steps\.0\.action\.args\.x: nested more than 32 levels deep/);
    assert.deepEqual(result.trace, []);
  });

  test('the schema the playground and links use draws the line at 32 levels, and at the sizes INPUT_BOUNDS gives', () => {
    assert.equal(INPUT_BOUNDS.argsDepth, 32);
    // "x" holds 31 objects and then {"b":1}: 32 levels of objects; one more is too deep.
    assert.deepEqual(parseScenario(JSON.parse(withArgs(nested(30)))).ok, true);
    assert.deepEqual(parseScenario(JSON.parse(withArgs(nested(31)))), {
      ok: false,
      errors: ['steps.0.action.args.x: nested more than 32 levels deep (a tool argument may nest objects and arrays 32 levels at most)'],
    });
    const long = 'y'.repeat(INPUT_BOUNDS.argsStringLength + 1);
    assert.deepEqual(parseScenario(JSON.parse(withArgs(`{"s":["${long}"]}`))), { ok: false, errors: ['steps.0.action.args.x.s.0: a string longer than 10,000 characters'] });
    const many = `[${Array.from({ length: INPUT_BOUNDS.argsValues }, () => '0').join(',')}]`;
    assert.deepEqual(parseScenario(JSON.parse(withArgs(many))), { ok: false, errors: ["steps.0.action.args: more than 10,000 values in one call's arguments"] });
  });
});

describe('runUntil with shouldStop', () => {
  const s = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 50 })], { endAt: 600 });

  test('stops before the next event when asked, leaves the clock at the last event, and resumes to the same trace', async () => {
    const full = await runHeadless(s, sides);
    const run = await Run.start(s, sides);
    let asked = 0;
    assert.equal(await run.runUntil(s.endAt, { shouldStop: () => ++asked > 10 }), false);
    assert.ok(run.trace.length < full.length, 'it stopped early');
    const stoppedAt = run.virtualTime;
    assert.ok(stoppedAt < s.endAt);
    assert.equal(run.trace.at(-1)?.t, stoppedAt, 'the clock stays at the last event run');
    assert.equal(await run.runToEnd(), true);
    assert.equal(serializeTrace(run.trace), serializeTrace(full));
  });
});
