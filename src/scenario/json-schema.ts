/**
 * The scenario format as a JSON Schema (draft 2020-12), generated from the zod schema in
 * scenario-schema.ts, so the two cannot drift apart. The site serves it at
 * /scenario.schema.json; editors lint scenario files against it.
 *
 * Three things are added to what zod generates: descriptions for the top-level fields and for
 * each action; for the forged frames (inject-response, inject-cancel), the rule zod states as a
 * refinement — name exactly one of "call", "initialize" or "requestId" — as a `oneOf` of
 * `required`s; and for a "content-type" wire fault, the refinement that it names its
 * Content-Type and the server's direction, as an `if`/`then`.
 */
import * as z from 'zod/v4';
import { FORGED_MESSAGE_BOUNDS, grouped } from '../trace/index.ts';
import { scenarioSchema } from './schema.ts';
import { TOOLS } from './tools.ts';

export const SCENARIO_SCHEMA_ID = '/scenario.schema.json';

export type JsonSchema = Record<string, unknown>;

const FIELD_DESCRIPTIONS: Record<string, string> = {
  version: 'The version of the scenario format: always 1.',
  revision: 'The MCP protocol revision the client offers and the server accepts.',
  transport: 'The wire between client and server: stdio, HTTP+SSE (the 2024-11-05 transport) or Streamable HTTP.',
  httpServer:
    'How the TypeScript SDK serves a 2025-era client over Streamable HTTP: "sessionful" (one long-lived transport with session ids) or "stateless" (a fresh server per POST, createMcpHandler\'s default). Read only for Streamable HTTP before 2026-07-28.',
  latency: 'One-way latency of the wire in virtual ms: c2s from client to server, s2c from server to client.',
  serverProfile: 'Whose server runs: the real TypeScript SDK v2 ("ts-v2", the default), the real TypeScript SDK v1 1.32.2 ("ts-v1", up to 2025-11-25), or an emulation around v2 (py-v1, py-v2, go, and effect for Effect-TS #7131; stdio only, save go’s 2026-07-28 Streamable HTTP admission).',
  clientProfile: 'Whose client runs: the real TypeScript SDK v2 ("ts-v2", the default), the real TypeScript SDK v1 1.32.2 ("ts-v1", up to 2025-11-25), a strict host, or an emulation around v2 (py-v1, py-v2, rmcp and codex for rust-sdk #1251 and openai/codex #40390, stdio only; go for go-sdk #1212, also on 2026-07-28 Streamable HTTP).',
  negotiation:
    'Version negotiation as each side really supports it: "client" and "server" are the revisions each side supports (given to the real SDK as its supportedProtocolVersions; the client offers its first 2025-era one in initialize, the server echoes an offered one it has or answers with its first), and "mode" is how the client picks a 2026-era revision: "pin" (server/discover, no fallback) or "auto" (server/discover, then initialize if refused). The handshake decides the run\'s revision; both sides support "revision" alone when absent.',
  connectTimeoutMs: "The client's timeout for connect (the initialize handshake), in virtual ms; the SDK's 60 s default when absent.",
  clientHandlers:
    'How the client answers the requests the server sends it mid-call (the ask_client tool): one entry per capability it declares (elicitation, sampling, roots), each answering after "ms" (0: at once) and, when the server cancels first, observing the cancel (stopping at once) or ignoring it. A capability without an entry is not declared.',
  resumable:
    'Sessionful Streamable HTTP, the real v2 server only: the server keeps an event store, so its SSE events carry ids and a client reconnecting with Last-Event-ID gets what it missed; on 2025-11-25 each POST stream opens with a priming event, carrying "retry: retryMs" when retryMs is set.',
  faults:
    'Standing faults on the wire: frames written in one direction that match "match" (a JSON-RPC method, or "response"; any frame when absent), and only the nth match when "nth" is set, are dropped, delayed by "ms", or duplicated; "content-type" (dir "s2c") relabels the server\'s response head to a POSTed request whose method is "match" with the Content-Type "contentType", as a server that mislabels its answer would.',
  steps: "The user's actions, each at a virtual time in ms (several at one instant run in the order listed).",
  endAt: 'The run stops at this virtual time in ms, even if timers are still pending.',
};

const ACTION_DESCRIPTIONS: Record<string, string> = {
  call: `Call a tool (${TOOLS.map((t) => t.name).join(', ')}) with its arguments; timeoutMs, resetTimeoutOnProgress and maxTotalTimeoutMs are the SDK request options. "stop" stops it before the wire: "before-call" passes a signal already aborted, "same-tick" aborts it in the same tick as the call. "task" (2025-11-25, the real TypeScript SDK v1 on both sides) makes it a task-augmented call.`,
  'cancel-task': "Send tasks/cancel for the task a task-augmented call created (the call's task must exist by then).",
  stop: "Press Stop on a call: its AbortController aborts, and the SDK cancels the request as the transport requires.",
  'inject-response':
    'Forge a response (a result or an error) for a call, for initialize or for any request id, as if from the server; "to": "server" sends it to the server instead (stdio only). Name exactly one of call, initialize, requestId.',
  'inject-cancel': 'Forge a notifications/cancelled from the client naming a call, initialize or any request id. Name exactly one of call, initialize, requestId.',
  'inject-progress':
    "Forge a notifications/progress from the server for a call's progress token; on HTTP on the call's own stream, or with onStreamOf on another call's.",
  inject: `Forge any message, JSON-RPC or not, and write it on the wire exactly as given: dir "c2s" as if from the client (on HTTP, a POST of its own), "s2c" as if from the server (on HTTP, on the SSE stream of the request it names by its id, params.requestId or params.progressToken, else on the standalone GET stream). At most ${grouped(FORGED_MESSAGE_BOUNDS.length)} characters as JSON, nested ${FORGED_MESSAGE_BOUNDS.depth} levels at most.`,
  hold: 'Hold every frame written in one direction until a release.',
  release: 'Release the frames held in one direction; they arrive one latency later, in order.',
  disconnect: 'The client closes its transport.',
  ping: 'The client pings the server (Client.ping); 2026-07-28 has no ping.',
  'crash-server': 'The server process dies (stdio only).',
  reconnect: 'A new server process, and the client connects to it again (stdio only).',
  'close-stream':
    "The server closes the SSE stream of a call's request before its response (the transport's closeSSEStream; sessionful Streamable HTTP, the real v2 server): 2025-11-25 polling. A resumable server's client reconnects with Last-Event-ID after the retry the server sent.",
  'expire-session':
    'The server forgets the session (the transport\'s close(); sessionful Streamable HTTP, the real v2 server): requests naming it get 404 Session not found, and a new initialize starts a new session. For outageMs after it every request gets a bare 404, as a reverse proxy with no route answers.',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The JSON Schema of the scenario format, with $id "/scenario.schema.json". A new object each call. */
export function scenarioJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(scenarioSchema, {
    target: 'draft-2020-12',
    override(ctx) {
      const schema = ctx.jsonSchema as Record<string, unknown>;
      const properties = schema.properties;
      if (!isRecord(properties)) return;
      if ('call' in properties && 'initialize' in properties && 'requestId' in properties) {
        schema.oneOf = [{ required: ['call'] }, { required: ['initialize'] }, { required: ['requestId'] }];
      }
      if ('contentType' in properties && 'action' in properties) {
        schema.if = { properties: { action: { const: 'content-type' } }, required: ['action'] };
        schema.then = { properties: { dir: { const: 's2c' } }, required: ['contentType'] };
      }
      const type = properties.type;
      if (isRecord(type) && typeof type.const === 'string' && ACTION_DESCRIPTIONS[type.const] !== undefined) {
        schema.description = ACTION_DESCRIPTIONS[type.const];
      }
    },
  }) as JsonSchema;
  const { $schema, ...rest } = generated;
  const properties = rest.properties;
  if (isRecord(properties)) {
    for (const [key, description] of Object.entries(FIELD_DESCRIPTIONS)) {
      const property = properties[key];
      if (isRecord(property)) property.description = description;
    }
  }
  return {
    $schema,
    $id: SCENARIO_SCHEMA_ID,
    title: 'MCP Cancel Lab scenario',
    description:
      'Everything that decides a run of MCP Cancel Lab: the protocol revision, the transport, the client and server profiles, the wire latencies and faults, and a timeline of user actions at virtual times. The same scenario gives the same trace, frame for frame.',
    ...rest,
  };
}
