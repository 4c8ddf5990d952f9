/**
 * The server side: the real `McpServer` from the TypeScript SDK v2, served the way the SDK
 * offers for the chosen transport, with the playground's tools; on stdio, behind the chosen
 * server profile's layer. Every timer here is virtual.
 */
import {
  McpServer,
  createMcpHandler,
  deserializeMessage,
  serializeMessage,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerContext } from '@modelcontextprotocol/server';
import { WireTransport, note } from './runtime.ts';
import { exitProcess, serverSideApi } from './server-api.ts';
import { HttpServerHost } from './http-server.ts';
import { SessionfulHttp } from './sessionful-http.ts';
import { Sse2024ServerTransport } from './sse2024-server.ts';
import { ServerProfileLayer, goNotificationAdmission } from './server-profiles.ts';
import { askClient } from './ask-client.ts';
import { TOOLS, serverRevisions, serverShape, type ToolName } from '../src/scenario/index.ts';
import { registration, runTool, type TextResult, type ToolArgs, type ToolRequest } from './lab-tools.ts';
import type { ServerSideApi, SideConfig } from '../src/engine/index.ts';
import type { WireFrame } from '../src/trace/index.ts';

/** The profile layer of the current process (stdio only); the tools report to it. */
let layer: ServerProfileLayer | null = null;
/** The sessionful Streamable HTTP server, which takes the streams steps (close-stream, expire-session). */
let sessionful: SessionfulHttp | null = null;

/** A call as the lab's tools see it (workers/lab-tools.ts), from v2's handler context. */
function toolRequest(ctx: ServerContext): ToolRequest {
  return {
    id: ctx.mcpReq.id,
    signal: ctx.mcpReq.signal,
    progressToken: ctx.mcpReq._meta?.progressToken,
    notifyProgress: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
    askClient: (request, signal) => askClient(ctx, request, signal),
  };
}

/** Runs a lab tool for v2; the layer of the process the call arrived on hears how it ended. */
function run<N extends ToolName>(name: N, args: ToolArgs<N>, ctx: ServerContext): Promise<TextResult> {
  const current = layer;
  return runTool(name, args, toolRequest(ctx), (id, unwound, outcome) => current?.handlerFinished(id, unwound, outcome));
}

/** The real server's own list of supported revisions (negotiation.ts); on 2026-07-28 without one, the SDK's default. */
function supportedOption(config: SideConfig): { supportedProtocolVersions?: string[] } {
  const list = serverRevisions(config);
  return list ? { supportedProtocolVersions: list } : {};
}

function buildServer(config: SideConfig): McpServer {
  const server = new McpServer(
    { name: 'cancel-lab-server', version: '0.1.0' },
    supportedOption(config),
  );
  server.server.onerror = (error) => note({ type: 'server-onerror', message: error.message });
  // Every tool, in tools/list's order. The handler is typed for any tool's arguments: the SDK
  // parses a call's arguments with its own tool's schema, a pairing the types cannot follow.
  for (const tool of TOOLS) server.registerTool(tool.name, registration(tool), (args: ToolArgs<ToolName>, ctx: ServerContext) => run(tool.name, args, ctx));
  return server;
}

const onerror = (error: Error): void => note({ type: 'server-onerror', message: error.message });

/** The emulated process exits (an emulation's crash): its profile layer goes with it. */
function crash(code: number, reason: string): void {
  layer = null;
  exitProcess(code, reason);
}

/**
 * Serves the real server the way the SDK offers for the chosen transport, and returns what
 * takes the frames the wire delivers.
 */
function serve(config: SideConfig): (frame: WireFrame) => void {
  const factory = (): McpServer => buildServer(config);
  switch (config.transport) {
    case 'stdio': {
      if (config.serverProfile === 'ts-v1') throw new Error('the ts-v1 server is the real v1 SDK (workers/v1/server-v1.ts)');
      // serveStdio takes any Transport: legacy revisions get `initialize`, 2026-07-28 `server/discover`.
      const wire = new WireTransport({ serializeMessage, deserializeMessage });
      layer = new ServerProfileLayer(wire, config.serverProfile, { crash });
      // A server whose own list holds no 2026-era revision is served hand-wired, the SDK's
      // 2025-only way (serveStdio would answer server/discover whatever the list says).
      if (config.negotiation?.server?.every((r) => r < '2026-07-28')) void factory().connect(layer);
      else serveStdio(factory, { transport: layer, onerror });
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
        sessionful = new SessionfulHttp(factory, config);
        const served = sessionful;
        return (frame) => served.receive(frame);
      }
      // createMcpHandler: a fresh server per request (2025 era: its default 'stateless' fallback).
      const handler = createMcpHandler(factory, { onerror });
      const serveRequest = (request: Request): Promise<Response> => handler.fetch(request);
      const host = new HttpServerHost(config.serverProfile === 'go' ? goNotificationAdmission(serveRequest) : serveRequest);
      return (frame) => host.receive(frame);
    }
  }
}

const v2ServerSide: ServerSideApi = serverSideApi(
  serve,
  () => {
    layer = null;
    sessionful = null;
  },
  (action) => {
    if (!sessionful) throw new Error(`only the sessionful Streamable HTTP server can ${action.type}`);
    sessionful.act(action);
  },
);

/**
 * The side a run talks to: v2, or the real v1 server (`ts-v1`), whose SDK is fetched only when
 * a run first asks for it.
 */
let active: ServerSideApi = v2ServerSide;

export const serverSide: ServerSideApi = {
  async init(config, t) {
    active = config.serverProfile === 'ts-v1' ? (await import('./v1/index.ts')).v1ServerSide : v2ServerSide;
    return active.init(config, t);
  },
  deliver: (t, frame) => active.deliver(t, frame),
  fireTimer: (t) => active.fireTimer(t),
  act: (t, action) => active.act(t, action),
};
