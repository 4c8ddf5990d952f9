/**
 * fast-check arbitraries for scenarios, not a test file itself:
 * - `scenarioArbitrary`: schema-valid scenarios, every field, action and fault the format
 *   allows, within the schema's bounds, with optional keys absent (never `undefined`), so a
 *   scenario survives JSON unchanged (the permalink and JSON Schema tests); the steps are
 *   repaired into valid call references and stdio-only steps (`withValidSteps`), as the schema asks;
 * - `runnableScenarioArbitrary`: scenarios worth running, in every allowed setting, with the
 *   real tools, a few calls, timeouts, faults and connection events in the first second, where
 *   the handshake and the calls are (the lifecycle fuzz and scripts/fuzz-engine.ts).
 */
import fc from 'fast-check';
import { allowedCombinations } from '../../src/scenario/combinations.ts';
import { CLIENT_PROFILES, REVISIONS, SERVER_PROFILES, TRANSPORTS, defaultScenario, type Scenario, type Step, type WireFault } from '../../src/scenario/index.ts';
import { referenceProblems, transportProblems } from '../../src/scenario/references.ts';
import type { UserAction } from '../../src/trace/index.ts';

const ms = fc.integer({ min: 0, max: 86_400_000 });
/** Any text: ASCII most of the time, sometimes any code point (JSON and the link must carry it). */
const text = (constraints: { minLength?: number; maxLength: number }): fc.Arbitrary<string> =>
  fc
    .oneof({ arbitrary: fc.string(constraints), weight: 3 }, { arbitrary: fc.string({ ...constraints, unit: 'binary' }), weight: 1 })
    // The schema counts UTF-16 code units; fast-check counts code points.
    .filter((s) => s.length >= (constraints.minLength ?? 0) && s.length <= constraints.maxLength);
const callId = text({ minLength: 1, maxLength: 40 });
const requestId = fc.oneof(text({ maxLength: 100 }), fc.integer(), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER));
const dir = fc.constantFrom('c2s' as const, 's2c' as const);

/** JSON values for tool arguments: plain objects only (a parsed link never has null prototypes). */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    text({ maxLength: 20 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text({ maxLength: 10 }), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;
// The schema refuses a top-level argument named "__proto__" (zod would drop it silently).
const args = fc.dictionary(text({ maxLength: 12 }).filter((k) => k !== '__proto__'), json, { maxKeys: 5, noNullPrototype: true });

const target = fc.oneof(
  callId.map((call) => ({ call })),
  fc.constant({ initialize: true as const }),
  requestId.map((id) => ({ requestId: id })),
);

const action: fc.Arbitrary<UserAction> = fc.oneof(
  fc
    .record(
      {
        type: fc.constant('call' as const),
        call: callId,
        tool: fc.oneof(fc.constantFrom('slow_count', 'stubborn', 'ledger_write', 'work', 'quick'), text({ minLength: 1, maxLength: 60 })),
        args,
        timeoutMs: ms,
        resetTimeoutOnProgress: fc.boolean(),
        maxTotalTimeoutMs: ms,
      },
      { requiredKeys: ['type', 'call', 'tool', 'args'], noNullPrototype: true },
    )
    .map((a): UserAction => a),
  callId.map((call): UserAction => ({ type: 'stop', call })),
  fc
    .tuple(fc.constantFrom('result' as const, 'error' as const), fc.option(fc.constantFrom('client' as const, 'server' as const), { nil: undefined }), target)
    .map(([outcome, to, t]): UserAction => ({ type: 'inject-response', outcome, ...(to !== undefined && { to }), ...t })),
  fc
    .tuple(fc.option(text({ maxLength: 200 }), { nil: undefined }), target)
    .map(([reason, t]): UserAction => ({ type: 'inject-cancel', ...(reason !== undefined && { reason }), ...t })),
  dir.map((d): UserAction => ({ type: 'hold', dir: d })),
  dir.map((d): UserAction => ({ type: 'release', dir: d })),
  fc.constantFrom<UserAction>({ type: 'disconnect' }, { type: 'crash-server' }, { type: 'reconnect' }, { type: 'ping' }),
);

const step: fc.Arbitrary<Step> = fc.record({ at: ms, action }, { noNullPrototype: true });

const timingFault: fc.Arbitrary<WireFault> = fc.record(
  {
    dir,
    action: fc.constantFrom('drop' as const, 'delay' as const, 'duplicate' as const),
    match: fc.oneof(fc.constantFrom('notifications/cancelled', 'notifications/progress', 'tools/call', 'response'), text({ maxLength: 100 })),
    nth: fc.integer({ min: 1, max: 1_000_000 }),
    ms,
  },
  { requiredKeys: ['dir', 'action'], noNullPrototype: true },
);
/** A header value: printable ASCII, as the schema asks. */
const headerValue = fc.string({ maxLength: 100, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
const contentTypeFault: fc.Arbitrary<WireFault> = fc.record(
  {
    dir: fc.constant('s2c' as const),
    action: fc.constant('content-type' as const),
    match: fc.oneof(fc.constantFrom('tools/call', 'server/discover', 'initialize'), text({ maxLength: 100 })),
    nth: fc.integer({ min: 1, max: 1_000_000 }),
    contentType: fc.oneof(fc.constantFrom('text/plain', 'application/json', 'text/event-stream', ''), headerValue),
  },
  { requiredKeys: ['dir', 'action', 'contentType'], noNullPrototype: true },
);
const fault = fc.oneof({ arbitrary: timingFault, weight: 3 }, { arbitrary: contentTypeFault, weight: 1 });

/**
 * `steps` as the schema's whole-scenario checks (src/scenario/references.ts) ask: a call name
 * used again is renamed; a trigger or `onStreamOf` naming no call made in time loses that name;
 * a forged frame's call target becomes `initialize`; a Stop or forged progress for such a call,
 * and a crash or restart off stdio, are left out; a forged response to the server off stdio goes
 * to the client. Repairs what the schema's own checks find, until they find nothing.
 */
export function withValidSteps(steps: readonly Step[], transport: Scenario['transport']): Step[] {
  let out = steps.map((step) => ({ ...step, action: { ...step.action }, ...(step.after && { after: { ...step.after } }) }));
  const problemsOf = (list: Step[]) => [...referenceProblems(list), ...transportProblems(transport, list)];
  for (let problems = problemsOf(out); problems.length > 0; problems = problemsOf(out)) {
    const dropped = new Set<number>();
    const names = new Set(out.flatMap((st) => (st.action.type === 'call' ? [st.action.call] : [])));
    for (const { path } of problems) {
      const [, index, part, field] = path;
      const step = typeof index === 'number' ? out[index] : undefined;
      if (!step || typeof index !== 'number') continue;
      const action = step.action;
      if (part === 'after' && step.after) delete step.after.call;
      else if (action.type === 'call') {
        let n = index;
        while (names.has(`${n}:${action.call}`.slice(0, 40))) n++;
        action.call = `${n}:${action.call}`.slice(0, 40);
        names.add(action.call);
      } else if (action.type === 'inject-progress' && field === 'onStreamOf') delete action.onStreamOf;
      else if (action.type === 'inject-response' && field === 'to') delete action.to;
      else if ((action.type === 'inject-response' || action.type === 'inject-cancel') && field === 'call') {
        delete action.call;
        action.initialize = true;
      } else dropped.add(index);
    }
    out = out.filter((_, i) => !dropped.has(i));
  }
  return out;
}

const clientHandler = fc.record({ ms: fc.integer({ min: 0, max: 3_600_000 }), onCancel: fc.constantFrom('observe' as const, 'ignore' as const) }, { noNullPrototype: true });
const clientHandlers = fc.record({ elicitation: clientHandler, sampling: clientHandler, roots: clientHandler }, { requiredKeys: [], noNullPrototype: true });

export const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record(
  {
    version: fc.constant(1 as const),
    revision: fc.constantFrom(...REVISIONS),
    transport: fc.constantFrom(...TRANSPORTS),
    httpServer: fc.constantFrom('sessionful' as const, 'stateless' as const),
    latency: fc.record({ c2s: ms, s2c: ms }, { noNullPrototype: true }),
    serverProfile: fc.constantFrom(...SERVER_PROFILES),
    clientProfile: fc.constantFrom(...CLIENT_PROFILES),
    connectTimeoutMs: ms,
    clientHandlers,
    faults: fc.array(fault, { maxLength: 5 }),
    steps: fc.array(step, { maxLength: 12 }),
    endAt: ms,
  },
  { requiredKeys: ['version', 'revision', 'transport', 'httpServer', 'latency', 'steps', 'endAt'], noNullPrototype: true },
).map((scenario) => ({ ...scenario, steps: withValidSteps(scenario.steps, scenario.transport) }));

// ---- runnable scenarios -------------------------------------------------------------------

const callName = fc.constantFrom('A', 'B', 'C');
const upTo = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const toolCall: fc.Arbitrary<{ tool: string; args: Record<string, unknown> }> = fc.oneof(
  fc.record({ tool: fc.constant('slow_count'), args: fc.record({ steps: fc.integer({ min: 1, max: 5 }), stepMs: upTo(150) }) }),
  fc.record({ tool: fc.constant('stubborn'), args: fc.record({ ms: upTo(500) }) }),
  fc.record({ tool: fc.constant('ledger_write'), args: fc.record({ key: fc.constant('k'), value: fc.constant('v'), commitAfterMs: upTo(200), totalMs: upTo(400) }) }),
  fc.record({ tool: fc.constant('work'), args: fc.record({ ms: upTo(400), onCancel: fc.constantFrom('observe', 'ignore', 'swallow', 'shield'), unwindMs: upTo(200) }) }),
  fc.record({ tool: fc.constant('quick'), args: fc.constant({}) }),
);
/** The SDK's timeout options, now and then: short ones fire during the run. */
const timeouts = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: upTo(400).map((timeoutMs) => ({ timeoutMs })) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 20, max: 200 }), upTo(400)).map(([timeoutMs, maxTotalTimeoutMs]) => ({ timeoutMs, resetTimeoutOnProgress: true, maxTotalTimeoutMs })) },
);
const runnableAction: fc.Arbitrary<UserAction> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(callName, toolCall, timeouts).map(([call, { tool, args }, options]): UserAction => ({ type: 'call', call, tool, args, ...options })),
  },
  { weight: 4, arbitrary: callName.map((call): UserAction => ({ type: 'stop', call })) },
  { weight: 1, arbitrary: fc.tuple(callName, fc.constantFrom('result' as const, 'error' as const)).map(([call, outcome]): UserAction => ({ type: 'inject-response', call, outcome })) },
  { weight: 2, arbitrary: fc.integer({ min: 50, max: 60 }).map((id): UserAction => ({ type: 'inject-response', requestId: id, outcome: 'result' })) },
  { weight: 1, arbitrary: fc.constantFrom('result' as const, 'error' as const).map((outcome): UserAction => ({ type: 'inject-response', initialize: true, outcome })) },
  { weight: 1, arbitrary: callName.map((call): UserAction => ({ type: 'inject-cancel', call })) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'inject-cancel', initialize: true }) },
  { weight: 1, arbitrary: dir.map((d): UserAction => ({ type: 'hold', dir: d })) },
  { weight: 1, arbitrary: dir.map((d): UserAction => ({ type: 'release', dir: d })) },
  { weight: 2, arbitrary: fc.constant<UserAction>({ type: 'disconnect' }) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'crash-server' }) },
  { weight: 1, arbitrary: fc.constant<UserAction>({ type: 'reconnect' }) },
);
// Most actions early, where the handshake and the first calls are.
const runnableStep: fc.Arbitrary<Step> = fc.tuple(fc.oneof(upTo(60), upTo(600)), runnableAction).map(([at, a]) => ({ at, action: a }));
const runnableFault: fc.Arbitrary<WireFault> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      dir,
      action: fc.constantFrom('drop' as const, 'delay' as const, 'duplicate' as const),
      match: fc.constantFrom('tools/call', 'response', 'notifications/cancelled', 'notifications/progress', 'initialize'),
      nth: fc.integer({ min: 1, max: 3 }),
      ms: upTo(300),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      dir: fc.constant('s2c' as const),
      action: fc.constant('content-type' as const),
      match: fc.constantFrom('tools/call', 'server/discover', 'initialize'),
      contentType: fc.constantFrom('text/plain', 'application/json', 'text/event-stream', ''),
    }),
  },
);

export const runnableScenarioArbitrary: fc.Arbitrary<Scenario> = fc
  .record({
    combination: fc.constantFrom(...allowedCombinations()),
    serverProfile: fc.constantFrom(...SERVER_PROFILES),
    clientProfile: fc.constantFrom(...CLIENT_PROFILES),
    connectTimeoutMs: fc.option(upTo(100), { nil: undefined }),
    faults: fc.array(runnableFault, { maxLength: 2 }),
    steps: fc.array(runnableStep, { minLength: 1, maxLength: 8 }),
  })
  .map(({ combination, serverProfile, clientProfile, connectTimeoutMs, faults, steps }) => ({
    ...defaultScenario(),
    ...combination,
    // The server profiles are emulated on stdio only.
    ...(combination.transport === 'stdio' && { serverProfile }),
    clientProfile,
    ...(connectTimeoutMs !== undefined && { connectTimeoutMs }),
    ...(faults.length > 0 && { faults }),
    steps: withValidSteps(steps, combination.transport),
    endAt: 2000,
  }));
