/**
 * The client's handlers of the server's requests (sampling/createMessage, elicitation/create,
 * roots/list), registered on the real SDK `Client` with the capabilities the scenario declares,
 * each behaving as the scenario's `clientHandlers` say: it answers after `ms`, and on the
 * server's cancel it observes its signal (stops at once) or ignores it. The trace shows what
 * each handler did; whether a response followed is read off the wire.
 */
import type { Client, ClientCapabilities, ClientContext } from '@modelcontextprotocol/client';
import { note } from './runtime.ts';
import { sleep } from './lab-tools.ts';
import { declaredHandlers, type ClientHandler, type ClientHandlers, type HandledCapability } from '../src/scenario/index.ts';

/** The capabilities object `new Client` declares: one per handler the scenario gives it. */
export function declaredCapabilities(handlers: ClientHandlers | undefined): ClientCapabilities {
  const declared: ClientCapabilities = {};
  for (const [c] of declaredHandlers(handlers)) declared[c] = {};
  return declared;
}

/** Runs one handler as its behaviour says, noting what it did, and returns `answer`. */
async function handled<R>(method: string, behaviour: ClientHandler, ctx: ClientContext, answer: R): Promise<R> {
  const { id, signal } = ctx.mcpReq;
  note({ type: 'client-handler-started', requestId: id, method });
  signal.addEventListener('abort', () => note({ type: 'client-handler-cancel-seen', requestId: id, reason: String(signal.reason) }), { once: true });
  const observe = behaviour.onCancel === 'observe';
  await sleep(behaviour.ms, observe ? signal : undefined);
  if (observe && signal.aborted) {
    const message = `cancelled: ${String(signal.reason)}`;
    note({ type: 'client-handler-threw', requestId: id, aborted: true, message });
    throw new Error(message);
  }
  note({ type: 'client-handler-returned', requestId: id, aborted: signal.aborted });
  return answer;
}

/** Registers a handler for each capability the scenario declares, behaving as it says. */
export function registerClientHandlers(sdk: Client, handlers: ClientHandlers | undefined): void {
  for (const [capability, behaviour] of declaredHandlers(handlers)) register(sdk, capability, behaviour);
}

function register(sdk: Client, capability: HandledCapability, behaviour: ClientHandler): void {
  switch (capability) {
    case 'sampling':
      sdk.setRequestHandler('sampling/createMessage', (_request, ctx) =>
        handled('sampling/createMessage', behaviour, ctx, { model: 'cancel-lab-model', role: 'assistant' as const, content: { type: 'text' as const, text: 'hello' } }),
      );
      return;
    case 'roots':
      sdk.setRequestHandler('roots/list', (_request, ctx) => handled('roots/list', behaviour, ctx, { roots: [{ uri: 'file:///cancel-lab', name: 'cancel-lab' }] }));
      return;
    case 'elicitation':
      sdk.setRequestHandler('elicitation/create', (_request, ctx) => handled('elicitation/create', behaviour, ctx, { action: 'accept' as const, content: { ok: true } }));
      return;
  }
}
