/**
 * The scenario format as a zod schema: the one definition that validates scenarios from
 * links, files and the editor, and that the site publishes as JSON Schema.
 */
import * as z from 'zod/v4';
import { grouped, FORGED_MESSAGE_BOUNDS, directionSchema as direction, msSchema as ms, callIdSchema as callId, userActionSchema as action } from '../trace/index.ts';
import { CLIENT_PROFILES, HTTP_SERVER_SHAPES, REVISIONS, SERVER_PROFILES, TRANSPORTS } from './model.ts';
import { referenceProblems, transportProblems } from './references.ts';
import { clientHandlersSchema } from './reverse.ts';
import { tasksWhyNot } from './combinations.ts';
import { negotiationSchema, negotiationWhyNot } from './negotiation.ts';
import { resumableSchema, streamsProblems } from './streams.ts';
import { exploreSchema, spaceProblems } from './space.ts';

/**
 * A standing fault on the wire: frames in one direction that match (by method, and by which
 * match it is, 1-based) are dropped, delayed, or duplicated when written; or, for
 * 'content-type', the server's response heads to POSTed requests that match (by the request's
 * method) are relabelled with another Content-Type, as a server that mislabels its answer would.
 */
const fault = z
  .strictObject({
    dir: direction,
    action: z.enum(['drop', 'delay', 'duplicate', 'content-type']),
    /** A JSON-RPC method, or 'response' for responses; any frame when absent. For 'content-type', the method of the POSTed request. */
    match: z.string().max(100).optional(),
    /** Only the nth matching frame (1-based); every matching frame when absent. */
    nth: z.number().int().min(1).optional(),
    /** For 'delay'. */
    ms: ms.optional(),
    /** For 'content-type': the Content-Type the matched response head carries instead of the server's. */
    contentType: z
      .string()
      .max(100)
      // A header value: a line break would end the head, and fetch's Headers refuses non-ASCII.
      .regex(/^[\x20-\x7e\t]*$/, 'a header value: printable ASCII only, no line breaks')
      .optional(),
  })
  .superRefine((f, ctx) => {
    if (f.action !== 'content-type') return;
    if (f.dir !== 's2c') ctx.addIssue({ code: 'custom', path: ['dir'], message: 'a content-type fault relabels a response head, which only the server writes: dir must be "s2c"' });
    if (f.contentType === undefined) ctx.addIssue({ code: 'custom', path: ['contentType'], message: 'a content-type fault needs the Content-Type to set ("contentType")' });
  });

/**
 * "After the server sends progress 2 for call A": a step can wait for the nth frame written with
 * a method (or 'response'), in a direction, for a call (its request id, the id it cancels, or its
 * progress token).
 */
const trigger = z.strictObject({
  method: z.string().min(1).max(100).describe('A JSON-RPC method, or "response".'),
  dir: direction.optional(),
  call: callId.optional(),
  /** Which matching frame (1-based); the first when absent. */
  nth: z.number().int().min(1).max(10_000).optional(),
});

/**
 * How large a call's arguments may be. The tools take a few flat fields; a scenario may still
 * pass any JSON (a tool the server does not have, an argument it does not take), but not
 * nested so deep that serialising it overflows the stack (10,000 levels did), nor so large
 * that one call fills the wire log.
 */
const ARGS_BOUNDS = {
  /** Objects and arrays inside one argument: a top-level argument's value is level 1. */
  depth: 32,
  /** JSON values in one call's arguments, all levels together. */
  values: 10_000,
  /** UTF-16 code units in one string value. */
  stringLength: 10_000,
} as const;

interface ArgsProblem {
  path: (string | number)[];
  message: string;
}

/**
 * The first way a call's arguments exceed ARGS_BOUNDS, or null. Walks with its own stack, not
 * by recursion, so a value nested 10,000 deep is measured without overflowing the call stack.
 */
function argsProblem(args: Record<string, unknown>): ArgsProblem | null {
  const pending: { value: unknown; path: (string | number)[] }[] = Object.entries(args).map(([key, value]) => ({ value, path: [key] }));
  let values = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (++values > ARGS_BOUNDS.values) return { path: [], message: `more than ${grouped(ARGS_BOUNDS.values)} values in one call's arguments` };
    if (typeof value === 'string' && value.length > ARGS_BOUNDS.stringLength) {
      return { path, message: `a string longer than ${grouped(ARGS_BOUNDS.stringLength)} characters` };
    }
    if (value === null || typeof value !== 'object') continue;
    const children = Array.isArray(value) ? value.map((v: unknown, i) => [i, v] as const) : Object.entries(value);
    if (children.length > 0 && path.length >= ARGS_BOUNDS.depth) {
      // The argument that holds it: the path to the too-deep value itself would be 33 keys long.
      return { path: path.slice(0, 1), message: `nested more than ${ARGS_BOUNDS.depth} levels deep (a tool argument may nest objects and arrays ${ARGS_BOUNDS.depth} levels at most)` };
    }
    for (const [key, child] of children) pending.push({ value: child, path: [...path, key] });
  }
  return null;
}

const step = z
  .strictObject({
    at: ms.describe('Virtual time in ms; with "after", ms after the triggering frame is written.'),
    after: trigger.optional(),
    action,
  })
  .superRefine((s, ctx) => {
    if (s.action.type !== 'call') return;
    const problem = argsProblem(s.action.args);
    if (problem) ctx.addIssue({ code: 'custom', path: ['action', 'args', ...problem.path], message: problem.message });
  });

export const scenarioSchema = z
  .object({
    version: z.literal(1),
    revision: z.enum(REVISIONS),
    transport: z.enum(TRANSPORTS),
    /** Only read for Streamable HTTP on a 2025-era revision. */
    httpServer: z.enum(HTTP_SERVER_SHAPES),
    /** One-way latency per direction, in virtual ms. */
    latency: z.strictObject({ c2s: ms, s2c: ms }),
    serverProfile: z.enum(SERVER_PROFILES).optional(),
    clientProfile: z.enum(CLIENT_PROFILES).optional(),
    /** The client's timeout for `connect` (the initialize handshake); the SDK's 60 s default when absent. */
    connectTimeoutMs: ms.optional(),
    /** Each side's supported revisions and the client's negotiation mode (negotiation.ts); both support `revision` alone when absent. */
    negotiation: negotiationSchema.optional(),
    /** How the client's handlers of the server's requests (ask_client) behave; each answers at once when absent. */
    clientHandlers: clientHandlersSchema.optional(),
    /** Sessionful Streamable HTTP only: the server keeps an event store, so its SSE streams can be resumed. */
    resumable: resumableSchema.optional(),
    faults: z.array(fault).max(50).optional(),
    steps: z.array(step).max(2000),
    /** The run stops at this virtual time even if timers are still pending (the SDK's 60 s request timeout, say). */
    endAt: ms,
    /** The schedule space the explorer searches, and the schedule this run takes (space.ts). */
    explore: exploreSchema.optional(),
  })
  .strict()
  // A call name used twice, a step naming a call no step makes (or before it is made), a step only stdio can take.
  .superRefine((scenario, ctx) => {
    const problems = [...referenceProblems(scenario.steps), ...transportProblems(scenario.transport, scenario.steps), ...streamsProblems(scenario), ...spaceProblems(scenario)];
    for (const problem of problems) ctx.addIssue({ code: 'custom', ...problem });
    // Tasks (2025-11-25) run on the real TypeScript SDK v1 only: 2.4.0 serves no tasks.
    const tasks = scenario.steps.findIndex((step) => step.action.type === 'cancel-task' || (step.action.type === 'call' && step.action.task !== undefined));
    const reason = tasks >= 0 ? tasksWhyNot(scenario) : null;
    if (reason !== null) ctx.addIssue({ code: 'custom', path: ['steps', tasks, 'action'], message: reason });
    const negotiation = negotiationWhyNot(scenario);
    if (negotiation) ctx.addIssue({ code: 'custom', path: ['negotiation', negotiation.path], message: negotiation.message });
  });

/** Everything that decides a run; inferred from the schema, so a parsed scenario needs no cast. */
export type Scenario = z.infer<typeof scenarioSchema>;
export type Step = z.infer<typeof step>;
export type Trigger = z.infer<typeof trigger>;
export type WireFault = z.infer<typeof fault>;

/** The scenario a fresh playground starts with. */
export function defaultScenario(): Scenario {
  return { version: 1, revision: '2025-11-25', transport: 'stdio', httpServer: 'sessionful', latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 10_000 };
}

/**
 * The bounds the playground's inputs enforce where they are typed, read off the schemas the link
 * decoder uses, so a value the form accepts always makes a link the app then opens.
 */
export const INPUT_BOUNDS = {
  /** Any virtual-time field (latency, a fault's delay). */
  maxMs: ms.maxValue ?? Number.MAX_SAFE_INTEGER,
  faultMatchLength: fault.shape.match.unwrap().maxLength ?? Number.MAX_SAFE_INTEGER,
  faultContentTypeLength: fault.shape.contentType.unwrap().maxLength ?? Number.MAX_SAFE_INTEGER,
  faultNthMin: fault.shape.nth.unwrap().minValue ?? 1,
  /** A forged frame's "any id" (as a string). */
  requestIdLength: action.options[2].shape.requestId.unwrap().options[0].maxLength ?? Number.MAX_SAFE_INTEGER,
  /** A call's arguments: nesting depth, number of JSON values, length of one string. */
  argsDepth: ARGS_BOUNDS.depth,
  argsValues: ARGS_BOUNDS.values,
  argsStringLength: ARGS_BOUNDS.stringLength,
  /** A message forged whole (`inject`): its length as JSON. */
  forgedMessageLength: FORGED_MESSAGE_BOUNDS.length,
} as const;

export type ParseResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

/** Validates untrusted input; each error names the path and what was expected. */
export function parseScenario(input: unknown): ParseResult {
  const result = scenarioSchema.safeParse(input);
  if (result.success) return { ok: true, scenario: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`),
  };
}
