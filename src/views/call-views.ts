/**
 * Each call as the Calls panel shows it: the client request's states, the server handler's
 * states for its request (on its own connection), progress, late responses, a stream that ended
 * without the response, and the outcome.
 */
import {
  indexTrace,
  isObject,
  serverStatesOf,
  type ClientRequestState,
  type IndexedCall,
  type JsonRpcMessage,
  type ServerHandlerState,
  type TraceEvent,
  type TraceIndex,
} from '../trace/index.ts';
import { plural } from '../trace/index.ts';

export interface CallView {
  call: string;
  tool: string;
  args: Record<string, unknown>;
  /** A task-augmented call (its task can be cancelled with tasks/cancel). */
  task: boolean;
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
  /** How the call ended, in one line (`result: …`, `FAILED — …`, `running`); what the wire carried, not a raw row. */
  outcomeText: string;
  /** Why the call failed, in the server's or the client's words; null unless it failed. */
  errorText: string | null;
  /** The requests the server sent the client while handling this call (ask_client), oldest first. */
  nested: NestedRequestView[];
  /**
   * Its Streamable HTTP stream ended before a response was on it (the server closed it, or
   * answered 404), in one line: "stream ended without a response at 150 ms (session expired)".
   */
  streamEnd: string | null;
}

/** A request the server sent the client mid-call, and how each side's table saw it. */
export interface NestedRequestView {
  method: string;
  /** The server's own id for it (the server counts apart from the client). */
  requestId: string | number;
  serverHistory: { t: number; to: string; because: string }[];
  clientHistory: { t: number; to: string; because: string }[];
}

/**
 * The line for the call's POST stream when the server ended it (or answered 404) before the
 * call's response was on it; null otherwise. The session had expired when the server ended the
 * stream in the step of an expiry, or answered 404 to a request that named a session.
 */
function streamEndOf(trace: readonly TraceEvent[], index: TraceIndex, call: IndexedCall | undefined): string | null {
  const req = call?.request;
  const s = req?.stream === undefined ? undefined : index.streams.get(req.stream);
  const end = s?.end;
  if (!req || !s || !end || req.responses.some((r) => r.frame.seq < end.seq)) return null;
  const refused = s.head?.http?.status === 404 && s.open?.http?.headers?.['mcp-session-id'] !== undefined;
  // An expiry ends the session's streams in the step it happens (src/engine/streams.ts).
  const expired = refused || index.sessionExpired.some((seq) => seq < end.seq && trace[seq]?.t === end.t);
  const later = req.responses.find((r) => r.frame.seq > end.seq)?.frame.http?.stream;
  return `stream ended without a response at ${end.t} ms${expired ? ' (session expired)' : ''}${later === undefined ? '' : `; its response came on stream ${later}`}`;
}

/** The server's requests made by each call's handler, with the two tables' steps for each. */
function nestedRequests(trace: readonly TraceEvent[], index: TraceIndex): Map<string, NestedRequestView[]> {
  const out = new Map<string, NestedRequestView[]>();
  const byKey = new Map<string, NestedRequestView>();
  for (const req of index.requests) {
    const call = req.dir === 's2c' ? req.parent?.call : undefined;
    if (call === undefined) continue;
    const nested: NestedRequestView = { method: req.method, requestId: req.id, serverHistory: [], clientHistory: [] };
    byKey.set(`${req.frame.connection}:${JSON.stringify(req.id)}`, nested);
    out.set(call, [...(out.get(call) ?? []), nested]);
  }
  for (const e of trace) {
    if (e.kind !== 'server-request-state' && e.kind !== 'client-handler-state') continue;
    const nested = byKey.get(`${e.connection}:${JSON.stringify(e.requestId)}`);
    (e.kind === 'server-request-state' ? nested?.serverHistory : nested?.clientHistory)?.push({ t: e.t, to: e.to, because: e.because });
  }
  return out;
}

/** The texts of a tool result's content, joined: what a tool error says. */
function contentText(result: unknown): string {
  if (!isObject(result) || !Array.isArray(result.content)) return '';
  return result.content
    .map((part: unknown) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join(' ');
}

/** The error the call's response carries (a JSON-RPC error, or a result marked isError), else the client's rejection. */
function failure(view: CallView, response: JsonRpcMessage | undefined, rejection: string | null): string | null {
  if (response?.error) return `${response.error.message} (JSON-RPC error ${response.error.code})`;
  if (isObject(response?.result) && response.result.isError === true) return `tool error: ${contentText(response.result) || '(no text)'}`;
  if (view.outcome === 'tool error') return 'tool error';
  return view.clientState === 'FAILED' ? rejection : null;
}

function outcomeText(view: CallView, response: JsonRpcMessage | undefined, rejection: string | null): string {
  if (view.errorText !== null) return `FAILED — ${view.errorText}${view.lost ? ' (lost with its connection)' : ''}`;
  if (view.outcome === 'result') {
    const text = contentText(response?.result);
    return text === '' ? 'result' : `result: ${text}`;
  }
  if (view.clientState === 'RUNNING') return 'running';
  return rejection ? `${view.clientState}: ${rejection}` : view.clientState;
}

export function callViews(trace: readonly TraceEvent[], index: TraceIndex = indexTrace(trace)): CallView[] {
  const calls = new Map<string, CallView>();
  const rejections = new Map<string, string | null>();
  for (const e of trace) {
    if (e.kind === 'user-action' && e.action.type === 'call') {
      calls.set(e.action.call, {
        call: e.action.call,
        tool: e.action.tool,
        args: e.action.args,
        task: e.action.task !== undefined,
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
        outcomeText: 'running',
        errorText: null,
        nested: [],
        streamEnd: null,
      });
    } else if (e.kind === 'client-state') {
      const view = calls.get(e.call);
      if (!view) continue;
      view.requestId = e.requestId;
      // A response the client ignores because the user had pressed Stop (not one after the call settled).
      if (e.on === 'late-response' && (e.from === 'CANCEL_REQUESTED' || e.from === 'STOPPED_LOCALLY')) view.lateResponses.push({ t: e.t, because: e.because });
      view.clientState = e.to;
      view.clientHistory.push({ t: e.t, to: e.to, because: e.because });
    } else if (e.kind === 'handler' && e.note.type === 'progress-received') {
      const view = calls.get(e.note.call);
      if (!view) continue;
      view.progress = e.note.progress;
      view.total = e.note.total ?? null;
    } else if (e.kind === 'handler' && e.note.type === 'call-settled') {
      const view = calls.get(e.note.call);
      if (!view) continue;
      view.outcome = e.note.outcome === 'result' ? (e.note.isError ? 'tool error' : 'result') : `rejected: ${e.note.message ?? ''}`;
      // v2 says "Connection closed"; v1 wraps it in McpError ("MCP error -32000: Connection closed").
      view.lost = e.note.outcome === 'error' && /^(MCP error -32000: )?(Connection closed|Not connected)/.test(e.note.message ?? '');
      rejections.set(view.call, e.note.outcome === 'error' ? e.note.message ?? 'rejected' : null);
    }
  }
  const nested = nestedRequests(trace, index);
  // The server's side of each call: the handler for its request id on its own connection.
  for (const view of calls.values()) {
    view.nested = nested.get(view.call) ?? [];
    const call = index.calls.get(view.call);
    const states = call ? serverStatesOf(index, call) : [];
    view.serverState = states.at(-1)?.to ?? null;
    view.serverHistory = states.map((e) => ({ t: e.t, to: e.to, because: e.because }));
    const response = call?.request?.responses[0]?.msg;
    const rejection = rejections.get(view.call) ?? null;
    view.errorText = view.outcome === null ? null : failure(view, response, rejection);
    view.outcomeText = outcomeText(view, response, rejection);
    view.streamEnd = streamEndOf(trace, index, call);
  }
  return [...calls.values()];
}

/**
 * One line per call: its name, tool, and how it ended on the client and the server. A late
 * response is counted, not called ignored: what the client did with it is the checker's to say.
 */
export function describeCall(c: CallView): string {
  return `${c.call} ${c.tool}: client ${c.clientState}${c.lateResponses.length ? ` (${plural(c.lateResponses.length, 'late response')} after Stop)` : ''}, server ${c.serverState ?? 'never received'}${c.lost ? ', lost with its connection' : ''}`;
}
