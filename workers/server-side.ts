/**
 * The server side: the real `McpServer` from the TypeScript SDK v2, served the way the SDK
 * offers for the chosen transport, with the playground's tools; on stdio, behind the chosen
 * server profile's layer. Every timer here is virtual.
 */
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  deserializeMessage,
  serializeMessage,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { WireTransport, fireTimerAt, kill, note, resetRun, runAt, send } from './runtime.ts';
import { HttpServerHost } from './http-server.ts';
import { Sse2024ServerTransport } from './sse2024-server.ts';
import { ServerProfileLayer } from './server-profiles.ts';
import { askClient } from './ask-client.ts';
import { TOOLS, TOOL_INPUT, serverShape, type ToolName } from '../src/scenario/index.ts';
import type { ServerSideApi, SideConfig } from '../src/engine/index.ts';
import type { WireFrame } from '../src/trace/index.ts';

type RequestId = string | number;

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** Thrown by a handler that stops because it was cancelled (Python's CancelledError, in spirit). */
class Cancelled extends Error {
  constructor(reason: unknown) {
    super(`cancelled: ${String(reason)}`);
    this.name = 'Cancelled';
  }
}

/** Resolves after `ms` of virtual time, or as soon as `signal` aborts when one is given. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** The profile layer of the current process (stdio only); the tool wrapper reports to it. */
let layer: ServerProfileLayer | null = null;

/**
 * Wraps a tool handler so the trace shows what the handler did: started, saw the
 * cancellation, returned or threw. Whether a response followed is read off the wire.
 */
function observed<A>(
  tool: string,
  handler: (args: A, ctx: ServerContext, id: RequestId) => Promise<CallToolResult>,
): (args: A, ctx: ServerContext) => Promise<CallToolResult> {
  return async (args, ctx) => {
    const id = ctx.mcpReq.id;
    const signal = ctx.mcpReq.signal;
    note({ type: 'handler-started', requestId: id, tool });
    signal.addEventListener('abort', () => note({ type: 'handler-cancel-seen', requestId: id, reason: String(signal.reason) }), { once: true });
    const current = layer;
    try {
      const result = await handler(args, ctx, id);
      note({ type: 'handler-returned', requestId: id, aborted: signal.aborted });
      current?.handlerFinished(id, false);
      return result;
    } catch (error) {
      note({ type: 'handler-threw', requestId: id, aborted: signal.aborted, message: String(error) });
      current?.handlerFinished(id, error instanceof Cancelled);
      throw error;
    }
  };
}

/** How a tool is registered: the summary and the argument schema src/scenario/tools.ts gives it. */
function registration<N extends ToolName>(name: N): { description: string; inputSchema: (typeof TOOL_INPUT)[N] } {
  return { description: TOOLS.find((t) => t.name === name)?.summary ?? name, inputSchema: TOOL_INPUT[name] };
}

function buildServer(config: SideConfig): McpServer {
  const server = new McpServer(
    { name: 'cancel-lab-server', version: '0.1.0' },
    config.revision === '2026-07-28' ? {} : { supportedProtocolVersions: [config.revision] },
  );
  server.server.onerror = (error) => note({ type: 'server-onerror', message: error.message });

  server.registerTool(
    'slow_count',
    registration('slow_count'),
    observed('slow_count', async ({ steps, stepMs, onCancel }, ctx) => {
      const { signal } = ctx.mcpReq;
      const token = ctx.mcpReq._meta?.progressToken;
      // "ignore": the signal is never read, so the count and its progress go on after a cancel.
      const listening = onCancel !== 'ignore';
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs, listening ? signal : undefined);
        if (listening && signal.aborted) throw new Cancelled(signal.reason);
        if (token !== undefined) {
          // Progress is best effort: a notification the transport can no longer send (the
          // older of two handlers for a duplicated request has no stream or connection left)
          // is reported, and the count goes on; the lab's tools throw only once cancelled.
          await ctx.mcpReq
            .notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } })
            .catch((error: unknown) => note({ type: 'server-onerror', message: `progress ${i} not sent: ${String(error)}` }));
        }
      }
      return text(`counted to ${steps}`);
    }),
  );

  server.registerTool(
    'stubborn',
    registration('stubborn'),
    observed('stubborn', async ({ ms }) => {
      await sleep(ms);
      return text(`done after ${ms} ms`);
    }),
  );

  server.registerTool(
    'ledger_write',
    registration('ledger_write'),
    observed('ledger_write', async ({ key, value, commitAfterMs, totalMs }, ctx, id) => {
      const { signal } = ctx.mcpReq;
      await sleep(commitAfterMs, signal);
      if (signal.aborted) throw new Cancelled(signal.reason);
      note({ type: 'ledger-commit', requestId: id, key, value });
      await sleep(Math.max(0, totalMs - commitAfterMs), signal);
      if (signal.aborted) throw new Cancelled(signal.reason);
      return text(`committed ${key}=${value}`);
    }),
  );

  server.registerTool(
    'work',
    registration('work'),
    observed('work', async ({ ms, onCancel, unwindMs }, ctx) => {
      const { signal } = ctx.mcpReq;
      if (onCancel === 'ignore') {
        await sleep(ms);
        return text(`finished ${ms} ms of work`);
      }
      await sleep(ms, signal);
      if (!signal.aborted) return text(`finished ${ms} ms of work`);
      switch (onCancel) {
        case 'observe':
          throw new Cancelled(signal.reason);
        case 'swallow':
          return text('caught the cancellation and returned anyway');
        case 'shield':
          await sleep(unwindMs);
          throw new Cancelled(signal.reason);
      }
    }),
  );

  server.registerTool(
    'quick',
    registration('quick'),
    observed('quick', async () => text('quick answer')),
  );

  server.registerTool(
    'ask_client',
    registration('ask_client'),
    observed('ask_client', async ({ request, afterMs, then, cancelAfterMs }, ctx, id) => {
      const { signal } = ctx.mcpReq;
      await sleep(afterMs, signal);
      if (signal.aborted) throw new Cancelled(signal.reason);
      // Its own controller, not the call's signal: what the SDK does with the request when the
      // call is cancelled is what the lab shows.
      const own = new AbortController();
      const timer = then === 'cancel' ? setTimeout(() => own.abort('the server stopped waiting'), cancelAfterMs) : undefined;
      note({ type: 'asked-client', requestId: id, method: request });
      try {
        const answer = await askClient(ctx, request, own.signal);
        note({ type: 'client-answered', requestId: id, method: request, outcome: 'result' });
        return text(`the client answered ${request}: ${JSON.stringify(answer)}`);
      } catch (error) {
        note({ type: 'client-answered', requestId: id, method: request, outcome: 'error', message: String(error) });
        if (signal.aborted) throw new Cancelled(signal.reason);
        return text(`${request} ended without an answer: ${String(error)}`);
      } finally {
        clearTimeout(timer);
      }
    }),
  );

  return server;
}

const onerror = (error: Error): void => note({ type: 'server-onerror', message: error.message });

/** The emulated process exits: its stdout closes (EOF), then nothing more leaves it. */
function crash(code: number, reason: string): void {
  note({ type: 'server-exited', code, reason });
  send({ raw: '', eof: true });
  layer = null;
  kill();
}

/**
 * Serves the real server the way the SDK offers for the chosen transport, and returns what
 * takes the frames the wire delivers.
 */
function serve(config: SideConfig): (frame: WireFrame) => void {
  const factory = (): McpServer => buildServer(config);
  switch (config.transport) {
    case 'stdio': {
      // serveStdio takes any Transport: legacy revisions get `initialize`, 2026-07-28 `server/discover`.
      const wire = new WireTransport({ serializeMessage, deserializeMessage });
      layer = new ServerProfileLayer(wire, config.serverProfile, { crash });
      serveStdio(factory, { transport: layer, onerror });
      return (frame) => wire.receive(frame);
    }
    case 'http-sse': {
      const transport = new Sse2024ServerTransport();
      void factory().connect(transport);
      const host = new HttpServerHost((request) => transport.handle(request));
      return (frame) => host.receive(frame);
    }
    case 'streamable-http': {
      if (serverShape(config) === 'sessionful') {
        let sessions = 0;
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => `session-${++sessions}` });
        void factory().connect(transport);
        const host = new HttpServerHost((request) => transport.handleRequest(request));
        return (frame) => host.receive(frame);
      }
      // createMcpHandler: a fresh server per request (2025 era: its default 'stateless' fallback).
      const handler = createMcpHandler(factory, { onerror });
      const host = new HttpServerHost((request) => handler.fetch(request));
      return (frame) => host.receive(frame);
    }
  }
}

let receive: (frame: WireFrame) => void = () => undefined;

export const serverSide: ServerSideApi = {
  init(config, t) {
    resetRun(t);
    layer = null;
    return runAt(t, () => {
      receive = serve(config);
    });
  },
  deliver(t, frame) {
    return runAt(t, () => receive(frame));
  },
  fireTimer: fireTimerAt,
  act(t, action) {
    return runAt(t, () => {
      if (action.type === 'crash') crash(137, 'killed by the user');
    });
  },
};
