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

export type ClientRequestState = 'RUNNING' | 'CANCEL_REQUESTED' | 'STOPPED_LOCALLY' | 'SUCCEEDED' | 'FAILED';
export type ServerHandlerState =
  | 'running'
  | 'cancellation seen'
  | 'returned'
  | 'threw'
  | 'response sent'
  | 'response suppressed';

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
  /** When the wire will hand it to the other side: `t` plus that direction's latency. */
  deliverAt: number;
  /** Set when the frame was forged by the user, not written by the SDK. */
  injected?: true;
}

export interface DeliveryEvent extends Base {
  kind: 'delivery';
  frame: number;
  dir: Direction;
}

export type UserAction =
  | { type: 'call'; call: string; tool: string; args: Record<string, unknown> }
  | { type: 'stop'; call: string }
  | { type: 'inject-response'; call: string; outcome: 'result' | 'error' };

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
  | { type: 'progress-received'; call: string; progress: number; total?: number }
  | { type: 'call-settled'; call: string; outcome: 'result' | 'error'; isError?: boolean; message?: string; code?: string | number }
  | { type: 'client-onerror'; message: string }
  | { type: 'server-onerror'; message: string }
  | { type: 'connected'; protocolVersion: string; era: string }
  /** An HTTP frame that reached a side after its stream was closed there: nobody reads it. */
  | { type: 'frame-dropped'; stream: number; reason: string };

export interface HandlerEvent extends Base {
  kind: 'handler';
  side: 'client' | 'server';
  note: HandlerNote;
}

export interface ClientStateEvent extends Base {
  kind: 'client-state';
  call: string;
  requestId: string | number | null;
  from: ClientRequestState | null;
  to: ClientRequestState;
  /** What caused the change (or what was ignored, when `from === to`). */
  because: string;
}

export interface ServerStateEvent extends Base {
  kind: 'server-state';
  requestId: string | number;
  from: ServerHandlerState | null;
  to: ServerHandlerState;
  because: string;
}

/** The transport's own lifecycle: streams, sessions, the connection. */
export interface ConnectionEvent extends Base {
  kind: 'connection';
  event: 'stream-opened' | 'stream-closed' | 'session-created' | 'session-expired' | 'connected' | 'disconnected';
  stream?: number;
  by?: 'client' | 'server';
  detail: string;
}

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
  | ConnectionEvent
  | ErrorEvent;

/** Distributes Omit over the union so each variant keeps its own fields. */
export type NewTraceEvent = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'seq'> : never) : never;

/** JSON Lines: one event per line, keys in construction order, so equal runs give equal bytes. */
export function serializeTrace(trace: readonly TraceEvent[]): string {
  return trace.map((e) => JSON.stringify(e)).join('\n');
}

export function parseJsonRpc(line: string): JsonRpcMessage | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRpcMessage) : null;
  } catch {
    return null;
  }
}
