/**
 * The client side on the real TypeScript SDK v1 (`@modelcontextprotocol/sdk` 1.32.2): its own
 * `Client` over the simulated wire, with no layer between it and its transport. Loaded only
 * when a scenario picks the `ts-v1` client (client-side.ts imports it on demand). What v1 does
 * on a Stop or a timeout is v1's own: it sends `notifications/cancelled` from the abort listener
 * it never removes, and rejects with `McpError` -32001 (shared/protocol.ts request()).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { WireTransport, fireTimerAt, note, resetRun, runAt } from '../runtime.ts';
import { WireFetch } from '../http-client.ts';
import { SERVER_ORIGIN, type WireFrame } from '../../src/trace/index.ts';
import type { ClientAction, ClientSideApi, SideConfig } from '../../src/engine/index.ts';

const calls = new Map<string, AbortController>();
let config: SideConfig | null = null;
let client: Client | null = null;
let receive: (frame: WireFrame) => void = () => undefined;

/** v1's own client transport for the chosen wire, and what takes the frames delivered to it. */
function transportFor(c: SideConfig): Transport {
  if (c.transport === 'stdio') {
    const wire = new WireTransport({ serializeMessage, deserializeMessage });
    receive = (frame) => wire.receive(frame);
    return wire;
  }
  const wireFetch = new WireFetch();
  receive = (frame) => wireFetch.receive(frame);
  if (c.transport === 'http-sse') {
    return new SSEClientTransport(new URL(`${SERVER_ORIGIN}/sse`), { fetch: wireFetch.fetch, eventSourceInit: { fetch: wireFetch.fetch } });
  }
  return new StreamableHTTPClientTransport(new URL(`${SERVER_ORIGIN}/mcp`), { fetch: wireFetch.fetch });
}

/**
 * v1's Client keeps the negotiated revision to itself and hands it only to the transport
 * (client/index.ts connect(): `transport.setProtocolVersion?.(…)`), so the side listens there.
 */
function tapProtocolVersion(transport: Transport): () => string | undefined {
  let negotiated: string | undefined;
  const own = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    negotiated = version;
    own?.(version);
  };
  return () => negotiated;
}

function connect(c: SideConfig): void {
  // v1 always asks for its newest revision (2025-11-25) and accepts any it supports that the
  // server answers with; it has no option to pin one.
  const sdk = new Client({ name: 'cancel-lab-client', version: '0.1.0' });
  const transport = transportFor(c);
  const negotiated = tapProtocolVersion(transport);
  sdk.onerror = (error) => note({ type: 'client-onerror', message: error.message });
  sdk.connect(transport, c.connectTimeoutMs !== undefined ? { timeout: c.connectTimeoutMs } : undefined).then(
    () => note({ type: 'connected', protocolVersion: negotiated() ?? 'unknown', era: 'legacy' }),
    (error: unknown) => note({ type: 'client-onerror', message: `connect failed: ${String(error)}` }),
  );
  client = sdk;
}

/** Closes this connection (its calls in flight fail) and opens a new one. */
function reconnect(reason: string): void {
  if (!config) return;
  const old = client;
  client = null;
  void old?.close();
  note({ type: 'reconnect-requested', reason });
  connect(config);
}

function call(action: Extract<ClientAction, { type: 'call' }>): void {
  const sdk = client;
  if (!sdk) throw new Error('client not initialised');
  const controller = new AbortController();
  calls.set(action.call, controller);
  sdk
    .callTool({ name: action.tool, arguments: action.args }, CallToolResultSchema, {
      signal: controller.signal,
      onprogress: (p) => note({ type: 'progress-received', call: action.call, progress: p.progress, ...(p.total !== undefined && { total: p.total }) }),
      ...(action.timeoutMs !== undefined && { timeout: action.timeoutMs }),
      ...(action.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: action.resetTimeoutOnProgress }),
      ...(action.maxTotalTimeoutMs !== undefined && { maxTotalTimeout: action.maxTotalTimeoutMs }),
    })
    .then(
      (result) => note({ type: 'call-settled', call: action.call, outcome: 'result', isError: result.isError === true }),
      (error: unknown) =>
        note({
          type: 'call-settled',
          call: action.call,
          outcome: 'error',
          message: error instanceof Error ? error.message : String(error),
          ...(error instanceof McpError && { code: error.code }),
        }),
    );
}

export const v1ClientSide: ClientSideApi = {
  init(c, t) {
    resetRun(t);
    calls.clear();
    config = c;
    return runAt(t, () => connect(c));
  },
  deliver(t, frame) {
    return runAt(t, () => receive(frame));
  },
  fireTimer: fireTimerAt,
  act(t, action) {
    return runAt(t, () => {
      switch (action.type) {
        case 'call':
          call(action);
          return;
        case 'stop':
          // Also after the call settled: v1's abort listener is still there and sends a cancel.
          calls.get(action.call)?.abort('user pressed Stop');
          return;
        case 'disconnect':
          note({ type: 'client-closed', reason: 'the user disconnected the transport' });
          void client?.close();
          return;
        case 'reconnect':
          reconnect('the user restarted the server');
          return;
      }
    });
  },
};
