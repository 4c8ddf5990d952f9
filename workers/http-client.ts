/**
 * The client's `fetch`, carried over the simulated wire: each call opens a numbered stream,
 * writes the request as one frame, and answers with a Response whose body is fed chunk by
 * chunk as frames arrive. Aborting the request's signal closes the stream (an abort frame).
 */
import { abortFrame, headersRecord, requestFrame, type WireFrame } from '../src/trace/index.ts';
import { note, send } from './runtime.ts';

interface OpenStream {
  resolve(response: Response): void;
  reject(error: unknown): void;
  body: ReadableStreamDefaultController<Uint8Array> | null;
  closed: boolean;
}

const encoder = new TextEncoder();

/** Statuses whose responses may not have a body (the Response constructor rejects one). */
function isNullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304;
}

/**
 * What an aborted request rejects with. An `abort()` without a reason leaves the platform's
 * AbortError, whose message differs between Node ("This operation was aborted") and browsers
 * ("signal is aborted without reason"); that one gets Node's words everywhere, so the trace
 * (the SDK reports the message to onerror) is the same in both.
 */
function abortError(reason: unknown): unknown {
  if (reason instanceof DOMException && reason.name === 'AbortError') return new DOMException('This operation was aborted', 'AbortError');
  return reason instanceof Error ? reason : new DOMException(String(reason ?? 'aborted'), 'AbortError');
}

export class WireFetch {
  private nextStream = 1;
  private readonly streams = new Map<number, OpenStream>();

  readonly fetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) return Promise.reject(new TypeError('the wire fetch takes a URL and init'));
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      return Promise.reject(new TypeError('the wire fetch carries string bodies only'));
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const stream = this.nextStream++;
    send(requestFrame(stream, (init.method ?? 'GET').toUpperCase(), String(input), headersRecord(new Headers(init.headers)), init.body ?? ''));
    return new Promise<Response>((resolve, reject) => {
      this.streams.set(stream, { resolve, reject, body: null, closed: false });
      signal?.addEventListener('abort', () => this.abort(stream, signal.reason), { once: true });
    });
  };

  /** A frame for one of our streams arrived from the server. */
  receive(frame: WireFrame): void {
    const http = frame.http;
    if (!http) return;
    const open = this.streams.get(http.stream);
    if (!open || open.closed) {
      note({ type: 'frame-dropped', stream: http.stream, reason: 'the client had closed this stream' });
      return;
    }
    switch (http.part) {
      case 'response-head': {
        const status = http.status ?? 200;
        const body = isNullBodyStatus(status)
          ? null
          : new ReadableStream<Uint8Array>({
              start: (controller) => {
                open.body = controller;
              },
              // The client stopped reading (v1 cancels the body of a 202 or an error): the rest of
              // the body still arrives, as bytes on a real connection would, and is discarded.
              cancel: () => {
                open.body = null;
              },
            });
        open.resolve(new Response(body, { status, headers: http.headers ?? {} }));
        return;
      }
      case 'chunk':
        open.body?.enqueue(encoder.encode(frame.raw));
        return;
      case 'end':
        open.closed = true;
        open.body?.close();
        this.streams.delete(http.stream);
        return;
      default:
        return;
    }
  }

  private abort(stream: number, reason: unknown): void {
    const open = this.streams.get(stream);
    if (!open || open.closed) return;
    open.closed = true;
    send(abortFrame(stream));
    open.reject(abortError(reason));
    open.body?.error(abortError(reason));
  }
}
