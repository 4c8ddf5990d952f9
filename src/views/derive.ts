/**
 * What the panels show, derived from the trace alone. Each function is pure: the same trace
 * gives the same view, whether it was recorded live, replayed, or run headless.
 */
import {
  DIRECTION_LABEL,
  type ClientRequestState,
  type Direction,
  type FrameEvent,
  type JsonRpcMessage,
  type ServerHandlerState,
  type TraceEvent,
} from '../trace/index.ts';

/** The HTTP headers worth showing in the wire log; the raw frame keeps all of them. */
export const HEADERS_THAT_MATTER = ['mcp-session-id', 'mcp-protocol-version', 'accept', 'content-type', 'last-event-id'] as const;

export interface WireRow {
  frame: number;
  /** The trace `seq` of the frame's write, and of its delivery once it arrives. */
  seq: number;
  deliverySeq: number | null;
  /** The HTTP stream the frame belongs to; null on stdio. */
  stream: number | null;
  /** A word for where the frame sits in HTTP (request, response head, SSE event, end, abort); null on stdio. */
  framing: string | null;
  /** Selected headers, for request and response-head frames. */
  headers: [string, string][];
  /** True when the frame carries a JSON-RPC message (the "messages only" view keeps these). */
  carriesMessage: boolean;
  sentAt: number;
  deliveredAt: number | null;
  dir: Direction;
  direction: string;
  /** The method, or for a response what it answers ("result of tools/call"). */
  what: string;
  id: string;
  raw: string;
  msg: JsonRpcMessage | null;
  injected: boolean;
  fault: string | null;
  /** The planned delivery time (null while held or when dropped). */
  deliverAt: number | null;
  /** Set when the frame arrived at a closed connection or a dead server. */
  droppedBecause: string | null;
  eof: boolean;
}

function describeId(id: string | number | undefined): string {
  return id === undefined ? '' : JSON.stringify(id);
}

export function wireRows(trace: readonly TraceEvent[]): WireRow[] {
  const rows: WireRow[] = [];
  const byFrame = new Map<number, WireRow>();
  // Requests by direction and id, so a response can say what it answers.
  const requests = new Map<string, string>();
  for (const e of trace) {
    if (e.kind === 'frame') {
      const msg = e.msg;
      const http = e.http;
      let what = http ? '' : e.eof ? 'end of stream (EOF)' : '(not JSON)';
      if (msg?.method !== undefined) {
        what = msg.method;
        if (msg.id !== undefined) requests.set(`${e.dir}:${JSON.stringify(msg.id)}`, msg.method);
      } else if (msg) {
        const answered = requests.get(`${e.dir === 'c2s' ? 's2c' : 'c2s'}:${JSON.stringify(msg.id)}`);
        const kind = msg.error !== undefined ? 'error' : 'result';
        what = answered ? `${kind} of ${answered}` : `${kind} (unknown id)`;
      }
      const headers: [string, string][] = [];
      for (const name of HEADERS_THAT_MATTER) {
        const value = http?.headers?.[name];
        if (value !== undefined) headers.push([name, value]);
      }
      const row: WireRow = {
        frame: e.frame,
        seq: e.seq,
        deliverySeq: null,
        stream: http?.stream ?? null,
        framing: http ? framingLabel(e.http, e.raw) : null,
        headers,
        carriesMessage: msg !== null,
        sentAt: e.t,
        deliveredAt: null,
        dir: e.dir,
        direction: DIRECTION_LABEL[e.dir],
        what,
        id: describeId(msg?.id ?? (msg?.params?.requestId as string | number | undefined)),
        raw: e.raw,
        msg,
        injected: e.injected === true,
        fault: e.fault ?? null,
        deliverAt: e.deliverAt,
        droppedBecause: null,
        eof: e.eof === true,
      };
      rows.push(row);
      byFrame.set(e.frame, row);
    } else if (e.kind === 'delivery') {
      const row = byFrame.get(e.frame);
      if (row) row.deliverySeq = e.seq;
      if (row && e.dropped) row.droppedBecause = e.dropped;
      else if (row) row.deliveredAt = e.t;
    }
  }
  return rows;
}

function framingLabel(http: FrameEvent['http'], raw: string): string {
  if (!http) return '';
  switch (http.part) {
    case 'request': {
      const path = http.url ? new URL(http.url).pathname + new URL(http.url).search : '';
      return `${http.method ?? ''} ${path}`;
    }
    case 'response-head':
      return `${http.status ?? ''} ${http.headers?.['content-type']?.split(';')[0] ?? '(no body)'}`;
    case 'chunk': {
      const event = /^event: (.*)$/m.exec(raw)?.[1];
      if (raw.startsWith(':')) return 'SSE comment';
      return event ? `SSE event: ${event}` : 'body';
    }
    case 'end':
      return 'end of response (server)';
    case 'abort':
      return 'stream closed by client';
  }
}

export interface ConnectionRow {
  t: number;
  event: string;
  stream: number | null;
  by: 'client' | 'server' | null;
  detail: string;
}

/** The transport's lifecycle: connected, streams opened and closed (by whom), sessions. */
export function connectionLog(trace: readonly TraceEvent[]): ConnectionRow[] {
  const rows: ConnectionRow[] = [];
  for (const e of trace) {
    if (e.kind === 'connection') rows.push({ t: e.t, event: e.event, stream: e.stream ?? null, by: e.by ?? null, detail: e.detail });
  }
  return rows;
}

export interface CallView {
  call: string;
  tool: string;
  args: Record<string, unknown>;
  requestId: string | number | null;
  clientState: ClientRequestState;
  /** Each client-state change, oldest first, with the reason. */
  clientHistory: { t: number; to: ClientRequestState; because: string }[];
  serverState: ServerHandlerState | null;
  serverHistory: { t: number; to: ServerHandlerState; because: string }[];
  /** Responses that reached the client after Stop, each ignored. */
  lateResponses: { t: number; because: string }[];
  progress: number | null;
  total: number | null;
  outcome: string | null;
  /** The call failed because its connection went away (a crash, a disconnect, a strict host's reconnect). */
  lost: boolean;
}

export function callViews(trace: readonly TraceEvent[]): CallView[] {
  const calls = new Map<string, CallView>();
  const byRequest = new Map<string, CallView>();
  for (const e of trace) {
    if (e.kind === 'user-action' && e.action.type === 'call') {
      calls.set(e.action.call, {
        call: e.action.call,
        tool: e.action.tool,
        args: e.action.args,
        requestId: null,
        clientState: 'RUNNING',
        clientHistory: [],
        serverState: null,
        serverHistory: [],
        lateResponses: [],
        progress: null,
        total: null,
        outcome: null,
        lost: false,
      });
    } else if (e.kind === 'client-state') {
      const view = calls.get(e.call);
      if (!view) continue;
      view.requestId = e.requestId;
      if (e.requestId !== null) byRequest.set(JSON.stringify(e.requestId), view);
      // A response the client ignores because the user had pressed Stop (not one after the call settled).
      if (e.on === 'late-response' && (e.from === 'CANCEL_REQUESTED' || e.from === 'STOPPED_LOCALLY')) view.lateResponses.push({ t: e.t, because: e.because });
      view.clientState = e.to;
      view.clientHistory.push({ t: e.t, to: e.to, because: e.because });
    } else if (e.kind === 'server-state') {
      const view = byRequest.get(JSON.stringify(e.requestId));
      if (!view) continue;
      view.serverState = e.to;
      view.serverHistory.push({ t: e.t, to: e.to, because: e.because });
    } else if (e.kind === 'handler' && e.note.type === 'progress-received') {
      const view = calls.get(e.note.call);
      if (!view) continue;
      view.progress = e.note.progress;
      view.total = e.note.total ?? null;
    } else if (e.kind === 'handler' && e.note.type === 'call-settled') {
      const view = calls.get(e.note.call);
      if (!view) continue;
      view.outcome = e.note.outcome === 'result' ? (e.note.isError ? 'tool error' : 'result') : `rejected: ${e.note.message ?? ''}`;
      view.lost = e.note.outcome === 'error' && /^(Connection closed|Not connected)/.test(e.note.message ?? '');
    }
  }
  return [...calls.values()];
}

/** One line per call: its name, tool, and how it ended on the client and the server. */
export function describeCall(c: CallView): string {
  return `${c.call} ${c.tool}: client ${c.clientState}${c.lateResponses.length ? ` (${c.lateResponses.length} late response ignored)` : ''}, server ${c.serverState ?? 'never received'}${c.lost ? ', lost with its connection' : ''}`;
}

export interface LedgerEntry {
  t: number;
  key: string;
  value: string;
  requestId: string | number;
}

export function ledger(trace: readonly TraceEvent[]): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const e of trace) {
    if (e.kind === 'handler' && e.note.type === 'ledger-commit') {
      entries.push({ t: e.t, key: e.note.key, value: e.note.value, requestId: e.note.requestId });
    }
  }
  return entries;
}

export interface Negotiated {
  protocolVersion: string;
  era: string;
  t: number;
}

/** The protocol version the two sides agreed on, as the client reported it once connected. */
export function negotiated(trace: readonly TraceEvent[]): Negotiated | null {
  for (const e of trace) {
    if (e.kind === 'handler' && e.note.type === 'connected') {
      return { protocolVersion: e.note.protocolVersion, era: e.note.era, t: e.t };
    }
  }
  return null;
}

export function traceErrors(trace: readonly TraceEvent[]): { t: number; message: string }[] {
  const errors: { t: number; message: string }[] = [];
  for (const e of trace) if (e.kind === 'error') errors.push({ t: e.t, message: e.message });
  return errors;
}

export interface LogLine {
  t: number;
  side: 'client' | 'server';
  text: string;
  /** For an emulation's note: the upstream source it follows. */
  source?: string;
}

/** What each side wrote to its stderr, and what the emulations did differently, in order. */
export function sideLogs(trace: readonly TraceEvent[]): LogLine[] {
  const lines: LogLine[] = [];
  for (const e of trace) {
    if (e.kind !== 'handler') continue;
    if (e.note.type === 'stderr') lines.push({ t: e.t, side: e.side, text: e.note.text });
    else if (e.note.type === 'emulation') lines.push({ t: e.t, side: e.side, text: `[emulated ${e.note.profile}] ${e.note.what}`, source: e.note.source });
    else if (e.note.type === 'server-exited') lines.push({ t: e.t, side: e.side, text: `process exited with code ${e.note.code} (${e.note.reason})` });
  }
  return lines;
}
