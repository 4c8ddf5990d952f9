/**
 * The wire log: one row per frame, with what it is, where it sits in HTTP, and whether and when
 * it was delivered. A response says what it answers through the trace index.
 */
import { DIRECTION_LABEL, frameEntry, indexTrace, isObject, sseFieldsOf, type Direction, type FrameEvent, type IndexedRequest, type JsonRpcMessage, type TraceEvent, type TraceIndex } from '../trace/index.ts';

/** The HTTP headers worth showing in the wire log; the raw frame keeps all of them. */
export const HEADERS_THAT_MATTER = ['mcp-session-id', 'mcp-protocol-version', 'accept', 'content-type', 'last-event-id'] as const;

export interface WireRow {
  frame: number;
  /** The connection the frame belongs to: 0 for the first, one more after each reconnect (request ids start again). */
  connection: number;
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
  /** A relabelled response head: the Content-Type the server wrote ('' for none); null otherwise. */
  retypedFrom: string | null;
  /** The planned delivery time (null while held or when dropped). */
  deliverAt: number | null;
  /** Set when the frame arrived at a closed connection or a dead server. */
  droppedBecause: string | null;
  eof: boolean;
  /** The method the frame carries, or for a response the method it answers; '' for bare framing. */
  method: string;
  /** The client call the frame belongs to (its request, response, cancel, progress or stream), or null. */
  call: string | null;
  /** For a request: ms from its write to its response's arrival, or else to its cancel (or stream close); null while open. */
  durationMs: number | null;
  /** What ended `durationMs`. */
  durationTo: 'response' | 'cancel' | 'abort' | null;
}

/** The id a row shows: a message's own, or the one a cancel names (as written, whatever its type). */
function describeId(id: unknown): string {
  return id === undefined ? '' : (JSON.stringify(id) ?? '');
}

/** What one message is, in a few words: its method, or for a response what it answers. */
function whatOfMessage(msg: JsonRpcMessage, answered: IndexedRequest | undefined): string {
  if (msg.method !== undefined) return msg.method;
  const kind = msg.error !== undefined ? 'error' : 'result';
  return answered ? `${kind} of ${answered.method}` : `${kind} (unknown id)`;
}

/** The messages a JSON-RPC batch frame carries, each in a few words (elements that are no message say so). */
function batchWords(batch: readonly unknown[], index: TraceIndex, e: FrameEvent): string[] {
  const responses = frameEntry(index, e.frame)?.responses ?? [];
  return batch.map((m) => {
    if (!isObject(m)) return '(not a message)';
    const msg = m as JsonRpcMessage;
    return whatOfMessage(msg, responses.find((r) => r.id === msg.id)?.req);
  });
}

/** What a frame is, in a few words: its method, for a response what it answers, for a batch what it holds. */
function whatOf(e: FrameEvent, index: TraceIndex): string {
  const msg = e.msg;
  // The index pairs a response with its request on the same connection (ids start again on each).
  if (msg) return whatOfMessage(msg, frameEntry(index, e.frame)?.responses[0]?.req);
  const batch = frameEntry(index, e.frame)?.batch;
  if (batch) return `batch of ${batch.length}${batch.length > 0 ? `: ${batchWords(batch, index, e).join(', ')}` : ''}`;
  return e.http ? '' : e.eof ? 'end of stream (EOF)' : '(not JSON)';
}

/** One row per frame written, in order, with its delivery once it arrives (or why it never did). */
export function wireRows(trace: readonly TraceEvent[], index: TraceIndex = indexTrace(trace)): WireRow[] {
  const rows: WireRow[] = [];
  const byFrame = new Map<number, WireRow>();
  for (const e of trace) {
    if (e.kind === 'frame') {
      const http = e.http;
      const msg = e.msg;
      // A batch's row shows its first element's id (`what` lists every message in it).
      const first = frameEntry(index, e.frame)?.batch?.find(isObject);
      const firstRequestId = isObject(first?.params) ? first.params.requestId : undefined;
      const headers: [string, string][] = [];
      for (const name of HEADERS_THAT_MATTER) {
        const value = http?.headers?.[name];
        if (value !== undefined) headers.push([name, value]);
      }
      const row: WireRow = {
        frame: e.frame,
        connection: e.connection,
        seq: e.seq,
        deliverySeq: null,
        stream: http?.stream ?? null,
        framing: http ? framingLabel(e.http, e.raw) : null,
        headers,
        carriesMessage: msg !== null || first !== undefined,
        sentAt: e.t,
        deliveredAt: null,
        dir: e.dir,
        direction: DIRECTION_LABEL[e.dir],
        what: whatOf(e, index),
        id: describeId(msg ? (msg.id ?? msg.params?.requestId) : (first?.id ?? firstRequestId)),
        raw: e.raw,
        msg,
        injected: e.injected === true,
        fault: e.fault ?? null,
        retypedFrom: e.retypedFrom ?? null,
        deliverAt: e.deliverAt,
        droppedBecause: null,
        eof: e.eof === true,
        ...belonging(e, index),
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

/** The request a frame carries, answers, cancels, reports progress on or closes (through the index), with its call. */
function belonging(e: FrameEvent, index: TraceIndex): Pick<WireRow, 'method' | 'call' | 'durationMs' | 'durationTo'> {
  const entry = frameEntry(index, e.frame);
  const own = entry?.requests[0];
  const req =
    own ??
    entry?.responses[0]?.req ??
    entry?.cancels[0]?.target ??
    entry?.progress[0]?.owner ??
    entry?.abort?.target ??
    (e.http ? index.streams.get(e.http.stream)?.req : undefined);
  const first = entry?.batch?.find(isObject);
  const method = e.msg?.method ?? (typeof first?.method === 'string' ? first.method : undefined) ?? (entry?.responses[0]?.req?.method || '');
  return { method, call: req?.call ?? null, ...(own ? duration(own, index) : { durationMs: null, durationTo: null }) };
}

/**
 * A request's time to what ended it for the requester, whichever came first: its first response
 * as the requester got it (or as written, if it never arrived), its cancel, or the abort that gave
 * it up. A response that arrives after the cancel (crossed it, or was forged late) does not
 * lengthen a call the requester had already stopped.
 */
function duration(req: IndexedRequest, index: TraceIndex): Pick<WireRow, 'durationMs' | 'durationTo'> {
  const response = req.responses[0]?.frame;
  const arrived = response && index.delivery.get(response.frame);
  const ends: [number | undefined, NonNullable<WireRow['durationTo']>][] = [
    [response && (arrived && !arrived.dropped ? arrived.t : response.t), 'response'],
    [req.cancels[0]?.frame.t, 'cancel'],
    [req.aborts[0]?.frame.t, 'abort'],
  ];
  let first: [number, NonNullable<WireRow['durationTo']>] | null = null;
  for (const [t, to] of ends) if (t !== undefined && (first === null || t < first[0])) first = [t, to];
  return first === null ? { durationMs: null, durationTo: null } : { durationMs: first[0] - req.frame.t, durationTo: first[1] };
}

function framingLabel(http: FrameEvent['http'], raw: string): string {
  if (!http) return '';
  switch (http.part) {
    case 'request': {
      const path = http.url ? new URL(http.url).pathname + new URL(http.url).search : '';
      // A GET that names the last event it saw resumes a stream (Streamable HTTP resumability).
      const resumes = http.headers?.['last-event-id'];
      return `${http.method ?? ''} ${path}${resumes === undefined ? '' : ` · resume after ${resumes}`}`;
    }
    case 'response-head':
      return `${http.status ?? ''} ${http.headers?.['content-type']?.split(';')[0] ?? '(no body)'}`;
    case 'chunk': {
      if (raw.startsWith(':')) return 'SSE comment';
      const event = /^event: (.*)$/m.exec(raw)?.[1];
      // A resumable stream's events carry ids, and its priming event an id and a retry (no data).
      const sse = /^(id|retry):/m.test(raw) ? sseFieldsOf(raw) : {};
      const fields = [event && `event: ${event}`, sse.id !== undefined && `id: ${sse.id}`, sse.retry !== undefined && `retry: ${sse.retry}`].filter((f) => typeof f === 'string');
      return fields.length > 0 ? `SSE ${fields.join(' · ')}` : 'body';
    }
    case 'end':
      return 'end of response (server)';
    case 'abort':
      return 'stream closed by client';
  }
}
