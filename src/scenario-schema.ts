/**
 * The scenario format as a zod schema: the one definition that validates scenarios from
 * links, files and the editor, and that the site publishes as JSON Schema.
 */
import * as z from 'zod/v4';
import { REVISIONS, TRANSPORTS, type Scenario } from './scenario.ts';

const callId = z.string().min(1).max(40).describe('A name for the call, unique in the scenario (e.g. "#1").');
const ms = z.number().int().min(0).max(86_400_000);

const action = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('call'),
    call: callId,
    tool: z.string().min(1).max(60),
    args: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('stop'), call: callId }),
  z.object({ type: z.literal('inject-response'), call: callId, outcome: z.enum(['result', 'error']) }),
]);

export const scenarioSchema = z
  .object({
    version: z.literal(1),
    revision: z.enum(REVISIONS),
    transport: z.enum(TRANSPORTS),
    httpServer: z.enum(['sessionful', 'stateless']),
    latency: z.object({ c2s: ms, s2c: ms }),
    steps: z.array(z.object({ at: ms.describe('Virtual time in ms.'), action })).max(2000),
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
