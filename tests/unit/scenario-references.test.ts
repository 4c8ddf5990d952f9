/**
 * Scenario mistakes only the whole scenario shows (src/scenario/references.ts): a call name used
 * twice, a step naming a call no step makes or naming it before it is made. The schema refuses
 * them with the path of the name, so the editor's linter, the link decoder and the runner say
 * the same thing; the fuzz arbitraries repair their steps into valid ones, and every scenario
 * the repair did not touch is refused exactly when the check finds a problem.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseScenario, type Scenario, type Step } from '../../src/scenario/index.ts';
import { decodeLink, encodeLink } from '../../src/scenario/permalink.ts';
import { referenceProblems } from '../../src/scenario/references.ts';
import { check, say } from '../../site/lib/editor-check.ts';
import { scenarioArbitrary, withValidSteps } from './scenario-arbitrary.ts';
import { call, scenario, stop } from './trace-helpers.ts';

const errorsOf = (s: Scenario): string[] => {
  const parsed = parseScenario(JSON.parse(JSON.stringify(s)));
  return parsed.ok ? [] : parsed.errors;
};

describe('call references in a scenario', () => {
  test('a Stop for a call no step makes is refused at the name, with what is wrong', () => {
    assert.deepEqual(errorsOf(scenario([call(20, 'A', 'quick'), stop(50, 'Z')])), ['steps.1.action.call: Stop names call "Z", which no "call" step of this scenario makes']);
  });

  test('a second call with the same name is refused at the second', () => {
    assert.deepEqual(errorsOf(scenario([call(20, 'A', 'quick'), call(30, 'A', 'quick'), stop(50, 'A')])), [
      'steps.1.action.call: call "A" is already made by steps.0: each call needs a name of its own',
    ]);
  });

  test('a step before its call is refused; at the same instant, the order listed decides', () => {
    assert.deepEqual(errorsOf(scenario([stop(10, 'A'), call(20, 'A', 'quick')])), ['steps.0.action.call: Stop at 10 ms names call "A" before it is made (steps.1, at 20 ms)']);
    assert.deepEqual(errorsOf(scenario([stop(20, 'A'), call(20, 'A', 'quick')])), ['steps.0.action.call: Stop at 20 ms names call "A" before it is made (steps.1, at 20 ms)']);
    assert.deepEqual(errorsOf(scenario([call(20, 'A', 'quick'), stop(20, 'A')])), []);
    // Steps listed out of time order are fine as long as the call comes first in time.
    assert.deepEqual(errorsOf(scenario([stop(50, 'A'), call(20, 'A', 'quick')])), []);
  });

  test('a step on a trigger, or a call on one, is not timed here: only the name is checked', () => {
    const triggered: Step = { at: 0, after: { method: 'notifications/progress', call: 'A' }, action: { type: 'stop', call: 'A' } };
    assert.deepEqual(errorsOf(scenario([triggered, call(20, 'A', 'slow_count')])), []);
    const lateCall: Step = { at: 0, after: { method: 'response' }, action: { type: 'call', call: 'B', tool: 'quick', args: {} } };
    assert.deepEqual(errorsOf(scenario([call(20, 'A', 'quick'), lateCall, stop(10, 'B')])), []);
  });

  test('forged frames, forged progress, its other stream and a trigger naming unknown calls', () => {
    const steps: Step[] = [
      call(20, 'A', 'slow_count'),
      { at: 30, action: { type: 'inject-response', outcome: 'result', call: 'B' } },
      { at: 30, action: { type: 'inject-cancel', call: 'C' } },
      { at: 30, action: { type: 'inject-progress', call: 'A', onStreamOf: 'D' } },
      { at: 0, after: { method: 'response', call: 'E' }, action: { type: 'disconnect' } },
      // Targets that are not calls are never references.
      { at: 40, action: { type: 'inject-cancel', requestId: 'Z' } },
      { at: 40, action: { type: 'inject-response', outcome: 'error', initialize: true } },
    ];
    assert.deepEqual(errorsOf(scenario(steps)), [
      'steps.1.action.call: the forged response names call "B", which no "call" step of this scenario makes',
      'steps.2.action.call: the forged cancel names call "C", which no "call" step of this scenario makes',
      'steps.3.action.onStreamOf: the forged progress names call "D", which no "call" step of this scenario makes',
      'steps.4.after.call: waits for call "E", which no "call" step of this scenario makes',
    ]);
  });

  test('a crash, a restart or a forged response to the server off stdio is refused; on stdio it is not', () => {
    const steps: Step[] = [
      call(20, 'A', 'quick'),
      { at: 30, action: { type: 'crash-server' } },
      { at: 40, action: { type: 'reconnect' } },
      { at: 50, action: { type: 'inject-response', outcome: 'result', to: 'server', requestId: 1 } },
    ];
    assert.deepEqual(errorsOf(scenario(steps, { transport: 'streamable-http' })), [
      'steps.1.action.type: only a stdio server process can be made to crash; this scenario runs over streamable-http',
      'steps.2.action.type: only a stdio server process can be restarted (a reconnect); this scenario runs over streamable-http',
      'steps.3.action.to: a forged response to the server is offered on stdio only; this scenario runs over streamable-http',
    ]);
    assert.deepEqual(errorsOf(scenario(steps)), []);
  });

  test('a link with such a scenario is refused with the same words', async () => {
    const link = await encodeLink(scenario([call(20, 'A', 'quick'), stop(50, 'Z')]), { engine: '0', sdk: '0', trace: '' });
    assert.deepEqual(await decodeLink(link), {
      ok: false,
      error: 'This link\'s scenario is not valid: steps.1.action.call: Stop names call "Z", which no "call" step of this scenario makes',
    });
  });

  test('the editor\'s linter places the problem at the name and says the same', () => {
    const checked = check(JSON.parse(JSON.stringify(scenario([call(20, 'A', 'quick'), call(30, 'A', 'quick')]))));
    assert.equal(checked.ok, false);
    assert.deepEqual(
      checked.ok ? [] : checked.problems.map((p) => ({ path: p.path, said: say(p) })),
      [{ path: ['steps', 1, 'action', 'call'], said: 'steps.1.action.call: call "A" is already made by steps.0: each call needs a name of its own' }],
    );
  });
});

describe('the fuzz arbitraries and the check agree', () => {
  const rawSteps = fc.array(
    fc.tuple(fc.integer({ min: 0, max: 100 }), fc.constantFrom('A', 'B', 'C'), fc.constantFrom('call', 'stop', 'progress', 'cancel')).map(([at, name, kind]): Step => {
      switch (kind) {
        case 'call':
          return call(at, name, 'quick');
        case 'stop':
          return stop(at, name);
        case 'progress':
          return { at, action: { type: 'inject-progress', call: name } };
        default:
          return { at, action: { type: 'inject-cancel', call: name } };
      }
    }),
    { maxLength: 8 },
  );

  test('any steps: refused exactly when the check finds a problem, each problem\'s path among the errors', () => {
    fc.assert(
      fc.property(rawSteps, (steps) => {
        const problems = referenceProblems(steps);
        const errors = errorsOf(scenario(steps));
        assert.equal(errors.length, problems.length);
        for (const p of problems) assert.ok(errors.some((e) => e.startsWith(`${p.path.join('.')}: `)), p.path.join('.'));
      }),
      { numRuns: 300 },
    );
  });

  test('the repair leaves valid steps alone and makes any steps valid', () => {
    fc.assert(
      fc.property(rawSteps, (steps) => {
        const repaired = withValidSteps(steps, 'stdio');
        assert.deepEqual(referenceProblems(repaired), []);
        assert.deepEqual(errorsOf(scenario(withValidSteps([...steps, { at: 5, action: { type: 'crash-server' } }], 'http-sse'), { transport: 'http-sse' })), []);
        if (referenceProblems(steps).length === 0) assert.deepEqual(repaired, steps);
      }),
      { numRuns: 300 },
    );
  });

  test('every arbitrary scenario is valid', () => {
    fc.assert(fc.property(scenarioArbitrary, (s) => assert.deepEqual(errorsOf(s), [])), { numRuns: 300 });
  });
});
