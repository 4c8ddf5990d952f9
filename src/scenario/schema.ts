/**
 * The scenario format as a zod schema: the one definition that validates scenarios from
 * links, files and the editor, and that the site publishes as JSON Schema.
 */
import * as z from 'zod/v4';
import { CLIENT_PROFILES, REVISIONS, SERVER_PROFILES, TRANSPORTS, type Scenario } from './model.ts';

const callId = z.string().min(1).max(40).describe('A name for the call, unique in the scenario (e.g. "#1").');
const ms = z.number().int().min(0).max(86_400_000);

const requestId = z.union([z.string().max(100), z.number().int()]);
const direction = z.enum(['c2s', 's2c']);

/** Which request a forged frame names: exactly one of call, initialize, requestId. */
const target = {
  call: callId.optional(),
  initialize: z.literal(true).optional(),
  requestId: requestId.optional(),
};
const oneTarget = (value: { call?: unknown; initialize?: unknown; requestId?: unknown }): boolean =>
  [value.call, value.initialize, value.requestId].filter((v) => v !== undefined).length === 1;
const targetMessage = { message: 'name exactly one of "call", "initialize" or "requestId"' };

const action = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('call'),
    call: callId,
    tool: z.string().min(1).max(60),
    // zod's record skips an own "__proto__" key (its prototype-pollution guard); refuse it
    // loudly rather than let a link silently lose an argument.
    args: z
      .unknown()
      .refine((v) => !(v !== null && typeof v === 'object' && Object.hasOwn(v, '__proto__')), 'a tool argument may not be named "__proto__"')
      .pipe(z.record(z.string(), z.unknown())),
    timeoutMs: ms.optional(),
    resetTimeoutOnProgress: z.boolean().optional(),
    maxTotalTimeoutMs: ms.optional(),
  }),
  z.strictObject({ type: z.literal('stop'), call: callId }),
  z.strictObject({ type: z.literal('inject-response'), outcome: z.enum(['result', 'error']), to: z.enum(['client', 'server']).optional(), ...target }).refine(oneTarget, targetMessage),
  z.strictObject({ type: z.literal('inject-cancel'), reason: z.string().max(200).optional(), ...target }).refine(oneTarget, targetMessage),
  z.strictObject({ type: z.literal('hold'), dir: direction }),
  z.strictObject({ type: z.literal('release'), dir: direction }),
  z.strictObject({ type: z.literal('disconnect') }),
  z.strictObject({ type: z.literal('crash-server') }),
  z.strictObject({ type: z.literal('reconnect') }),
]);

const fault = z.strictObject({
  dir: direction,
  action: z.enum(['drop', 'delay', 'duplicate']),
  match: z.string().max(100).optional(),
  nth: z.number().int().min(1).optional(),
  ms: ms.optional(),
});

export const scenarioSchema = z
  .object({
    version: z.literal(1),
    revision: z.enum(REVISIONS),
    transport: z.enum(TRANSPORTS),
    httpServer: z.enum(['sessionful', 'stateless']),
    latency: z.strictObject({ c2s: ms, s2c: ms }),
    serverProfile: z.enum(SERVER_PROFILES).optional(),
    clientProfile: z.enum(CLIENT_PROFILES).optional(),
    connectTimeoutMs: ms.optional(),
    faults: z.array(fault).max(50).optional(),
    steps: z
      .array(
        z.strictObject({
          at: ms.describe('Virtual time in ms; with "after", ms after the triggering frame is written.'),
          after: z
            .strictObject({
              method: z.string().min(1).max(100).describe('A JSON-RPC method, or "response".'),
              dir: direction.optional(),
              call: callId.optional(),
              nth: z.number().int().min(1).max(10_000).optional(),
            })
            .optional(),
          action,
        }),
      )
      .max(2000),
    endAt: ms,
  })
  .strict();

export type ParseResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

/** Validates untrusted input; each error names the path and what was expected. */
export function parseScenario(input: unknown): ParseResult {
  const result = scenarioSchema.safeParse(input);
  if (result.success) return { ok: true, scenario: result.data as Scenario };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`),
  };
}
