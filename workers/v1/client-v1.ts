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
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { WireTransport, note } from '../runtime.ts';
import { clientSideApi, type CallAction } from '../client-api.ts';
import { WireFetch } from '../http-client.ts';
import { SERVER_ORIGIN, type WireFrame } from '../../src/trace/index.ts';
import type { ClientSideApi, SideConfig } from '../../src/engine/index.ts';

const calls = new Map<string, AbortController>();
/** The task each task-augmented call created, once its CreateTaskResult arrived. */
const taskIds = new Map<string, string>();
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

/**
 * Counts the tools/call requests the SDK hands the transport: v1's callTool reaches
 * `transport.send` in the same tick it is called (no await before Protocol.request writes), so
 * a call that did not move the count wrote nothing (a signal already aborted:
 * protocol.js `options?.signal?.throwIfAborted()` before the id is taken).
 */
let toolCallsSent = 0;
function tapToolCalls(transport: Transport): void {
  const own = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/call') toolCallsSent++;
    return own(message, options);
  };
}

function connect(c: SideConfig): void {
  // v1 always asks for its newest revision (2025-11-25) and accepts any it supports that the
  // server answers with; it has no option to pin one.
  const sdk = new Client({ name: 'cancel-lab-client', version: '0.1.0' });
  const transport = transportFor(c);
  const negotiated = tapProtocolVersion(transport);
  tapToolCalls(transport);
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

/** The SDK's request options for a call, as the scenario sets them. */
function requestOptions(action: CallAction, signal: AbortSignal): RequestOptions {
  return {
    signal,
    onprogress: (p) => note({ type: 'progress-received', call: action.call, progress: p.progress, ...(p.total !== undefined && { total: p.total }) }),
    ...(action.timeoutMs !== undefined && { timeout: action.timeoutMs }),
    ...(action.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: action.resetTimeoutOnProgress }),
    ...(action.maxTotalTimeoutMs !== undefined && { maxTotalTimeout: action.maxTotalTimeoutMs }),
    ...(action.task && { task: action.task.ttlMs !== undefined ? { ttl: action.task.ttlMs } : {} }),
  };
}

function settled(call: string, outcome: { result: Record<string, unknown> } | { error: unknown }, unsent = false): void {
  if ('result' in outcome) {
    note({ type: 'call-settled', call, outcome: 'result', isError: outcome.result.isError === true });
    return;
  }
  const { error } = outcome;
  note({
    type: 'call-settled',
    call,
    outcome: 'error',
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof McpError && { code: error.code }),
    ...(unsent && { unsent: true as const }),
  });
}

/**
 * A task-augmented call, as v1 offers it (experimental.tasks.callToolStream): tools/call with
 * `task`, then tasks/get every pollInterval until the task is terminal, then tasks/result.
 */
async function callAsTask(sdk: Client, action: CallAction, options: RequestOptions): Promise<void> {
  for await (const message of sdk.experimental.tasks.callToolStream({ name: action.tool, arguments: action.args }, CallToolResultSchema, options)) {
    if (message.type === 'taskCreated') taskIds.set(action.call, message.task.taskId);
    else if (message.type === 'result') settled(action.call, { result: message.result });
    else if (message.type === 'error') settled(action.call, { error: message.error });
  }
}

function call(action: CallAction): void {
  const sdk = client;
  if (!sdk) throw new Error('client not initialised');
  const controller = new AbortController();
  calls.set(action.call, controller);
  const options = requestOptions(action, controller.signal);
  if (action.task) {
    void callAsTask(sdk, action, options);
    return;
  }
  if (action.stop === 'before-call') controller.abort('user pressed Stop');
  const before = toolCallsSent;
  const pending = sdk.callTool({ name: action.tool, arguments: action.args }, CallToolResultSchema, options);
  const written = toolCallsSent > before;
  // Stop in the same tick as Call: v1 has already written the request by now, so its abort
  // listener cancels it on the wire (v2, which awaits before writing, sends nothing).
  if (action.stop === 'same-tick') controller.abort('user pressed Stop');
  pending.then(
    (result) => settled(action.call, { result }),
    (error: unknown) => settled(action.call, { error }, !written),
  );
}

/** tasks/cancel for the call's task (v1's experimental.tasks.cancelTask). */
function cancelTask(callId: string): void {
  const taskId = taskIds.get(callId);
  if (!client || taskId === undefined) {
    note({ type: 'client-onerror', message: `tasks/cancel: call ${callId} has no task (yet)` });
    return;
  }
  client.experimental.tasks.cancelTask(taskId).catch((error: unknown) => note({ type: 'client-onerror', message: `tasks/cancel failed: ${String(error)}` }));
}

export const v1ClientSide: ClientSideApi = clientSideApi({
  reset(c) {
    calls.clear();
    taskIds.clear();
    config = c;
  },
  connect,
  receive: (frame) => receive(frame),
  call,
  // Also after the call settled: v1's abort listener is still there and sends a cancel.
  stop: (callId) => calls.get(callId)?.abort('user pressed Stop'),
  cancelTask,
  current: () => client,
  reconnect,
});
