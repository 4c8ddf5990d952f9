/**
 * Frames the user forges: a response (a late result or error, or one for an unknown id), a
 * notifications/cancelled, progress, or any message at all, put on the wire as the side they
 * stand for would write them. Pure: each function says what to write, or why nothing can be.
 */
import type { Scenario } from '../scenario/index.ts';
import { SERVER_ORIGIN, isId, isObject, requestFrame, sseEvent, type Direction, type RequestId, type Target, type TraceIndex, type UserAction, type WireFrame } from '../trace/index.ts';
import type { Streams } from './streams.ts';

export type Forged = { ok: true; dir: Direction; wire: WireFrame } | { ok: false; error: string };

/** What forging needs to know of the run so far. */
export interface ForgeContext {
  transport: Scenario['transport'];
  revision: Scenario['revision'];
  /** The id of the present connection's `initialize` request, if one was written. */
  initializeId(): RequestId | null;
  requestIdOf(call: string): RequestId | null;
  /** The open SSE stream a response for `requestId` can ride on. */
  sseStreamFor(requestId: RequestId): number | null;
  /** The open SSE stream of the POST that carried request `requestId`, strictly its own. */
  requestStream(requestId: RequestId): number | null;
  /** The open standalone SSE stream (Streamable HTTP's GET stream, HTTP+SSE's one stream). */
  getStream(): number | null;
  latestSession(): string | undefined;
  /** A stream number for a forged HTTP request, far from the client's own. */
  nextForgedStream(): number;
  /** The progress token the client's request `requestId` asked for, and the last progress the server reported on it (0 before any); null when it asked for none. */
  progressOf(requestId: RequestId): { token: string | number; last: number } | null;
}

/** Stream numbers for HTTP requests the user forges, far from the client's own. */
const FORGED_STREAM_BASE = 1000;

/** The forge's view of a run: its trace index, calls and streams, on the connection `connection()` names. */
export function forgeContext(scenario: Scenario, index: TraceIndex, calls: { requestIdOf(call: string): RequestId | null }, streams: Streams, connection: () => number): ForgeContext {
  let forgedStreams = 0;
  return {
    transport: scenario.transport,
    revision: scenario.revision,
    initializeId: () => index.requests.findLast((r) => r.method === 'initialize' && r.dir === 'c2s' && r.frame.connection === connection())?.id ?? null,
    requestIdOf: (call) => calls.requestIdOf(call),
    sseStreamFor: (requestId) => streams.sseStreamFor(requestId),
    latestSession: () => streams.latestSession(),
    nextForgedStream: () => FORGED_STREAM_BASE + ++forgedStreams,
    requestStream: (requestId) => streams.requestStream(requestId),
    getStream: () => streams.getStream(),
    progressOf: (requestId) => progressOfRequest(index, connection(), requestId),
  };
}

/** The request id a forged frame names. */
export function resolveTarget(target: Target, ctx: ForgeContext): { ok: true; id: RequestId } | { ok: false; error: string } {
  if (target.requestId !== undefined) return { ok: true, id: target.requestId };
  if (target.initialize) {
    const id = ctx.initializeId();
    return id === null ? { ok: false, error: 'no initialize request on this connection' } : { ok: true, id };
  }
  // The schema admits exactly one of the three, so a target without an id or initialize names a call.
  if (target.call === undefined) return { ok: false, error: 'the action names no request' };
  const id = ctx.requestIdOf(target.call);
  return id === null ? { ok: false, error: `no request id known for call ${target.call}` } : { ok: true, id };
}

/** A forged response, as the server would write it: a stdio line, or an SSE `message` event on a stream still open. */
export function forgeResponse(action: Extract<UserAction, { type: 'inject-response' }>, requestId: RequestId, ctx: ForgeContext): Forged {
  const message =
    action.outcome === 'result'
      ? { jsonrpc: '2.0', id: requestId, result: { content: [{ type: 'text', text: 'injected late result' }] } }
      : { jsonrpc: '2.0', id: requestId, error: { code: -32603, message: 'injected late error' } };
  const json = JSON.stringify(message);
  const dir: Direction = action.to === 'server' ? 'c2s' : 's2c';
  if (ctx.transport === 'stdio') return { ok: true, dir, wire: { raw: json + '\n' } };
  if (dir === 'c2s') return { ok: false, error: 'forged responses to the server are offered on stdio only' };
  const stream = ctx.sseStreamFor(requestId);
  if (stream === null) return { ok: false, error: `no open SSE stream can carry a response for ${json}` };
  return { ok: true, dir, wire: { raw: sseEvent('message', json), http: { stream, part: 'chunk' } } };
}

/**
 * A forged notifications/progress for `requestId`'s token, as the server would write it: a
 * stdio line, or an SSE event on `stream` (the request's own, or another's).
 */
export function forgeProgress(requestId: RequestId, stream: number | null, ctx: ForgeContext): Forged {
  const progress = ctx.progressOf(requestId);
  if (progress === null) return { ok: false, error: `request ${JSON.stringify(requestId)} asked for no progress` };
  // Half a step past the last report: the forged frame breaks no rule on its own value (progress only goes up).
  const json = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: progress.token, progress: progress.last + 0.5, message: 'injected' } });
  if (ctx.transport === 'stdio') return { ok: true, dir: 's2c', wire: { raw: json + '\n' } };
  if (stream === null) return { ok: false, error: `no open SSE stream can carry ${json}` };
  return { ok: true, dir: 's2c', wire: { raw: sseEvent('message', json), http: { stream, part: 'chunk' } } };
}

/** The id a forged notification carries when the user asks for one (`withId`): far from the client's own ids. */
const FORGED_NOTIFICATION_ID = 'forged-notification-id';

/** A forged notifications/cancelled from the client: a stdio line, or a POST of its own; with an id, or as a batch, when asked. */
export function forgeCancel(action: Extract<UserAction, { type: 'inject-cancel' }>, requestId: RequestId, ctx: ForgeContext): Forged {
  const cancel = {
    jsonrpc: '2.0',
    ...(action.withId && { id: FORGED_NOTIFICATION_ID }),
    method: 'notifications/cancelled',
    params: { requestId, reason: action.reason ?? 'injected' },
  };
  return clientFrame(JSON.stringify(action.batch ? [cancel] : cancel), ctx);
}

/** What the client writes for `json`: a stdio line, or a POST of its own with the headers the SDK's client sends. */
function clientFrame(json: string, ctx: ForgeContext): Forged {
  if (ctx.transport === 'stdio') return { ok: true, dir: 'c2s', wire: { raw: json + '\n' } };
  const path = ctx.transport === 'http-sse' ? '/messages?sessionId=sse-session-1' : '/mcp';
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const session = ctx.latestSession();
  if (session) headers['mcp-session-id'] = session;
  if (ctx.transport === 'streamable-http') headers['mcp-protocol-version'] = ctx.revision;
  return { ok: true, dir: 'c2s', wire: requestFrame(ctx.nextForgedStream(), 'POST', `${SERVER_ORIGIN}${path}`, headers, json) };
}

/** The request a server's message belongs to: a response's id, else the request its params name (a cancel's, or a progress token). */
function relatedRequest(message: unknown): RequestId | null {
  if (!isObject(message)) return null;
  if (message.method === undefined && isId(message.id)) return message.id;
  const params = message.params;
  if (!isObject(params)) return null;
  if (isId(params.requestId)) return params.requestId;
  return isId(params.progressToken) ? params.progressToken : null;
}

/**
 * Any message the user typed, exactly as given: from the client a stdio line or a POST of its
 * own; from the server a stdio line, or an SSE event on the stream of the request it belongs
 * to while that is open, else on the standalone GET stream.
 */
export function forgeMessage(action: Extract<UserAction, { type: 'inject' }>, ctx: ForgeContext): Forged {
  const json = JSON.stringify(action.message);
  if (action.dir === 'c2s') return clientFrame(json, ctx);
  if (ctx.transport === 'stdio') return { ok: true, dir: 's2c', wire: { raw: json + '\n' } };
  const related = relatedRequest(action.message);
  const stream = (related === null ? null : ctx.requestStream(related)) ?? ctx.getStream();
  if (stream === null) return { ok: false, error: `no open SSE stream can carry ${json.length > 200 ? `${json.slice(0, 200)}…` : json}: no request stream of its own, and no GET stream` };
  return { ok: true, dir: 's2c', wire: { raw: sseEvent('message', json), http: { stream, part: 'chunk' } } };
}

/** The progress token request `requestId` (the client's, on `connection`) asked for, and the last progress reported on it; null when it asked for none. */
export function progressOfRequest(index: TraceIndex, connection: number, requestId: RequestId): { token: string | number; last: number } | null {
  const req = index.requests.findLast((r) => r.dir === 'c2s' && r.id === requestId && r.frame.connection === connection);
  const params = req?.msg.params;
  const meta = isObject(params) ? params._meta : undefined;
  const token = isObject(meta) ? meta.progressToken : undefined;
  if (!isId(token)) return null;
  const last = index.progress.findLast((p) => p.owner === req && typeof p.value === 'number')?.value;
  return { token, last: typeof last === 'number' ? last : 0 };
}

/** The user actions that write a forged frame. */
export type ForgingAction = Extract<UserAction, { type: 'inject-response' | 'inject-cancel' | 'inject-progress' | 'inject' }>;

/** The frame a forging user action writes, or why it cannot be written now. */
export function forgeAction(action: ForgingAction, ctx: ForgeContext): Forged {
  switch (action.type) {
    case 'inject-response':
    case 'inject-cancel': {
      const target = resolveTarget(action, ctx);
      if (!target.ok) return target;
      return action.type === 'inject-response' ? forgeResponse(action, target.id, ctx) : forgeCancel(action, target.id, ctx);
    }
    case 'inject-progress': {
      const id = ctx.requestIdOf(action.call);
      const on = action.onStreamOf === undefined ? id : ctx.requestIdOf(action.onStreamOf);
      if (id === null || on === null) return { ok: false, error: `no request id known for call ${id === null ? action.call : (action.onStreamOf ?? '')}` };
      return forgeProgress(id, ctx.transport === 'stdio' ? null : ctx.sseStreamFor(on), ctx);
    }
    case 'inject':
      return forgeMessage(action, ctx);
  }
}
