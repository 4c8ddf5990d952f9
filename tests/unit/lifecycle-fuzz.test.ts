/**
 * The lifecycle tables against random runs: whatever the user does, in any allowed setting,
 * every state change the runs make is one the tables have (an engine `error` event naming a
 * missing transition would show a gap), and no run brings a side down. Deterministic: a fixed
 * seed, so a failure names a scenario that fails every time.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { allowedCombinations } from '../../src/scenario/combinations.ts';
import { CLIENT_PROFILES, SERVER_PROFILES, defaultScenario, type Scenario, type Step } from '../../src/scenario/index.ts';
import { parseScenario } from '../../src/scenario/schema.ts';
import type { UserAction } from '../../src/trace/index.ts';

const callName = fc.constantFrom('A', 'B', 'C');
const upTo = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const toolCall: fc.Arbitrary<{ tool: string; args: Record<string, unknown> }> = fc.oneof(
  fc.record({ tool: fc.constant('slow_count'), args: fc.record({ steps: fc.integer({ min: 1, max: 5 }), stepMs: upTo(150) }) }),
  fc.record({ tool: fc.constant('stubborn'), args: fc.record({ ms: upTo(500) }) }),
  fc.record({ tool: fc.constant('ledger_write'), args: fc.record({ key: fc.constant('k'), value: fc.constant('v'), commitAfterMs: upTo(200), totalMs: upTo(400) }) }),
  fc.record({ tool: fc.constant('work'), args: fc.record({ ms: upTo(400), onCancel: fc.constantFrom('observe', 'ignore', 'swallow', 'shield'), unwindMs: upTo(200) }) }),
  fc.record({ tool: fc.constant('quick'), args: fc.constant({}) }),
);
const action: fc.Arbitrary<UserAction> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(callName, toolCall, fc.option(fc.integer({ min: 50, max: 400 }), { nil: undefined }))
      .map(([call, { tool, args }, timeoutMs]): UserAction => ({ type: 'call', call, tool, args, ...(timeoutMs !== undefined && { timeoutMs }) })),
  },
  { weight: 4, arbitrary: callName.map((call): UserAction => ({ type: 'stop', call })) },
  { weight: 1, arbitrary: fc.tuple(callName, fc.constantFrom('result' as const, 'error' as const)).map(([call, outcome]): UserAction => ({ type: 'inject-response', call, outcome })) },
  { weight: 2, arbitrary: fc.integer({ min: 50, max: 60 }).map((requestId): UserAction => ({ type: 'inject-response', requestId, outcome: 'result' })) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'inject-response', initialize: true, outcome: 'error' }) },
  { weight: 1, arbitrary: callName.map((call): UserAction => ({ type: 'inject-cancel', call })) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'inject-cancel', initialize: true }) },
  { weight: 1, arbitrary: fc.constantFrom('c2s' as const, 's2c' as const).map((dir): UserAction => ({ type: 'hold', dir })) },
  { weight: 1, arbitrary: fc.constantFrom('c2s' as const, 's2c' as const).map((dir): UserAction => ({ type: 'release', dir })) },
  { weight: 2, arbitrary: fc.constant<UserAction>({ type: 'disconnect' }) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'crash-server' }) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'reconnect' }) },
);
// Most actions early, where the handshake and the first calls are.
const at = fc.oneof(upTo(60), upTo(600));
const step: fc.Arbitrary<Step> = fc.tuple(at, action).map(([t, a]) => ({ at: t, action: a }));

const scenarios: fc.Arbitrary<Scenario> = fc
  .record({
    combination: fc.constantFrom(...allowedCombinations()),
    serverProfile: fc.constantFrom(...SERVER_PROFILES),
    clientProfile: fc.constantFrom(...CLIENT_PROFILES),
    steps: fc.array(step, { minLength: 1, maxLength: 8 }),
  })
  .map(({ combination, serverProfile, clientProfile, steps }) => ({
    ...defaultScenario(),
    ...combination,
    // The server profiles are emulated on stdio only.
    ...(combination.transport === 'stdio' && { serverProfile }),
    clientProfile,
    steps,
    endAt: 2000,
  }));

const sides = createNodeSides();
after(() => sides.close());

test('random runs in every allowed setting take only transitions the tables have', async () => {
  for (const s of fc.sample(scenarios, { numRuns: 400, seed: 11 })) {
    const parsed = parseScenario(s);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('; '));
    const gaps = (await runHeadless(s, sides)).filter((e) => e.kind === 'error' && e.message.includes('no transition'));
    assert.deepEqual(gaps, [], JSON.stringify(s));
  }
});
