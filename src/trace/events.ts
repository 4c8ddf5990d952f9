/**
 * The trace: the one source every view renders. A run appends events to it and never edits
 * one; views (wire log, state panels, ledger, tests) are functions of the trace alone.
 */

/** Which way a frame travels on the wire. */
export type Direction = 'c2s' | 's2c';

export const DIRECTION_LABEL: Record<Direction, string> = {
  c2s: 'client → server',
  s2c: 'server → client',
};

/** A JSON-RPC message as parsed from a frame; `null` when the frame is not valid JSON. */
export type JsonRpcMessage = {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

import type {
  ClientHandlerEvent,
  ClientHandlerState,
  ClientRequestEvent,
  ClientRequestState,
  ConnectionEventName,
  ConnectionState,
  ServerHandlerEvent,
  ServerHandlerState,
  ServerRequestEvent,
  ServerRequestState,
} from '../machines/index.ts';

import type { UserAction } from './actions.ts';

export type { ClientRequestState, ServerHandlerState };

interface Base {
  /** Position in the trace, from 0. */
  seq: number;
  /** Virtual time in milliseconds since the run started. */
  t: number;
}

/**
 * How a frame sits in HTTP, on the HTTP transports. Each HTTP exchange is a numbered stream:
 * the client's request (line, headers, body), then the server's response head, body chunks
 * (one SSE event or one JSON body each) and end; or the client closing it early (abort).
 */
export type HttpPart = 'request' | 'response-head' | 'chunk' | 'end' | 'abort';

export interface HttpFraming {
  stream: number;
  part: HttpPart;
  /** Request line, for `request`. */
  method?: string;
  url?: string;
  /** For `response-head`. */
  status?: number;
  /** The headers that matter for MCP (lower-case names), for `request` and `response-head`. */
  headers?: Record<string, string>;
}

/** A frame written to the wire by one side. Delivery is a separate, later `delivery` event. */
export interface FrameEvent extends Base {
  kind: 'frame';
  frame: number;
  dir: Direction;
  /**
   * The bytes on the wire, exactly as written: for stdio one line, newline included; for HTTP
   * the request line, headers and body, the status line and headers, or the SSE lines.
   */
  raw: string;
  /** The JSON-RPC message the frame carries, if any (HTTP heads, ends and aborts carry none). */
  msg: JsonRpcMessage | null;
  http?: HttpFraming;
  /**
   * When the wire will hand it to the other side: `t` plus that direction's latency (plus any
   * delay a fault adds); null while held, or when a fault drops it.
   */
  deliverAt: number | null;
  /** Set when the frame was forged by the user, not written by the SDK. */
  injected?: true;
  /** The end of a stdio stream: the writer closed its end (the process exited, or the host closed the pipe). */
  eof?: true;
  /** A fault the user set on the wire did this to the frame. */
  fault?: 'dropped' | 'delayed' | 'duplicated' | 'held' | 'retyped';
  /**
   * A response head a wire fault relabelled (`fault: 'retyped'`): the Content-Type the server
   * wrote (empty when it wrote none). `raw` and `http` are the head as the wire carried it.
   */
  retypedFrom?: string;
  /** Which connection the frame belongs to (a reconnect starts a new one; stale frames are dropped). */
  connection: number;
}

export interface DeliveryEvent extends Base {
  kind: 'delivery';
  frame: number;
  dir: Direction;
  /** Set when the frame reached nobody: its connection was gone, or the receiver had crashed. */
  dropped?: string;
}

export interface UserActionEvent extends Base {
  kind: 'user-action';
  action: UserAction;
}

/** Something a handler or the client SDK did that is not a frame. */
export type HandlerNote =
  | { type: 'handler-started'; requestId: string | number; tool: string }
  | { type: 'handler-cancel-seen'; requestId: string | number; reason: string }
  | { type: 'handler-returned'; requestId: string | number; aborted: boolean }
  | { type: 'handler-threw'; requestId: string | number; aborted: boolean; message: string }
  | { type: 'ledger-commit'; requestId: string | number; key: string; value: string }
  /** ask_client is about to send the client `method`, for the tools/call `requestId` (the next such request the server writes). */
  | { type: 'asked-client'; requestId: string | number; method: string }
  /** The server's request to the client settled, as the tool of `requestId` saw it. */
  | { type: 'client-answered'; requestId: string | number; method: string; outcome: 'result' | 'error'; message?: string }
  /** The client's handler of a server request (`requestId` is the server's request's id): started, saw its cancel, ended. */
  | { type: 'client-handler-started'; requestId: string | number; method: string }
  | { type: 'client-handler-cancel-seen'; requestId: string | number; reason: string }
  | { type: 'client-handler-returned'; requestId: string | number; aborted: boolean }
  | { type: 'client-handler-threw'; requestId: string | number; aborted: boolean; message: string }
  | { type: 'progress-received'; call: string; progress: number; total?: number }
  /** `unsent`: the call's promise rejected before its request was written (nothing reached the wire). */
  | { type: 'call-settled'; call: string; outcome: 'result' | 'error'; isError?: boolean; message?: string; code?: string | number; unsent?: true }
  | { type: 'client-onerror'; message: string }
  | { type: 'server-onerror'; message: string }
  | { type: 'connected'; protocolVersion: string; era: string }
  /** An HTTP frame that reached a side after its stream was closed there: nobody reads it. */
  | { type: 'frame-dropped'; stream: number; reason: string }
  /** A line on a side's stderr (emulated profiles write their logs and tracebacks here). */
  | { type: 'stderr'; text: string }
  /** An emulated profile did something the real SDK would not: what, and the upstream source it follows. */
  | { type: 'emulation'; profile: string; what: string; source: string }
  /** The server process exited. */
  | { type: 'server-exited'; code: number; reason: string }
  /** The host closes the connection and starts a new one (a strict host after an unknown id, or the user). */
  | { type: 'reconnect-requested'; reason: string }
  /** The host starts a new session on the same HTTP wire (a strict host after a 404): a new connection to the same server. */
  | { type: 'new-session-requested'; reason: string }
  | { type: 'client-closed'; reason: string };

export interface HandlerEvent extends Base {
  kind: 'handler';
  side: 'client' | 'server';
  note: HandlerNote;
}

export interface ClientStateEvent extends Base {
  kind: 'client-state';
  call: string;
  requestId: string | number | null;
  /** The connection the call was made on (request ids start again on each connection). */
  connection: number;
  machine: 'client-request';
  /** null when the call starts in the table's initial state. */
  from: ClientRequestState | null;
  to: ClientRequestState;
  /** The table's event that took the transition (null for the initial entry). */
  on: ClientRequestEvent | null;
  /** The transition's label, or what started the call: words for people, never read by code. */
  because: string;
}

export interface ServerStateEvent extends Base {
  kind: 'server-state';
  requestId: string | number;
  machine: 'server-handler';
  from: ServerHandlerState | null;
  to: ServerHandlerState;
  on: ServerHandlerEvent | null;
  because: string;
}

/** What a request the server sent the client (ask_client) is stepped by: its id and method, on a connection. */
interface ServerRequestSubject extends Base {
  /** The server's own id for the request (the server counts apart from the client). */
  requestId: string | number;
  method: string;
  connection: number;
  because: string;
}

/** The server's view of a request it sent the client (src/machines/server-request.ts) took a step. */
export interface ServerRequestStateEvent extends ServerRequestSubject {
  kind: 'server-request-state';
  machine: 'server-request';
  from: ServerRequestState | null;
  to: ServerRequestState;
  on: ServerRequestEvent | null;
}

/** The client's handler of a server request (src/machines/client-handler.ts) took a step. */
export interface ClientHandlerStateEvent extends ServerRequestSubject {
  kind: 'client-handler-state';
  machine: 'client-handler';
  from: ClientHandlerState | null;
  to: ClientHandlerState;
  on: ClientHandlerEvent | null;
}

/** The connection lifecycle table (src/machines/connection.ts) took a step. */
export interface ConnectionStateEvent extends Base {
  kind: 'connection-state';
  machine: 'connection';
  from: ConnectionState;
  to: ConnectionState;
  on: ConnectionEventName;
  because: string;
}

/** The transport's own lifecycle: streams, sessions, the connection. */
export interface ConnectionEvent extends Base {
  kind: 'connection';
  event:
    | 'stream-opened'
    | 'stream-closed'
    | 'session-created'
    | 'session-expired'
    | 'connected'
    | 'disconnected'
    | 'crashed'
    | 'reconnecting';
  stream?: number;
  by?: 'client' | 'server';
  detail: string;
}

/**
 * A trace imported from a log captured outside the lab (src/trace/import/). `source` opens it:
 * the trace holds only what crossed the wire where the log was taken, so rules that need what
 * the lab's own sides see (handler state, a Stop, a process exit) cannot be judged from it.
 * `note` is a line of the log that carries no message, kept in order.
 */
export interface ObservedEvent extends Base {
  kind: 'observed';
  what: 'source' | 'note';
  text: string;
  /**
   * On a `source`: the transport the recorder used, when it knows it and its frames do not show
   * it (the probe records messages at the client's transport, without their framing).
   */
  transport?: 'stdio' | 'http-sse' | 'streamable-http';
  /**
   * On a `source`: the lab's own recorder that wrote the trace, when one did. A trace recorded
   * by `cancel-lab probe` holds cancels the probe forged on purpose (`injected`), which the
   * checker sets aside when it judges the server (src/rules/probe-trace.ts).
   */
  recorder?: typeof PROBE_RECORDER;
  /**
   * On a `source`: `client` when the log stamped each message where the client wrote or read
   * it (an MCP Inspector export), not on the wire between the sides, so its server frames are
   * times of arrival. The probe's traces are taken there too; their `recorder` says so.
   */
  seenAt?: 'client';
}

/** The `recorder` of a trace that `cancel-lab probe` recorded. */
export const PROBE_RECORDER = 'cancel-lab probe';

export interface ErrorEvent extends Base {
  kind: 'error';
  message: string;
}

export type TraceEvent =
  | FrameEvent
  | DeliveryEvent
  | UserActionEvent
  | HandlerEvent
  | ClientStateEvent
  | ServerStateEvent
  | ServerRequestStateEvent
  | ClientHandlerStateEvent
  | ConnectionEvent
  | ConnectionStateEvent
  | ObservedEvent
  | ErrorEvent;

/** Distributes Omit over the union so each variant keeps its own fields. */
export type NewTraceEvent = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'seq'> : never) : never;

/**
 * JSON with object keys sorted, so equal values give equal bytes however they were built. A
 * sorted copy handed to a plain JSON.stringify writes the same bytes as a replacer that sorts,
 * at about a third of the cost (a trace is hashed once per explored schedule).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedCopy(value));
}

function sortedCopy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(sortedCopy);
  // JSON.stringify asks toJSON first (a Date, say), and writes what that gives.
  if ('toJSON' in v && typeof v.toJSON === 'function') return sortedCopy((v.toJSON as () => unknown)());
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v).sort()) out[key] = sortedCopy((v as Record<string, unknown>)[key]);
  return out;
}

/** JSON Lines, one event per line, canonical: equal runs give equal bytes in Node and browsers. */
export function serializeTrace(trace: readonly TraceEvent[]): string {
  return trace.map(canonicalJson).join('\n');
}

export function parseJsonRpc(line: string): JsonRpcMessage | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRpcMessage) : null;
  } catch {
    return null;
  }
}
