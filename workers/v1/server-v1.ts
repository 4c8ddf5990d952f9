/**
 * The server side on the real TypeScript SDK v1 (`@modelcontextprotocol/sdk` 1.32.2): its own
 * `McpServer` with the lab's tools, served over the simulated wire the way v1 offers for each
 * transport. Loaded only when a scenario picks the `ts-v1` server (server-side.ts imports it on
 * demand), so the v2 pages never fetch it. Every timer here is virtual, as on v2.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { WireTransport, note } from '../runtime.ts';
import { serverSideApi } from '../server-api.ts';
import { HttpServerHost } from '../http-server.ts';
import { Sse2024ServerTransport } from '../sse2024-server.ts';
import { registerTaskTool } from './background-job.ts';
import { LabTaskStore } from './task-store.ts';
import { registration, runTool, type TextResult, type ToolArgs, type ToolRequest } from '../lab-tools.ts';
import { TOOLS, serverShape, type ToolName } from '../../src/scenario/index.ts';
import type { ServerSideApi, SideConfig } from '../../src/engine/index.ts';
import type { WireFrame } from '../../src/trace/index.ts';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A call as the lab's tools see it, from v1's handler `extra`. */
function toolRequest(extra: Extra): ToolRequest {
  return {
    id: extra.requestId,
    signal: extra.signal,
    progressToken: extra._meta?.progressToken,
    // v1 drops a notification once the request is aborted (protocol.ts sendNotification).
    notifyProgress: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
  };
}

function run<N extends ToolName>(name: N, args: ToolArgs<N>, extra: Extra): Promise<TextResult> {
  return runTool(name, args, toolRequest(extra));
}

/**
 * v1's McpServer takes no list of revisions: it answers the client's requested revision when it
 * supports it (server/index.ts _oninitialize), so the client side picks the revision.
 */
function buildServer(tasks: LabTaskStore): McpServer {
  // Tasks as v1 serves them on 2025-11-25: tools/call may ask for one; tasks/get, tasks/result and tasks/cancel are the SDK's.
  const server = new McpServer(
    { name: 'cancel-lab-server', version: '0.1.0' },
    { capabilities: { tasks: { requests: { tools: { call: {} } }, cancel: {}, list: {} } }, taskStore: tasks },
  );
  server.server.onerror = (error) => note({ type: 'server-onerror', message: error.message });
  // Every tool v1 offers, in tools/list's order (typed for any tool's arguments, as on v2: the
  // SDK parses a call's arguments with its own tool's schema).
  for (const tool of TOOLS) {
    if (tool.v1 === 'task') registerTaskTool(server, tool);
    else if (tool.v1 === 'tool') server.registerTool(tool.name, registration(tool), (args: ToolArgs<ToolName>, extra: Extra) => run(tool.name, args, extra));
  }
  return server;
}

/** Serves v1 the way it is served on each transport; returns what takes the delivered frames. */
function serve(config: SideConfig): (frame: WireFrame) => void {
  // One store per process (or endpoint): a stateless server's per-request instances share it.
  const tasks = new LabTaskStore();
  switch (config.transport) {
    case 'stdio': {
      const wire = new WireTransport({ serializeMessage, deserializeMessage });
      void buildServer(tasks).connect(wire);
      return (frame) => wire.receive(frame);
    }
    case 'http-sse': {
      // v1's own SSEServerTransport writes to a Node ServerResponse; the lab's 2024-11-05 endpoint
      // is the same protocol over web-standard Requests, and runs in a browser as well.
      const transport = new Sse2024ServerTransport();
      void buildServer(tasks).connect(transport);
      const host = new HttpServerHost((request) => transport.handle(request));
      return (frame) => host.receive(frame);
    }
    case 'streamable-http': {
      if (serverShape(config) === 'sessionful') {
        let sessions = 0;
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => `session-${++sessions}` });
        void buildServer(tasks).connect(transport);
        const host = new HttpServerHost((request) => transport.handleRequest(request));
        return (frame) => host.receive(frame);
      }
      // Stateless, as v1 documents it: a fresh server and transport for every request.
      const host = new HttpServerHost(async (request) => {
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        await buildServer(tasks).connect(transport);
        return transport.handleRequest(request);
      });
      return (frame) => host.receive(frame);
    }
  }
}

export const v1ServerSide: ServerSideApi = serverSideApi(serve);
