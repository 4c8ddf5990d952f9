/**
 * The tools' argument schemas (src/scenario/tools.ts): the form's defaults are valid, the
 * bounds hold, every error names its argument, and the server judges a call exactly as
 * validateToolArgs does (it registers the same schemas); each server's tools/list is TOOLS, in
 * its order.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TOOLS, TOOL_INPUT, defaultArgs, validateToolArgs } from '../../src/scenario/tools.ts';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { call, framesOf, scenario } from './trace-helpers.ts';

describe('validateToolArgs', () => {
  test("every tool's form defaults are valid arguments", () => {
    for (const tool of TOOLS) assert.deepEqual(validateToolArgs(tool.name, defaultArgs(tool)), { ok: true, args: defaultArgs(tool) }, tool.name);
  });

  test('a default the schema fills in is in the checked arguments', () => {
    assert.deepEqual(validateToolArgs('work', { ms: 10, onCancel: 'shield' }), { ok: true, args: { ms: 10, onCancel: 'shield', unwindMs: 0 } });
  });

  const bad: [string, unknown, string[]][] = [
    ['slow_count', { steps: 0, stepMs: 10 }, ['steps: at least 1 (the server says "Too small: expected number to be >=1")']],
    ['slow_count', { steps: 10_001, stepMs: 10 }, ['steps: at most 10,000 (the server says "Too big: expected number to be <=10000")']],
    ['slow_count', { steps: 2.5, stepMs: 10 }, ['steps: a whole number (the server says "Invalid input: expected int, received number")']],
    ['slow_count', { steps: 3, stepMs: -1 }, ['stepMs: at least 0 (the server says "Too small: expected number to be >=0")']],
    ['stubborn', { ms: 3_600_001 }, ['ms: at most 3,600,000 (the server says "Too big: expected number to be <=3600000")']],
    ['stubborn', { ms: '100' }, ['ms: a number (the server says "Invalid input: expected number, received string")']],
    ['ledger_write', { key: 'k', value: 'v', commitAfterMs: 10 }, ['totalMs: a number (the server says "Invalid input: expected number, received undefined")']],
    ['work', { ms: 10, onCancel: 'panic' }, ['onCancel: one of observe, ignore, swallow, shield (the server says "Invalid option: expected one of "observe"|"ignore"|"swallow"|"shield"")']],
    ['quick', { now: true }, ['now: not an argument of quick']],
    ['slow_count', { steps: 3, stepMs: 10, stpes: 4, extra: 1 }, ['stpes: not an argument of slow_count', 'extra: not an argument of slow_count']],
    ['quick', null, ['arguments: an object of arguments (the server says "Invalid input: expected object, received null")']],
  ];
  for (const [tool, args, errors] of bad) {
    test(`${tool} ${JSON.stringify(args)} is refused, naming the argument`, () => {
      assert.deepEqual(validateToolArgs(tool, args), { ok: false, errors });
    });
  }

  test('an unknown tool is refused, with the list of tools', () => {
    assert.deepEqual(validateToolArgs('sleep', {}), { ok: false, errors: ['unknown tool "sleep" (the tools are slow_count, stubborn, ledger_write, work, quick, ask_client, background_job)'] });
  });
});

describe('the server registers the same schemas', () => {
  const sides = createNodeSides();
  after(() => sides.close());

  test('a call the form would refuse gets an isError result that says the same thing; a valid one runs', async () => {
    const s = scenario([call(20, 'A', 'slow_count', { steps: 0, stepMs: 10 }), call(40, 'B', 'slow_count', { steps: 10_001, stepMs: 10 }), call(60, 'C', 'stubborn', { ms: 3_600_000 })], { endAt: 200 });
    const answers = framesOf(await runHeadless(s, sides)).filter((f) => f.dir === 's2c' && f.msg?.id !== undefined && f.msg.method === undefined);
    const text = (id: number): string => JSON.stringify(answers.find((f) => f.msg?.id === id)?.msg?.result);
    for (const [id, args] of [
      [1, { steps: 0, stepMs: 10 }],
      [2, { steps: 10_001, stepMs: 10 }],
    ] as const) {
      const check = validateToolArgs('slow_count', args);
      assert.equal(check.ok, false);
      for (const error of check.ok ? [] : check.errors) {
        // "steps: at least 1 (the server says "Too small: …")": the server's answer says "steps: Too small: …".
        const [, name, words] = /^(\w+): .* \(the server says "(.*)"\)$/.exec(error) ?? [];
        assert.ok(name !== undefined && words !== undefined, error);
        assert.ok(text(id).includes(`${name}: ${words}`), `the server's answer to ${id} says "${name}: ${words}": ${text(id)}`);
      }
      assert.ok(text(id).includes('"isError":true'));
    }
    assert.ok(validateToolArgs('stubborn', { ms: 3_600_000 }).ok);
    assert.equal(text(3), undefined, 'the hour-long stubborn call is still running at the end, not refused');
  });
});

describe('every server lists the tools of src/scenario/tools.ts, in its order', () => {
  test('TOOLS, which the servers register from, has each tool of TOOL_INPUT once, with its schema', () => {
    assert.deepEqual(TOOLS.map((t) => t.name).sort(), Object.keys(TOOL_INPUT).sort());
    for (const tool of TOOLS) assert.equal(tool.input, TOOL_INPUT[tool.name], tool.name);
  });

  const sides = createNodeSides();
  after(() => sides.close());
  const listed = async (serverProfile: 'ts-v2' | 'ts-v1'): Promise<{ name: string; execution?: unknown }[]> => {
    const s = scenario([{ at: 20, action: { type: 'inject', dir: 'c2s', message: { jsonrpc: '2.0', id: 99, method: 'tools/list' } } }], { serverProfile, endAt: 100 });
    const answer = framesOf(await runHeadless(s, sides)).find((f) => f.dir === 's2c' && f.msg?.id === 99)?.msg?.result;
    assert.ok(answer !== undefined && typeof answer === 'object' && answer !== null && 'tools' in answer && Array.isArray(answer.tools), JSON.stringify(answer));
    return answer.tools;
  };

  test('the v2 server lists every tool', async () => {
    assert.deepEqual((await listed('ts-v2')).map((t) => t.name), TOOLS.map((t) => t.name));
  });

  test('the real v1 server lists the tools it offers, background_job as a task tool', async () => {
    const tools = await listed('ts-v1');
    assert.deepEqual(tools.map((t) => t.name), TOOLS.filter((t) => t.v1 !== 'absent').map((t) => t.name));
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution]));
    assert.deepEqual(support, Object.fromEntries(tools.map((t) => [t.name, { taskSupport: t.name === 'background_job' ? 'optional' : 'forbidden' }])));
  });
});
