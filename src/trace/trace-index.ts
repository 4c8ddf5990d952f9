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
 * One pass, linear in the trace.
 */
import type { ClientStateEvent, DeliveryEvent, Direction, FrameEvent, HandlerEvent, JsonRpcMessage, TraceEvent, UserActionEvent } from './events.ts';

export type RequestId = string | number;

export interface IndexedRequest {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  id: RequestId;
  method: string;
  /** `params._meta.progressToken`, when the request asks for progress. */
  token: unknown;
  /** The HTTP stream its POST opened. */
  stream: number | undefined;
  /** `params.task` present: a 2025-11-25 task-augmented request. */
  taskAugmented: boolean;
  responses: IndexedResponse[];
  /** notifications/cancelled from the same side naming it, in order. */
  cancels: IndexedCancel[];
  /** The client closing its stream (HTTP `abort`), in order. */
  aborts: IndexedAbort[];
}

export interface IndexedResponse {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  /** The id as written (may be null or absent in a malformed response). */
  id: unknown;
  req: IndexedRequest | undefined;
}

export interface IndexedCancel {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  hasRequestId: boolean;
  requestId: unknown;
  target: IndexedRequest | undefined;
}

export interface IndexedAbort {
  frame: FrameEvent;
  stream: number;
  target: IndexedRequest | undefined;
}

export interface IndexedProgress {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  token: unknown;
  value: unknown;
  owner: IndexedRequest | undefined;
}

export interface IndexedStream {
  /** The client's `request` frame that opened it. */
  open: FrameEvent | undefined;
  /** The JSON-RPC request it carries, when its body is a request. */
  req: IndexedRequest | undefined;
  head: FrameEvent | undefined;
  /** Every s2c frame on the stream, in order. */
  s2c: FrameEvent[];
  end: FrameEvent | undefined;
  aborts: IndexedAbort[];
}

export interface TaskReport {
  frame: FrameEvent;
  status: string;
}

export interface IndexedCall {
  requestId: RequestId | null;
  states: ClientStateEvent[];
  settled: (HandlerEvent & { note: { type: 'call-settled' } })[];
}

export interface TraceIndex {
  frames: FrameEvent[];
  delivery: Map<number, DeliveryEvent>;
  /** Deliveries per direction, in order (for "the next thing the receiver got"). */
  deliveriesByDir: Record<Direction, DeliveryEvent[]>;
  requests: IndexedRequest[];
  /** Requests by connection, direction and id, in order. */
  requestsByKey: Map<string, IndexedRequest[]>;
  /** The same, across connections (a call's request, looked up from its id). */
  requestsById: Map<string, IndexedRequest[]>;
  progressByOwner: Map<IndexedRequest, IndexedProgress[]>;
  /** The client call a request id belongs to. */
  callByRequestId: Map<string, string>;
  responses: IndexedResponse[];
  /** Responses that match no request (a null id, an unknown id). */
  orphans: IndexedResponse[];
  cancels: IndexedCancel[];
  aborts: IndexedAbort[];
  progress: IndexedProgress[];
  streams: Map<number, IndexedStream>;
  /** Every frame with a message, with the message (batch elements expanded on stdio). */
  messages: { frame: FrameEvent; msg: JsonRpcMessage }[];
  tasks: Map<string, TaskReport[]>;
  stops: (UserActionEvent & { action: { type: 'stop' } })[];
  calls: Map<string, IndexedCall>;
  /** Server handler notes by request id key. */
  serverNotes: Map<string, HandlerEvent[]>;
  /** The client SDK's onerror notes ("Received a response for an unknown message ID: …"). */
  clientOnerror: HandlerEvent[];
  sessionExpired: number[];
}

export const OPPOSITE: Record<Direction, Direction> = { c2s: 's2c', s2c: 'c2s' };

/** Distinguishes "1" from 1: JSON-RPC ids are compared with their type. */
export function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}

export function dirKey(dir: Direction, id: unknown, connection = 0): string {
  return `${connection}:${dir}:${idKey(id)}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}

export function isResponse(msg: JsonRpcMessage): boolean {
  return msg.method === undefined && ('result' in msg || 'error' in msg);
}

export function isRequest(msg: JsonRpcMessage): boolean {
  return typeof msg.method === 'string' && msg.id !== undefined;
}

export function isNotification(msg: JsonRpcMessage): boolean {
  return typeof msg.method === 'string' && !('id' in msg);
}

export function meta(msg: JsonRpcMessage): Record<string, unknown> | undefined {
  const m = msg.params?._meta;
  return isObject(m) ? m : undefined;
}

/** `{taskId, status}` carried by a result or notification params, in either revision's shape. */
export function taskOf(value: unknown): { taskId: string; status: string } | undefined {
  if (!isObject(value)) return undefined;
  const inner = isObject(value.task) ? value.task : value;
  return typeof inner.taskId === 'string' && typeof inner.status === 'string' ? { taskId: inner.taskId, status: inner.status } : undefined;
}

/** The messages a frame carries: its parsed message, or on stdio the elements of a batch. */
export function messagesOf(frame: FrameEvent): JsonRpcMessage[] {
  if (frame.msg) return [frame.msg];
  if (frame.http) return [];
  const body = frame.raw.trim();
  if (!body.startsWith('[')) return [];
  try {
    const value: unknown = JSON.parse(body);
    return Array.isArray(value) ? value.filter(isObject).map((v) => v as JsonRpcMessage) : [];
  } catch {
    return [];
  }
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

export function createTraceIndex(): TraceIndexBuilder {
  const idx: TraceIndex = {
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
    sessionExpired: [],
  };
  const tokens = new Map<string, IndexedRequest[]>();
  const stream = (n: number): IndexedStream => {
    let s = idx.streams.get(n);
    if (!s) {
      s = { open: undefined, req: undefined, head: undefined, s2c: [], end: undefined, aborts: [] };
      idx.streams.set(n, s);
    }
    return s;
  };
  const call = (name: string): IndexedCall => {
    let c = idx.calls.get(name);
    if (!c) {
      c = { requestId: null, states: [], settled: [] };
      idx.calls.set(name, c);
    }
    return c;
  };
  const last = <T>(list: T[] | undefined): T | undefined => (list && list.length > 0 ? list[list.length - 1] : undefined);
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  /** Raw bytes already written per connection and direction, to recognise a wire fault's copy. */
  const written = new Set<string>();
  const report = (taskId: string, frame: FrameEvent, status: string): void => {
    const list = idx.tasks.get(taskId) ?? [];
    list.push({ frame, status });
    idx.tasks.set(taskId, list);
  };

  const add = (e: TraceEvent): void => {
    switch (e.kind) {
      case 'frame': {
        const conn = e.connection;
        const copyKey = `${conn}:${e.dir}:${e.raw}`;
        // A copy made by a wire fault is nothing either side wrote: leave it out.
        if (e.fault === 'duplicated' && written.has(copyKey)) break;
        written.add(copyKey);
        if (e.eof === true) break;
        idx.frames.push(e);
        const http = e.http;
        if (http) {
          const s = stream(http.stream);
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
          }
        }
        for (const msg of messagesOf(e)) {
          idx.messages.push({ frame: e, msg });
          if (msg.method === 'notifications/cancelled') {
            // A cancel even when it (wrongly) carries an id: CANCEL-NOTIFY-SHAPE says so.
            const params = msg.params;
            const hasRequestId = isObject(params) && 'requestId' in params;
            const requestId = isObject(params) ? params.requestId : undefined;
            const target = hasRequestId ? last(idx.requestsByKey.get(dirKey(e.dir, requestId, conn))) : undefined;
            const cancel: IndexedCancel = { frame: e, msg, dir: e.dir, hasRequestId, requestId, target };
            idx.cancels.push(cancel);
            target?.cancels.push(cancel);
          } else if (isRequest(msg) && isId(msg.id)) {
            const m = meta(msg);
            const req: IndexedRequest = {
              frame: e,
              msg,
              dir: e.dir,
              id: msg.id,
              method: msg.method as string,
              token: m?.progressToken,
              stream: http?.stream,
              taskAugmented: msg.params?.task !== undefined,
              responses: [],
              cancels: [],
              aborts: [],
            };
            idx.requests.push(req);
            push(idx.requestsByKey, dirKey(e.dir, msg.id, conn), req);
            push(idx.requestsById, dirKey(e.dir, msg.id), req);
            if (req.token !== undefined) push(tokens, dirKey(e.dir, req.token, conn), req);
            if (http && e.dir === 'c2s' && http.part === 'request') stream(http.stream).req = req;
          } else if (isResponse(msg)) {
            const req = last(idx.requestsByKey.get(dirKey(OPPOSITE[e.dir], msg.id, conn)));
            const resp: IndexedResponse = { frame: e, msg, dir: e.dir, id: msg.id, req };
            idx.responses.push(resp);
            if (req) req.responses.push(resp);
            else idx.orphans.push(resp);
            const task = taskOf(msg.result);
            if (task) report(task.taskId, e, task.status);
          } else if (msg.method === 'notifications/progress') {
            const token = msg.params?.progressToken;
            const owner = last(tokens.get(dirKey(OPPOSITE[e.dir], token, conn)));
            const progress: IndexedProgress = { frame: e, msg, dir: e.dir, token, value: msg.params?.progress, owner };
            idx.progress.push(progress);
            if (owner) push(idx.progressByOwner, owner, progress);
          } else if (msg.method === 'notifications/tasks/status' || msg.method === 'notifications/tasks') {
            const task = taskOf(msg.params);
            if (task) report(task.taskId, e, task.status);
          }
        }
        break;
      }
      case 'delivery':
        // A delivery that reached nobody (connection gone, receiver crashed) is no delivery.
        if (e.dropped !== undefined || idx.delivery.has(e.frame)) break;
        idx.delivery.set(e.frame, e);
        idx.deliveriesByDir[e.dir].push(e);
        break;
      case 'user-action':
        if (e.action.type === 'stop') idx.stops.push(e as UserActionEvent & { action: { type: 'stop' } });
        break;
      case 'client-state': {
        const c = call(e.call);
        if (c.requestId === null && e.requestId !== null) {
          c.requestId = e.requestId;
          idx.callByRequestId.set(`${e.connection}:${idKey(e.requestId)}`, e.call);
        }
        c.states.push(e);
        break;
      }
      case 'handler': {
        const note = e.note;
        if (e.side === 'client' && note.type === 'call-settled') {
          call(note.call).settled.push(e as HandlerEvent & { note: { type: 'call-settled' } });
        } else if (e.side === 'client' && note.type === 'client-onerror') {
          idx.clientOnerror.push(e);
        } else if (e.side === 'server' && 'requestId' in note) {
          push(idx.serverNotes, idKey(note.requestId), e);
        }
        break;
      }
      case 'connection':
        if (e.event === 'session-expired') idx.sessionExpired.push(e.seq);
        break;
      default:
        break;
    }
  };
  return { index: idx, add };
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
