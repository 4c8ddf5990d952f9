/**
 * What a user can do to a run, as a zod schema: the one definition of a user action. The trace
 * records these (`user-action` events), scenarios schedule them, and links, files and the editor
 * are validated against the same schema, so the `UserAction` type is inferred from it.
 */
import * as z from 'zod/v4';
import { forgedMessageProblem } from './forged-message.ts';

export const callIdSchema = z.string().min(1).max(40).describe('A name for the call, unique in the scenario (e.g. "#1").');
export const msSchema = z.number().int().min(0).max(86_400_000);
export const directionSchema = z.enum(['c2s', 's2c']);
const requestId = z.union([z.string().max(100), z.number().int()]);

/** Which request a forged frame names: exactly one of a call's request, `initialize`, or any id at all. */
const target = {
  call: callIdSchema.optional(),
  initialize: z.literal(true).optional(),
  requestId: requestId.optional(),
};
const oneTarget = (value: { call?: unknown; initialize?: unknown; requestId?: unknown }): boolean =>
  [value.call, value.initialize, value.requestId].filter((v) => v !== undefined).length === 1;
const targetMessage = { message: 'name exactly one of "call", "initialize" or "requestId"' };

export const userActionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('call'),
    call: callIdSchema,
    tool: z.string().min(1).max(60),
    // zod's record skips an own "__proto__" key (its prototype-pollution guard); refuse it
    // loudly rather than let a link silently lose an argument.
    args: z
      .unknown()
      .refine((v) => !(v !== null && typeof v === 'object' && Object.hasOwn(v, '__proto__')), 'a tool argument may not be named "__proto__"')
      .pipe(z.record(z.string(), z.unknown())),
    /** The SDK's per-request timeout options (defaults: 60 s, no reset, no cap). */
    timeoutMs: msSchema.optional(),
    resetTimeoutOnProgress: z.boolean().optional(),
    maxTotalTimeoutMs: msSchema.optional(),
    /**
     * Stop before the wire: 'before-call' calls with a signal already aborted, 'same-tick' aborts
     * it in the same tick as the call, before the SDK has written the request.
     */
    stop: z.enum(['before-call', 'same-tick']).optional(),
    /**
     * A task-augmented call (2025-11-25 tasks; the real TypeScript SDK v1 on both sides): the
     * request asks the server to run it as a task kept `ttlMs`, and the client polls tasks/get.
     */
    task: z.strictObject({ ttlMs: msSchema.optional() }).optional(),
  }),
  z.strictObject({ type: z.literal('stop'), call: callIdSchema }),
  /**
   * A forged response for any request id: a late result, or one for an unknown id. It goes to
   * the client (as if from the server) unless `to` is 'server' (as if the client answered).
   */
  z.strictObject({ type: z.literal('inject-response'), outcome: z.enum(['result', 'error']), to: z.enum(['client', 'server']).optional(), ...target }).refine(oneTarget, targetMessage),
  /**
   * A forged notifications/cancelled (client → server): a duplicate, an unknown id, or
   * `initialize`. `withId` gives the notification a JSON-RPC id of its own, which a
   * notification must not have; `batch` writes it as a one-message JSON-RPC batch (an array),
   * which 2025-03-26 allows and the other revisions do not.
   */
  z
    .strictObject({ type: z.literal('inject-cancel'), reason: z.string().max(200).optional(), withId: z.literal(true).optional(), batch: z.literal(true).optional(), ...target })
    .refine(oneTarget, targetMessage),
  /**
   * A forged notifications/progress (server → client) for a call's progress token: on stdio a
   * line; on HTTP an SSE event on the call's own open stream, or on `onStreamOf`'s (another
   * request's stream, which the spec reserves for messages related to that request).
   */
  z.strictObject({ type: z.literal('inject-progress'), call: callIdSchema, onStreamOf: callIdSchema.optional() }),
  /**
   * Any message, written on the wire exactly as given (JSON, no spacing), in one direction:
   * JSON-RPC or not, with any id, any method, extra fields. On HTTP the client's goes as a POST
   * of its own; the server's rides on the SSE stream of the request it names (a response's
   * `id`, or `params.requestId` / `params.progressToken`), else on the standalone GET stream.
   */
  z.strictObject({ type: z.literal('inject'), dir: directionSchema, message: z.unknown() }).superRefine((action, ctx) => {
    const problem = forgedMessageProblem(action.message);
    if (problem) ctx.addIssue({ code: 'custom', path: ['message'], message: problem });
  }),
  /** Hold every frame written in one direction until `release`. */
  z.strictObject({ type: z.literal('hold'), dir: directionSchema }),
  z.strictObject({ type: z.literal('release'), dir: directionSchema }),
  /** The client closes its transport. */
  z.strictObject({ type: z.literal('disconnect') }),
  /** The client pings the server (`Client.ping()`); the 2026-07-28 revision has no ping. */
  z.strictObject({ type: z.literal('ping') }),
  /** The server process dies (stdio). */
  z.strictObject({ type: z.literal('crash-server') }),
  /** A new server process, and the client connects to it again (stdio). */
  z.strictObject({ type: z.literal('reconnect') }),
  /** tasks/cancel for the task a task-augmented call created: the client asks the server to cancel it. */
  z.strictObject({ type: z.literal('cancel-task'), call: callIdSchema }),
  /**
   * Sessionful Streamable HTTP: the server closes the SSE stream of a call's request before its
   * response (its transport's `closeSSEStream`), as a 2025-11-25 server polling does; a
   * `resumable` server's client then reconnects with `Last-Event-ID`.
   */
  z.strictObject({ type: z.literal('close-stream'), call: callIdSchema }),
  /**
   * Sessionful Streamable HTTP: the server forgets the session (its transport's `close()`), so
   * a request naming it gets 404 and a new `initialize` starts a new session; for `outageMs`
   * after it every request gets a bare 404, as a reverse proxy with no route answers.
   */
  z.strictObject({ type: z.literal('expire-session'), outageMs: msSchema.optional() }),
]);

export type UserAction = z.infer<typeof userActionSchema>;

/** The request a forged frame names; the schema admits exactly one of the three. */
export type Target = Pick<Extract<UserAction, { type: 'inject-cancel' }>, 'call' | 'initialize' | 'requestId'>;
