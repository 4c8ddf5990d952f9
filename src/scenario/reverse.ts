/**
 * Requests the server sends the client mid-call (`ask_client`): which there are, which
 * revision and transport can carry each, and how the client's handler of each behaves (the
 * scenario's `clientHandlers`). The one place the call form, the editor and the headless
 * runner read, so they refuse the same combinations with the same words.
 */
import * as z from 'zod/v4';
import { serverShape } from './combinations.ts';
import type { HttpServerShape, Revision, ServerProfile, TransportKind } from './model.ts';
import type { Scenario } from './schema.ts';

/** What `ask_client` can send the client, by JSON-RPC method. */
export const ASK_REQUESTS = ['elicitation/create', 'sampling/createMessage', 'roots/list', 'ping'] as const;
export type AskRequest = (typeof ASK_REQUESTS)[number];

/** The client capability a request needs (ping needs none). */
export const ASK_CAPABILITY = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
  ping: null,
} as const satisfies Record<AskRequest, string | null>;

export type HandledCapability = NonNullable<(typeof ASK_CAPABILITY)[AskRequest]>;

const ms = z.number().int().min(0).max(3_600_000);

/**
 * How the client's handler of one kind of server request behaves: it answers after `ms` (0:
 * at once), and when the server cancels it first it either observes its signal (stops at once,
 * throwing) or ignores it (answers when its time is up).
 */
const clientHandler = z.strictObject({
  ms,
  onCancel: z.enum(['observe', 'ignore']),
});
export type ClientHandler = z.infer<typeof clientHandler>;

export const clientHandlersSchema = z.strictObject({
  elicitation: clientHandler.optional(),
  sampling: clientHandler.optional(),
  roots: clientHandler.optional(),
});
export type ClientHandlers = z.infer<typeof clientHandlersSchema>;

/** A handler the playground offers first: it answers at once. */
export const DEFAULT_CLIENT_HANDLER: ClientHandler = { ms: 0, onCancel: 'observe' };

const HANDLED: readonly HandledCapability[] = ['elicitation', 'sampling', 'roots'];

/**
 * The client capabilities a revision defines: sampling and roots since 2024-11-05, elicitation
 * since 2025-06-18 (docs/specification/2025-06-18/client/elicitation.mdx is its first page).
 */
export function capabilitiesOf(revision: Revision): HandledCapability[] {
  return revision === '2024-11-05' || revision === '2025-03-26' ? ['sampling', 'roots'] : ['sampling', 'roots', 'elicitation'];
}

/**
 * The capabilities the client declares, each with its handler: exactly those the scenario gives
 * a handler (a client without `clientHandlers` declares none, as the lab's client always did).
 */
export function declaredHandlers(handlers: ClientHandlers | undefined): [HandledCapability, ClientHandler][] {
  return HANDLED.flatMap((c) => {
    const h = handlers?.[c];
    return h ? [[c, h]] : [];
  });
}

/**
 * Null when the server can send `request` to the client mid-call on this setting, else one line
 * saying why it cannot.
 */
export function askWhyNot(
  request: AskRequest,
  setting: { revision: Revision; transport: TransportKind; httpServer: HttpServerShape; clientHandlers?: ClientHandlers | undefined; serverProfile?: ServerProfile | undefined },
): string | null {
  if (setting.serverProfile === 'ts-v1') return "The lab's TypeScript SDK v1 server sends the client no requests: ask_client runs on the v2 server and the emulations built on it.";
  if (setting.revision === '2026-07-28') {
    return '2026-07-28 has no server-to-client requests: a server asks for input with an input_required result instead (and ping is gone).';
  }
  const capability = ASK_CAPABILITY[request];
  if (capability === 'elicitation' && !capabilitiesOf(setting.revision).includes('elicitation')) {
    return 'Elicitation arrived in 2025-06-18; no client on an earlier revision can declare it.';
  }
  if (capability !== null && !setting.clientHandlers?.[capability]) {
    return `The client declares no ${capability} capability: give it a handler (clientHandlers.${capability}), or the server SDK refuses the request before sending it.`;
  }
  if (setting.transport === 'streamable-http' && serverShape(setting) === 'createMcpHandler') {
    return "A stateless server (createMcpHandler) never saw the client's initialize, so it knows no client capability (the SDK refuses the request before it is sent), and the client's answer would come in a new POST, to a fresh server.";
  }
  return null;
}

/**
 * Null when the scenario's client can declare its handlers and every `ask_client` call can be
 * made, else why not (the first reason).
 */
export function scenarioAskWhyNot(scenario: Scenario): string | null {
  if (scenario.clientProfile === 'ts-v1' && declaredHandlers(scenario.clientHandlers).length > 0) {
    return "clientHandlers: the lab's TypeScript SDK v1 client registers no handlers for the server's requests; they run on the v2 client and the emulations built on it.";
  }
  const undefinedHere = declaredHandlers(scenario.clientHandlers).find(([c]) => !capabilitiesOf(scenario.revision).includes(c) || scenario.revision === '2026-07-28');
  if (undefinedHere) {
    return scenario.revision === '2026-07-28'
      ? `clientHandlers.${undefinedHere[0]}: 2026-07-28 has no server-to-client requests for it to handle.`
      : `clientHandlers.${undefinedHere[0]}: elicitation arrived in 2025-06-18; a ${scenario.revision} client cannot declare it.`;
  }
  for (const [i, step] of scenario.steps.entries()) {
    const a = step.action;
    if (a.type === 'ping' && scenario.revision === '2026-07-28') return `steps.${i}: 2026-07-28 removed ping; the client cannot send one.`;
    if (a.type !== 'call' || a.tool !== 'ask_client') continue;
    const request = ASK_REQUESTS.find((r) => r === a.args.request);
    const reason = request === undefined ? null : askWhyNot(request, scenario);
    if (reason !== null) return `steps.${i}: ask_client cannot send ${request ?? ''} here. ${reason}`;
  }
  return null;
}
