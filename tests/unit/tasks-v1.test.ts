/**
 * Tasks (2025-11-25) on the real TypeScript SDK v1: a task-augmented tools/call, tasks/get,
 * tasks/result and tasks/cancel as they go over the wire, what the server's work does after a
 * cancel, and how the TASK rules judge it. Also the scenario format around it.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { checkRun } from '../../src/rules/index.ts';
import { decodeLink, parseScenario, permalinkOf, type Scenario, type Step } from '../../src/scenario/index.ts';
import { indexTrace, isObject, taskOf, type TraceEvent } from '../../src/trace/index.ts';
import { framesOf, notesOf, scenario } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const V1: Partial<Scenario> = { serverProfile: 'ts-v1', clientProfile: 'ts-v1', endAt: 3000 };
const taskCall = (ms: number): Step => ({ at: 20, action: { type: 'call', call: 'A', tool: 'background_job', args: { ms }, task: { ttlMs: 60000 } } });
const run = (steps: Step[]): Promise<TraceEvent[]> => runHeadless(scenario(steps, V1), sides);
const methods = (trace: readonly TraceEvent[]): string[] => framesOf(trace).flatMap((f) => (f.dir === 'c2s' && f.msg?.method !== undefined ? [f.msg.method] : []));
const verdicts = (trace: readonly TraceEvent[], rule: string): string[] =>
  checkRun(scenario([], V1), trace)
    .filter((f) => f.rule === rule)
    .map((f) => f.verdict);

describe('tasks on the real TypeScript SDK v1', () => {
  test('tasks/cancel: the answer shows the task cancelled, the call ends, and the work runs on until its result is refused', async () => {
    const trace = await run([taskCall(1000), { at: 300, action: { type: 'cancel-task', call: 'A' } }]);
    const created = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === 1);
    assert.deepEqual(isObject(created?.msg?.result) ? created.msg.result.task : undefined, { taskId: 'task-1', status: 'working', ttl: 60000, createdAt: '1970-01-01T00:00:00.025Z', lastUpdatedAt: '1970-01-01T00:00:00.025Z', pollInterval: 100 });
    assert.deepEqual(methods(trace).filter((m) => m !== 'tasks/get'), ['initialize', 'notifications/initialized', 'tools/call', 'tasks/cancel']);
    const cancel = framesOf(trace).find((f) => f.msg?.method === 'tasks/cancel');
    const answer = framesOf(trace).find((f) => f.dir === 's2c' && cancel?.msg?.id !== undefined && f.msg?.id === cancel.msg.id);
    assert.equal(taskOf(answer?.msg?.result)?.status, 'cancelled');
    assert.equal(notesOf(trace, 'call-settled')[0]?.note.message, 'MCP error -32603: Task task-1 was cancelled');
    const refused = notesOf(trace, 'server-onerror').find((n) => n.note.message.startsWith('storeTaskResult refused'));
    assert.equal(refused?.t, 1025, 'the work ran to its end');
    assert.match(refused?.note.message ?? '', /terminal status 'cancelled'/);
    for (const rule of ['TASK-CREATE-RESULT', 'TASK-CANCEL-TRANSITION', 'TASK-CANCEL-STICKY', 'CANCEL-TASK-USE-TASKS-CANCEL']) {
      assert.ok(verdicts(trace, rule).length > 0 && verdicts(trace, rule).every((v) => v === 'satisfied'), rule);
    }
  });

  test('Stop instead of tasks/cancel: a notifications/cancelled for every request the call made, no tasks/cancel, and the task completes for nobody', async () => {
    const trace = await run([taskCall(1000), { at: 142, action: { type: 'stop', call: 'A' } }]);
    const cancels = framesOf(trace).filter((f) => f.msg?.method === 'notifications/cancelled');
    assert.deepEqual(cancels.map((f) => [f.t, f.msg?.params?.requestId]), [[142, 1], [142, 2], [142, 3]]);
    assert.ok(!methods(trace).includes('tasks/cancel'));
    assert.deepEqual(notesOf(trace, 'server-onerror'), [], 'the result is stored: the task was never cancelled');
    assert.deepEqual(verdicts(trace, 'CANCEL-TASK-USE-TASKS-CANCEL'), ['violated']);
  });

  test('v1 copies the call\'s task onto its tasks/get polls; a tasks/get is no task, so TASK-CREATE-RESULT judges the tools/call alone', async () => {
    const trace = await run([taskCall(300)]);
    const poll = framesOf(trace).find((f) => f.msg?.method === 'tasks/get');
    assert.deepEqual(poll?.msg?.params?.task, { ttl: 60000 });
    const augmented = indexTrace(trace).requests.filter((r) => r.taskAugmented).map((r) => r.method);
    assert.deepEqual(augmented, ['tools/call']);
    assert.deepEqual(verdicts(trace, 'TASK-CREATE-RESULT'), ['satisfied']);
    assert.deepEqual(verdicts(trace, 'TASK-RESULT-BLOCKS'), ['satisfied']);
    assert.equal(notesOf(trace, 'call-settled')[0]?.note.outcome, 'result');
  });
});

describe('task steps in the scenario format', () => {
  test('a task call or a tasks/cancel outside a v1 pair on 2025-11-25 is refused, saying where and why', () => {
    const steps = [taskCall(300)];
    for (const bad of [scenario(steps), scenario(steps, { ...V1, revision: '2025-06-18' }), scenario([{ at: 1, action: { type: 'cancel-task', call: 'A' } }], { serverProfile: 'ts-v1' })]) {
      const parsed = parseScenario(bad);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.errors.join('\n'), /^steps\.0\.action: tasks run on 2025-11-25 with the real TypeScript SDK v1 on both sides/m);
    }
    assert.equal(parseScenario(scenario(steps, V1)).ok, true);
  });

  test('a task scenario round-trips through a permalink', async () => {
    const s = scenario([taskCall(1000), { at: 300, action: { type: 'cancel-task', call: 'A' } }], V1);
    const decoded = await decodeLink(await permalinkOf(s, '0123456789abcdef'));
    assert.ok(decoded.ok);
    if (decoded.ok) assert.deepEqual(decoded.scenario, s);
  });
});
