/**
 * What the coordinator knows of the HTTP streams and sessions, read off the frames written:
 * each stream's content type, the request it carries and whether it is still open, and the
 * session ids the server handed out. Following a frame yields the transport lifecycle events
 * it implies (a stream opened or closed, a session created or lost).
 */
import type { ConnectionEvent, FrameEvent, RequestId, UserAction, WireFrame } from '../trace/index.ts';
import type { ServerAction } from './side-protocol.ts';

interface StreamRecord {
  open: boolean;
  contentType?: string;
  /** The JSON-RPC request the client POSTed on it, if any. */
  requestId?: RequestId;
  /** The method of the JSON-RPC message the client POSTed on it, if any. */
  method?: string;
  /** The HTTP method of the request that opened it (GET for a standalone stream). */
  httpMethod?: string;
  sessionId?: string;
}

/** A transport event to record, as the coordinator appends it. */
export type TransportEvent = Pick<ConnectionEvent, 'event' | 'detail' | 'stream' | 'by'>;

const isSse = (record: StreamRecord): boolean => record.contentType?.startsWith('text/event-stream') === true;

export class Streams {
  private readonly records = new Map<number, StreamRecord>();
  private readonly sessions: string[] = [];

  /** The content type of the response a frame belongs to (what its chunks are), if known. */
  contentTypeOf(wire: WireFrame): string | undefined {
    return wire.http ? this.records.get(wire.http.stream)?.contentType : undefined;
  }

  /** The method of the message POSTed on the stream a frame belongs to (what a response head answers). */
  postedOn(wire: WireFrame): string | undefined {
    return wire.http ? this.records.get(wire.http.stream)?.method : undefined;
  }

  /** The session id the server handed out last. */
  latestSession(): string | undefined {
    return this.sessions.at(-1);
  }

  /** The request's own response stream if still open, else any open SSE stream (HTTP+SSE's one stream). */
  sseStreamFor(requestId: RequestId): number | null {
    let fallback: number | null = null;
    for (const [stream, record] of this.records) {
      if (!record.open || !isSse(record)) continue;
      if (record.requestId === requestId) return stream;
      fallback ??= stream;
    }
    return fallback;
  }

  /** The open SSE stream of the POST that carried request `requestId`, if any. */
  requestStream(requestId: RequestId): number | null {
    for (const [stream, record] of this.records) if (record.open && isSse(record) && record.requestId === requestId) return stream;
    return null;
  }

  /** The open standalone SSE stream: the GET stream of Streamable HTTP, or HTTP+SSE's one stream. */
  getStream(): number | null {
    for (const [stream, record] of this.records) if (record.open && isSse(record) && record.httpMethod === 'GET') return stream;
    return null;
  }

  /** A new connection: its streams are new (sessions are the server's, and outlive it). */
  clear(): void {
    this.records.clear();
  }

  /** Keeps the record of the frame's stream, and returns the transport events the frame implies. */
  follow(frame: FrameEvent): TransportEvent[] {
    const http = frame.http;
    if (!http) return [];
    const record = this.records.get(http.stream) ?? { open: true };
    this.records.set(http.stream, record);
    switch (http.part) {
      case 'request': {
        if (frame.msg?.method !== undefined) record.method = frame.msg.method;
        record.httpMethod = http.method;
        if (frame.msg?.method !== undefined && frame.msg.id !== undefined) record.requestId = frame.msg.id;
        const session = http.headers?.['mcp-session-id'];
        if (session !== undefined) record.sessionId = session;
        const path = http.url ? new URL(http.url).pathname : '';
        const resumes = http.headers?.['last-event-id'];
        const what = frame.msg?.method ? ` (${frame.msg.method})` : resumes !== undefined ? ` (resuming after event ${resumes})` : '';
        return [{ event: 'stream-opened', detail: `${http.method ?? ''} ${path}${what}`, stream: http.stream, by: 'client' }];
      }
      case 'response-head': {
        const events: TransportEvent[] = [];
        // The server's chunks are read as it wrote them, even when a wire fault relabelled its head.
        const contentType = frame.retypedFrom ?? http.headers?.['content-type'];
        if (contentType !== undefined) record.contentType = contentType;
        const session = http.headers?.['mcp-session-id'];
        if (session && !this.sessions.includes(session)) {
          this.sessions.push(session);
          events.push({ event: 'session-created', detail: `Mcp-Session-Id: ${session}`, stream: http.stream, by: 'server' });
        }
        if (http.status === 404 && record.sessionId !== undefined) events.push({ event: 'session-expired', detail: `404 for session ${record.sessionId}`, stream: http.stream, by: 'server' });
        return events;
      }
      case 'end':
        record.open = false;
        return [{ event: 'stream-closed', detail: 'the server ended the response', stream: http.stream, by: 'server' }];
      case 'abort':
        record.open = false;
        return [{ event: 'stream-closed', detail: 'the client closed the stream before the response ended', stream: http.stream, by: 'client' }];
      default:
        return [];
    }
  }
}

/**
 * What the server side is asked to do for a streams step (close a call's SSE stream, forget the
 * session), with the transport event the step itself implies; or why it cannot be done.
 */
export function serverStreamsStep(
  action: Extract<UserAction, { type: 'close-stream' | 'expire-session' }>,
  calls: { requestIdOf(call: string): RequestId | null },
  streams: Streams,
): { ok: true; what: string; action: ServerAction; event?: TransportEvent } | { ok: false; error: string } {
  if (action.type === 'expire-session') {
    const event: TransportEvent = { event: 'session-expired', detail: `the server forgot session ${streams.latestSession() ?? '(none yet)'}`, by: 'server' };
    return { ok: true, what: 'the session expiry', action: { type: 'expire-session', ...(action.outageMs !== undefined && { outageMs: action.outageMs }) }, event };
  }
  const requestId = calls.requestIdOf(action.call);
  if (requestId === null) return { ok: false, error: `no request id known for call ${action.call}` };
  return { ok: true, what: `closing call ${action.call}'s stream`, action: { type: 'close-stream', requestId } };
}
