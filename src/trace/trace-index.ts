/**
 * The one trace index: every reader of a trace (the checker, the views, the diagrams, the
 * bug report) pairs requests with their responses, cancels, stream aborts and progress through
 * this, never by a map of its own.
 *
 * Ids match within a connection and a direction (a reconnect starts a new session; a response
 * answers the latest request with that id written the other way). What a side "wrote" is
 * indexed: a wire fault's copy of a frame (`fault: 'duplicated'`) and a stdio end-of-stream
 * are left out, and a delivery that reached nobody (`dropped`) is no delivery. Forged frames
 * (`injected`) are indexed like the side's own: they stand for a misbehaving peer.
 *
 * Readers that walk the trace ask per frame (`frameEntry`: what it carries, paired; a wire
 * fault's copy reads as its original) and per call (its connection, its tools/call request,
 * the server handler's steps on that connection: `serverStatesOf`). Server-state events carry
 * no connection: each belongs to the connection current when it was recorded (the engine
 * forgets every handler at a reconnect).
 *
 * One pass, linear in the trace, one small handler per event kind; `add` as the trace grows.
 */
import type {
  ClientStateEvent,
  DeliveryEvent,
  Direction,
  FrameEvent,
  HandlerEvent,
  HttpFraming,
  JsonRpcMessage,
  ServerStateEvent,
  TraceEvent,
  UserActionEvent,
} from './events.ts';
import { batchOf, isId, isObject, isRequest, isResponse, messagesOf, meta, taskOf, type RequestId } from './messages.ts';

export type { RequestId };
import type {
  CallActionEvent,
  IndexedAbort,
  IndexedCall,
  IndexedCancel,
  IndexedFrame,
  IndexedProgress,
  IndexedRequest,
  IndexedResponse,
  IndexedStream,
  SettledEvent,
  StopEvent,
  TraceIndex,
} from './indexed.ts';

/**
 * The request types a receiver can declare task support for (2025-11-25 `capabilities.tasks.requests`):
 * a `task` on any other is processed normally (tasks.mdx:101, 392), as on the tasks/get polls v1 sends.
 */
const TASK_REQUEST_TYPES = new Set(['tools/call', 'sampling/createMessage', 'elicitation/create']);

export const OPPOSITE: Record<Direction, Direction> = { c2s: 's2c', s2c: 'c2s' };

/** Distinguishes "1" from 1: JSON-RPC ids are compared with their type. */
export function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}

export function dirKey(dir: Direction, id: unknown, connection = 0): string {
  return `${connection}:${dir}:${idKey(id)}`;
}

/** The key of a client call's request id on its connection (`callByRequestId`, `serverStates`). */
export function callKey(connection: number, id: unknown): string {
  return `${connection}:${idKey(id)}`;
}

/** An index that grows with the trace: `add` each event as it is appended (the engine, a live view). */
export interface TraceIndexBuilder {
  readonly index: TraceIndex;
  add(e: TraceEvent): void;
}

/** The index of a whole trace. */
export function indexTrace(trace: readonly TraceEvent[]): TraceIndex {
  const builder = createTraceIndex();
  for (const e of trace) builder.add(e);
  return builder.index;
}

/** What the builder keeps besides the index itself. */
interface Building {
  idx: TraceIndex;
  /** Requests by the progress token they ask for, per connection and direction. */
  tokens: Map<string, IndexedRequest[]>;
  /** The first frame with these raw bytes per connection and direction, to recognise a wire fault's copy. */
  written: Map<string, FrameEvent>;
  /** `asked-client` notes not yet matched to the request the server wrote for them, oldest first. */
  asks: HandlerEvent[];
}

function emptyIndex(): TraceIndex {
  return {
    frames: [],
    delivery: new Map(),
    deliveriesByDir: { c2s: [], s2c: [] },
    requests: [],
    requestsByKey: new Map(),
    requestsById: new Map(),
    progressByOwner: new Map(),
    callByRequestId: new Map(),
    responses: [],
    orphans: [],
    cancels: [],
    aborts: [],
    progress: [],
    streams: new Map(),
    messages: [],
    tasks: new Map(),
    stops: [],
    calls: new Map(),
    serverNotes: new Map(),
    clientOnerror: [],
    serverOnerror: [],
    clientHandlerNotes: new Map(),
    sessionExpired: [],
    byFrame: new Map(),
    copyOf: new Map(),
    serverStates: new Map(),
    connection: 0,
    outside: false,
  };
}

export function createTraceIndex(): TraceIndexBuilder {
  const b: Building = { idx: emptyIndex(), tokens: new Map(), written: new Map(), asks: [] };
  const add = (e: TraceEvent): void => {
    switch (e.kind) {
      case 'frame':
        onFrame(b, e);
        break;
      case 'delivery':
        onDelivery(b.idx, e);
        break;
      case 'user-action':
        if (isStop(e)) b.idx.stops.push(e);
        else if (isCallAction(e)) callOf(b.idx, e.action.call).action ??= e;
        break;
      case 'client-state':
        onClientState(b.idx, e);
        break;
      case 'server-state':
        push(b.idx.serverStates, callKey(b.idx.connection, e.requestId), e);
        break;
      case 'handler':
        onHandler(b, e);
        break;
      case 'observed':
        if (e.what === 'source') b.idx.outside = true;
        break;
      case 'connection':
        if (e.event === 'session-expired') b.idx.sessionExpired.push(e.seq);
        break;
      default:
        break;
    }
  };
  return { index: b.idx, add };
}

function last<T>(list: T[] | undefined): T | undefined {
  return list && list.length > 0 ? list[list.length - 1] : undefined;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function isStop(e: UserActionEvent): e is StopEvent {
  return e.action.type === 'stop';
}

function isCallAction(e: UserActionEvent): e is CallActionEvent {
  return e.action.type === 'call';
}

function isSettled(e: HandlerEvent): e is SettledEvent {
  return e.note.type === 'call-settled';
}

function streamOf(idx: TraceIndex, n: number): IndexedStream {
  let s = idx.streams.get(n);
  if (!s) {
    s = { open: undefined, req: undefined, head: undefined, s2c: [], end: undefined, aborts: [] };
    idx.streams.set(n, s);
  }
  return s;
}

function callOf(idx: TraceIndex, name: string): IndexedCall {
  let c = idx.calls.get(name);
  if (!c) {
    c = { action: undefined, requestId: null, connection: null, request: undefined, states: [], settled: [] };
    idx.calls.set(name, c);
  }
  return c;
}

function report(idx: TraceIndex, taskId: string, frame: FrameEvent, status: string): void {
  push(idx.tasks, taskId, { frame, status });
}

function onFrame(b: Building, e: FrameEvent): void {
  const { idx } = b;
  idx.connection = Math.max(idx.connection, e.connection);
  const copyKey = `${e.connection}:${e.dir}:${e.raw}`;
  const original = b.written.get(copyKey);
  // A copy made by a wire fault is nothing either side wrote: leave it out.
  if (e.fault === 'duplicated' && original) {
    idx.copyOf.set(e.frame, original);
    return;
  }
  if (!original) b.written.set(copyKey, e);
  if (e.eof === true) return;
  idx.frames.push(e);
  // A chunk's body is read by its stream's content type (an SSE event or a JSON body).
  const contentType = e.http && e.dir === 's2c' ? idx.streams.get(e.http.stream)?.head?.http?.headers?.['content-type'] : undefined;
  const entry: IndexedFrame = { frame: e, batch: batchOf(e, contentType), requests: [], responses: [], cancels: [], progress: [], abort: undefined };
  idx.byFrame.set(e.frame, entry);
  if (e.http) onHttp(idx, e, e.http, entry);
  for (const msg of messagesOf(e, contentType)) {
    idx.messages.push({ frame: e, msg });
    onMessage(b, e, msg, entry);
  }
}

function onHttp(idx: TraceIndex, e: FrameEvent, http: HttpFraming, entry: IndexedFrame): void {
  const s = streamOf(idx, http.stream);
  if (e.dir === 'c2s' && http.part === 'request' && !s.open) s.open = e;
  if (e.dir === 's2c') {
    s.s2c.push(e);
    if (http.part === 'response-head' && !s.head) s.head = e;
    if (http.part === 'end' && !s.end) s.end = e;
  }
  if (e.dir === 'c2s' && http.part === 'abort') {
    const abort: IndexedAbort = { frame: e, stream: http.stream, target: s.req };
    s.aborts.push(abort);
    idx.aborts.push(abort);
    s.req?.aborts.push(abort);
    entry.abort = abort;
  }
}

function onMessage(b: Building, e: FrameEvent, msg: JsonRpcMessage, entry: IndexedFrame): void {
  // A cancel even when it (wrongly) carries an id: CANCEL-NOTIFY-SHAPE says so (and isRequest
  // takes no `notifications/…` method for a request: NOTIFICATION-NO-ID judges the id).
  if (msg.method === 'notifications/cancelled') entry.cancels.push(onCancel(b.idx, e, msg));
  else if (isRequest(msg) && isId(msg.id)) entry.requests.push(onRequest(b, e, msg, msg.id));
  else if (isResponse(msg)) entry.responses.push(onResponse(b.idx, e, msg));
  else if (msg.method === 'notifications/progress') entry.progress.push(onProgress(b, e, msg));
  else if (msg.method === 'notifications/tasks/status' || msg.method === 'notifications/tasks') {
    const task = taskOf(msg.params);
    if (task) report(b.idx, task.taskId, e, task.status);
  }
}

function onCancel(idx: TraceIndex, e: FrameEvent, msg: JsonRpcMessage): IndexedCancel {
  const params = msg.params;
  const hasRequestId = isObject(params) && 'requestId' in params;
  const requestId = isObject(params) ? params.requestId : undefined;
  const target = hasRequestId ? last(idx.requestsByKey.get(dirKey(e.dir, requestId, e.connection))) : undefined;
  const cancel: IndexedCancel = { frame: e, msg, dir: e.dir, hasRequestId, requestId, target, own: e.injected !== true };
  idx.cancels.push(cancel);
  target?.cancels.push(cancel);
  return cancel;
}

function onRequest(b: Building, e: FrameEvent, msg: JsonRpcMessage, id: RequestId): IndexedRequest {
  const { idx } = b;
  const http = e.http;
  const m = meta(msg);
  // The client call a tools/call carries: the call that took this id on this connection.
  const call = e.dir === 'c2s' && msg.method === 'tools/call' ? idx.callByRequestId.get(callKey(e.connection, id)) : undefined;
  const req: IndexedRequest = {
    frame: e,
    msg,
    dir: e.dir,
    id,
    method: msg.method ?? '',
    token: m?.progressToken,
    stream: http?.stream,
    taskAugmented: msg.params?.task !== undefined && TASK_REQUEST_TYPES.has(msg.method ?? ''),
    call,
    parent: e.dir === 's2c' ? askedBy(b, msg.method) : undefined,
    responses: [],
    ownResponses: [],
    cancels: [],
    aborts: [],
  };
  idx.requests.push(req);
  push(idx.requestsByKey, dirKey(e.dir, id, e.connection), req);
  push(idx.requestsById, dirKey(e.dir, id), req);
  if (req.token !== undefined) push(b.tokens, dirKey(e.dir, req.token, e.connection), req);
  // A batch POST opens one stream for all its requests: the stream names the first.
  if (http && e.dir === 'c2s' && http.part === 'request') streamOf(idx, http.stream).req ??= req;
  const owner = call === undefined ? undefined : idx.calls.get(call);
  if (owner && !owner.request) owner.request = req;
  return req;
}

function onResponse(idx: TraceIndex, e: FrameEvent, msg: JsonRpcMessage): IndexedResponse {
  const req = last(idx.requestsByKey.get(dirKey(OPPOSITE[e.dir], msg.id, e.connection)));
  const resp: IndexedResponse = { frame: e, msg, dir: e.dir, id: msg.id, req, own: e.injected !== true };
  idx.responses.push(resp);
  if (req) req.responses.push(resp);
  else idx.orphans.push(resp);
  if (req && resp.own) req.ownResponses.push(resp);
  const task = taskOf(msg.result);
  if (task) report(idx, task.taskId, e, task.status);
  return resp;
}

function onProgress(b: Building, e: FrameEvent, msg: JsonRpcMessage): IndexedProgress {
  const token = msg.params?.progressToken;
  const owner = last(b.tokens.get(dirKey(OPPOSITE[e.dir], token, e.connection)));
  const progress: IndexedProgress = { frame: e, msg, dir: e.dir, token, value: msg.params?.progress, owner };
  b.idx.progress.push(progress);
  if (owner) push(b.idx.progressByOwner, owner, progress);
  return progress;
}

function onDelivery(idx: TraceIndex, e: DeliveryEvent): void {
  // A delivery that reached nobody (connection gone, receiver crashed) is no delivery.
  if (e.dropped !== undefined || idx.delivery.has(e.frame)) return;
  idx.delivery.set(e.frame, e);
  idx.deliveriesByDir[e.dir].push(e);
}

function onClientState(idx: TraceIndex, e: ClientStateEvent): void {
  idx.connection = Math.max(idx.connection, e.connection);
  const c = callOf(idx, e.call);
  if (c.requestId === null && e.requestId !== null) {
    c.requestId = e.requestId;
    c.connection = e.connection;
    idx.callByRequestId.set(callKey(e.connection, e.requestId), e.call);
  }
  c.states.push(e);
}

/** The tools/call whose tool asked for the s2c request `method` just written: the oldest unmatched ask for it. */
function askedBy(b: Building, method: string | undefined): IndexedRequest | undefined {
  const i = b.asks.findIndex((a) => a.note.type === 'asked-client' && a.note.method === method);
  const ask = b.asks[i];
  if (ask?.note.type !== 'asked-client') return undefined;
  b.asks.splice(i, 1);
  return last(b.idx.requestsByKey.get(dirKey('c2s', ask.note.requestId, b.idx.connection)));
}

function onHandler(b: Building, e: HandlerEvent): void {
  const { idx } = b;
  const note = e.note;
  if (e.side === 'client' && isSettled(e)) callOf(idx, e.note.call).settled.push(e);
  else if (e.side === 'client' && note.type === 'client-onerror') idx.clientOnerror.push(e);
  else if (e.side === 'server' && note.type === 'server-onerror') idx.serverOnerror.push(e);
  else if (note.type === 'reconnect-requested' || note.type === 'new-session-requested') {
    idx.connection++;
    b.asks = [];
  } else if (e.side === 'client' && 'requestId' in note) push(idx.clientHandlerNotes, idKey(note.requestId), e);
  else if (e.side === 'server' && 'requestId' in note) {
    push(idx.serverNotes, idKey(note.requestId), e);
    if (note.type === 'asked-client') b.asks.push(e);
    // An ask the SDK refused before writing anything (a capability it does not know) is done.
    if (note.type === 'client-answered') b.asks = b.asks.filter((x) => !(x.note.type === 'asked-client' && x.note.requestId === note.requestId && x.note.method === note.method));
  }
}

/** What a frame carries, as indexed; a wire fault's copy reads as the frame it copies. */
export function frameEntry(idx: TraceIndex, frame: number): IndexedFrame | undefined {
  return idx.byFrame.get(idx.copyOf.get(frame)?.frame ?? frame);
}

/** The server handler's steps for a call's request, on the call's own connection. */
export function serverStatesOf(idx: TraceIndex, call: IndexedCall): ServerStateEvent[] {
  return call.connection === null || call.requestId === null ? [] : (idx.serverStates.get(callKey(call.connection, call.requestId)) ?? []);
}

export function deliveryOf(idx: TraceIndex, frame: FrameEvent): DeliveryEvent | undefined {
  return idx.delivery.get(frame.frame);
}

/** The first delivery in `dir` strictly after `seq` (binary search), or undefined. */
export function nextDelivery(idx: TraceIndex, dir: Direction, seq: number): DeliveryEvent | undefined {
  const list = idx.deliveriesByDir[dir];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as DeliveryEvent).seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}
