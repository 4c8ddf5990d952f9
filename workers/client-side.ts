/**
 * The client side: the real `Client` from the TypeScript SDK v2 over the simulated wire, behind
 * the chosen client profile's layer. Stop aborts the call's AbortController; the SDK then sends
 * `notifications/cancelled` (or, on 2026-07-28 Streamable HTTP, closes the request's stream).
 */
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  deserializeMessage,
  serializeMessage,
  type ClientOptions,
  type Transport,
} from '@modelcontextprotocol/client';
import { WireTransport, note } from './runtime.ts';
import { clientSideApi, type CallAction } from './client-api.ts';
import { WireFetch } from './http-client.ts';
import { SERVER_ORIGIN, type HandlerNote, type RequestId, type WireFrame } from '../src/trace/index.ts';
import { ClientProfileLayer, STOP_REASON } from './client-profiles.ts';
import { declaredCapabilities, registerClientHandlers } from './client-handlers.ts';
import { HostSessions, LOST_SERVER_MESSAGE } from './host-sessions.ts';
import type { ClientSideApi, SideConfig } from '../src/engine/index.ts';
import { clientMode, clientRevisions, pinnedRevision } from '../src/scenario/index.ts';

interface CallRecord {
  controller: AbortController;
  /** The tools/call id, once the SDK has written it. */
  id: RequestId | null;
  settled: boolean;
}

const calls = new Map<string, CallRecord>();
let config: SideConfig | null = null;
let client: Client | null = null;
let layer: ClientProfileLayer | null = null;
let receive: (frame: WireFrame) => void = () => undefined;
/** The HTTP wire's fetch: a host's re-initialize opens its new session on it (stream numbers go on). */
let wireFetch: WireFetch | null = null;
let hostSessions = new HostSessions();

/** The SDK's own client transport for the chosen wire (on HTTP over the present fetch when `sameWire`), and what takes the frames delivered to it. */
function transportFor(c: SideConfig, sameWire = false): Transport {
  if (c.transport === 'stdio') {
    const wire = new WireTransport({ serializeMessage, deserializeMessage });
    receive = (frame) => wire.receive(frame);
    return wire;
  }
  const http = sameWire && wireFetch ? wireFetch : new WireFetch();
  wireFetch = http;
  receive = (frame) => http.receive(frame);
  if (c.transport === 'http-sse') {
    return new SSEClientTransport(new URL(`${SERVER_ORIGIN}/sse`), {
      fetch: http.fetch,
      eventSourceInit: { fetch: http.fetch },
    });
  }
  return new StreamableHTTPClientTransport(new URL(`${SERVER_ORIGIN}/mcp`), { fetch: http.fetch });
}

/**
 * The strict host's policy (as reported for Claude Code): an unknown response id or progress
 * token is a connection error; the host closes the transport and starts over.
 */
const STRICT_HOST_TRIGGER = /unknown message ID|unknown token/;

/**
 * The real Client's own negotiation options: its supported revisions and, for a 2026-era
 * revision, pin or auto. Without a scenario negotiation, the revision alone (pinned on 2026-07-28).
 */
function clientOptions(c: SideConfig, mode: ReturnType<typeof clientMode>): ClientOptions {
  const capabilities = c.clientHandlers && { capabilities: declaredCapabilities(c.clientHandlers) };
  const pin = pinnedRevision(c);
  if (mode === 'pin' && pin !== undefined) {
    return { versionNegotiation: { mode: { pin } }, ...(c.negotiation?.client && { supportedProtocolVersions: c.negotiation.client }) };
  }
  const supportedProtocolVersions = clientRevisions(c);
  return mode === 'auto' ? { supportedProtocolVersions, versionNegotiation: { mode: 'auto' }, ...capabilities } : { supportedProtocolVersions, ...capabilities };
}

function connect(c: SideConfig, sameWire = false): void {
  if (c.clientProfile === 'ts-v1') throw new Error('the ts-v1 client is the real v1 SDK (workers/v1/client-v1.ts)');
  const mode = clientMode(c);
  const sdk = new Client({ name: 'cancel-lab-client', version: '0.1.0' }, clientOptions(c, mode));
  if (mode !== 'pin') registerClientHandlers(sdk, c.clientHandlers);
  const profileLayer = new ClientProfileLayer(transportFor(c, sameWire), c.clientProfile);
  sdk.onerror = (error) => {
    note({ type: 'client-onerror', message: error.message });
    if (c.clientProfile === 'strict-host' && STRICT_HOST_TRIGGER.test(error.message) && sdk === client) {
      note({ type: 'stderr', text: `Connection error: ${error.message}` });
      note({ type: 'stderr', text: 'Closing transport (stdio transport error: Error)' });
      reconnect('strict host: connection error on an unknown id');
    }
    if (c.clientProfile === 'strict-host' && c.transport === 'streamable-http' && sdk === client) hostSessions.onError(error, reinitialize);
  };
  sdk.connect(profileLayer, c.connectTimeoutMs !== undefined ? { timeout: c.connectTimeoutMs } : undefined).then(
    () => {
      hostSessions.onConnectEnded(null);
      note({
        type: 'connected',
        protocolVersion: sdk.getNegotiatedProtocolVersion() ?? 'unknown',
        era: sdk.getProtocolEra() ?? 'unknown',
      });
    },
    (error: unknown) => {
      note({ type: 'client-onerror', message: `connect failed: ${String(error)}` });
      hostSessions.onConnectEnded(error);
    },
  );
  client = sdk;
  layer = profileLayer;
}

/**
 * Closes this connection (its calls in flight fail) and opens a new one: after the note that says
 * why, so the new connection's frames belong to it. `sameWire` keeps the HTTP wire and server (a
 * new session), else the server process is restarted too.
 */
function replaceConnection(why: HandlerNote & { type: 'reconnect-requested' | 'new-session-requested' }, sameWire: boolean): void {
  if (!config) return;
  const oldClient = client;
  const oldLayer = layer;
  client = null;
  layer = null;
  // Close the old connection first, so its end-of-stream belongs to it; its calls then fail.
  void oldLayer?.close();
  void oldClient?.close();
  note(why);
  connect(config, sameWire);
}

/** Closes this connection and opens a new one (a strict host's reconnect, or the user's). */
function reconnect(reason: string): void {
  replaceConnection({ type: 'reconnect-requested', reason }, false);
}

/** The strict host's re-initialize after a 404: a new Client and session on the same HTTP wire (the server is not restarted). */
function reinitialize(): void {
  replaceConnection({ type: 'new-session-requested', reason: 'strict host: HTTP 404, taken for an expired session' }, true);
}

function errorCode(error: unknown): string | number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? code : undefined;
}

function isTimeout(error: unknown): error is Error & { data?: { timeout?: number } } {
  return error instanceof Error && errorCode(error) === 'REQUEST_TIMEOUT' && error.message !== 'user pressed Stop';
}


function call(action: CallAction): void {
  const sdk = client;
  const profileLayer = layer;
  if (!sdk || !profileLayer) throw new Error('client not initialised');
  const record: CallRecord = { controller: new AbortController(), id: null, settled: false };
  calls.set(action.call, record);
  if (hostSessions.lost) {
    record.settled = true;
    note({ type: 'call-settled', call: action.call, outcome: 'error', message: LOST_SERVER_MESSAGE, unsent: true });
    return;
  }
  if (action.stop === 'before-call') record.controller.abort(STOP_REASON);
  // callTool writes its request within this step; the layer names its id when it goes out.
  profileLayer.claimNextToolCall((id) => {
    record.id = id;
  }, action.timeoutMs);
  const settled = sdk.callTool(
    { name: action.tool, arguments: action.args },
    {
      signal: record.controller.signal,
      onprogress: (p) => note({ type: 'progress-received', call: action.call, progress: p.progress, ...(p.total !== undefined && { total: p.total }) }),
      ...(action.timeoutMs !== undefined && { timeout: action.timeoutMs }),
      ...(action.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: action.resetTimeoutOnProgress }),
      ...(action.maxTotalTimeoutMs !== undefined && { maxTotalTimeout: action.maxTotalTimeoutMs }),
    },
  );
  // Stop in the same tick as Call: callTool awaits before it writes the request, and the SDK then finds the signal aborted.
  if (action.stop === 'same-tick') record.controller.abort(STOP_REASON);
  settled.then(
    (result) => {
      record.settled = true;
      note({ type: 'call-settled', call: action.call, outcome: 'result', isError: result.isError === true });
    },
    (error: unknown) => {
      record.settled = true;
      if (record.id !== null) profileLayer.abandon(record.id);
      let message = error instanceof Error ? error.message : String(error);
      let code = errorCode(error);
      if (config?.clientProfile === 'py-v1' && isTimeout(error)) {
        // session.py:290-303: httpx.codes.REQUEST_TIMEOUT, raised locally.
        code = 408;
        message = `Timed out while waiting for response to ClientRequest. Waited ${(error.data?.timeout ?? 0) / 1000} seconds.`;
      }
      if (config?.clientProfile === 'py-v2' && record.id !== null) {
        // jsonrpc_dispatcher.py:425 raises MCPError(-32001) on a timeout; a caller's cancel re-raises CancelledError (:436).
        if (isTimeout(error)) [code, message] = [-32001, "Request 'tools/call' timed out"];
        else if (message === STOP_REASON) [code, message] = [undefined, 'CancelledError: the caller cancelled the call'];
      }
      note({ type: 'call-settled', call: action.call, outcome: 'error', message, ...(code !== undefined && { code }), ...(record.id === null && { unsent: true as const }) });
    },
  );
}

function stop(callId: string): void {
  const record = calls.get(callId);
  if (!record) return;
  record.controller.abort(STOP_REASON);
}

const v2ClientSide: ClientSideApi = clientSideApi({
  reset(c) {
    calls.clear();
    config = c;
    wireFetch = null;
    hostSessions = new HostSessions();
  },
  connect,
  receive: (frame) => receive(frame),
  call,
  stop,
  current: () => client,
  reconnect,
});

/**
 * The side a run talks to: v2, or the real v1 client (`ts-v1`), whose SDK is fetched only when
 * a run first asks for it.
 */
let active: ClientSideApi = v2ClientSide;

export const clientSide: ClientSideApi = {
  async init(c, t) {
    active = c.clientProfile === 'ts-v1' ? (await import('./v1/index.ts')).v1ClientSide : v2ClientSide;
    return active.init(c, t);
  },
  deliver: (t, frame) => active.deliver(t, frame),
  fireTimer: (t) => active.fireTimer(t),
  act: (t, action) => active.act(t, action),
};
