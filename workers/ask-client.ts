/**
 * The server's requests to the client mid-call (the `ask_client` tool), sent the way a tool
 * author sends them with the SDK v2: `ctx.mcpReq.elicitInput`, `ctx.mcpReq.requestSampling`,
 * and `ctx.mcpReq.send` for roots/list and ping, each related to the tool call (on Streamable
 * HTTP it goes out on the call's own SSE stream). The server cancels its own request by
 * aborting the signal it passed; the SDK then writes `notifications/cancelled`.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { AskRequest } from '../src/scenario/index.ts';

/** Sends `request` to the client and resolves with its answer (or rejects: an error, a cancel, a closed connection). */
export function askClient(ctx: ServerContext, request: AskRequest, signal: AbortSignal): Promise<unknown> {
  const options = { signal };
  switch (request) {
    case 'elicitation/create':
      return ctx.mcpReq.elicitInput(
        { mode: 'form', message: 'Go ahead?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } }, required: ['ok'] } },
        options,
      );
    case 'sampling/createMessage':
      return ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 20 }, options);
    case 'roots/list':
      return ctx.mcpReq.send({ method: 'roots/list' }, options);
    case 'ping':
      return ctx.mcpReq.send({ method: 'ping' }, options);
  }
}
