/**
 * Frames on the simulated wire, written and read in one place: how a stdio line, an HTTP
 * request, a response head, a body chunk (one SSE event or one JSON body), an end and an abort
 * are written as frames, and which JSON-RPC message, if any, a frame carries. The sides write
 * with these, the coordinator forges with them and reads `FrameEvent.msg` with `messageOf`,
 * so every view sees messages the same way on every transport.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { parseJsonRpc, type HttpFraming, type JsonRpcMessage } from './events.ts';
import { STATUS_TEXT } from './http-status.ts';

/** What travels on the wire: the bytes, and on HTTP where they sit in which stream. */
export interface WireFrame {
  raw: string;
  http?: HttpFraming;
  /** stdio: the writer closed its end of the stream. */
  eof?: true;
}

/** The origin every HTTP request on the simulated wire goes to. */
export const SERVER_ORIGIN = 'http://mcp-server.invalid';

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/** The headers of a fetch `Headers` as the lower-case name → value record a frame carries. */
export function headersRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

export function requestFrame(stream: number, method: string, url: string, headers: Record<string, string>, body: string): WireFrame {
  const target = new URL(url);
  const http: HttpFraming = { stream, part: 'request', method, url, headers };
  return { raw: `${method} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n${headerLines(headers)}\r\n${body}`, http };
}

/** The body of a request frame (what follows the blank line after the headers). */
export function requestBody(frame: WireFrame): string {
  const at = frame.raw.indexOf('\r\n\r\n');
  return at < 0 ? '' : frame.raw.slice(at + 4);
}

export function responseHeadFrame(stream: number, status: number, headers: Record<string, string>): WireFrame {
  return {
    raw: `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}\r\n${headerLines(headers)}\r\n`,
    http: { stream, part: 'response-head', status, headers },
  };
}

/**
 * A response head as a wire fault relabels it: the same status and headers in the same order,
 * with `content-type` set to `contentType` (added when the server sent none).
 */
export function retypedHead(frame: WireFrame, contentType: string): WireFrame {
  const http = frame.http;
  if (http?.part !== 'response-head') return frame;
  return responseHeadFrame(http.stream, http.status ?? 200, { ...http.headers, 'content-type': contentType });
}

export function chunkFrame(stream: number, text: string): WireFrame {
  return { raw: text, http: { stream, part: 'chunk' } };
}

export function endFrame(stream: number): WireFrame {
  return { raw: '', http: { stream, part: 'end' } };
}

export function abortFrame(stream: number): WireFrame {
  return { raw: '', http: { stream, part: 'abort' } };
}

/** One SSE event as written on a stream: `event: <name>` and one `data:` line. */
export function sseEvent(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** The first complete SSE event in a chunk (each chunk the server writes is one event). */
function firstSseEvent(text: string): EventSourceMessage | null {
  let first: EventSourceMessage | null = null;
  const parser = createParser({
    onEvent: (event) => {
      first ??= event;
    },
  });
  parser.feed(text);
  // A chunk that ends without the blank line still holds its event: end it (a chunk that did
  // end with one gets empty lines, which dispatch nothing).
  parser.feed('\n\n');
  return first;
}

/**
 * The fields of the SSE event a chunk holds, as an SSE parser reads them: its `event` name, its
 * `id` (what a client sends back as `Last-Event-ID`) and a `retry` (the milliseconds a client
 * waits before it reconnects; a priming event may carry one and no data).
 */
export function sseFieldsOf(text: string): { event?: string; id?: string; retry?: number } {
  const seen: { event?: EventSourceMessage; retry?: number } = {};
  const parser = createParser({
    onEvent: (event) => {
      seen.event ??= event;
    },
    onRetry: (ms) => {
      seen.retry ??= ms;
    },
  });
  parser.feed(text);
  parser.feed('\n\n');
  return {
    ...(seen.event?.event !== undefined && { event: seen.event.event }),
    ...(seen.event?.id !== undefined && { id: seen.event.id }),
    ...(seen.retry !== undefined && { retry: seen.retry }),
  };
}

/** Whether an SSE parser finds at least one event in `text` (a body labelled SSE that holds none is no SSE stream). */
export function holdsSseEvent(text: string): boolean {
  return firstSseEvent(text) !== null;
}

/**
 * The JSON text a frame carries: a stdio line; an HTTP request body; an SSE `message` event's
 * data; or a JSON response body. `contentType` is the response's, for chunks. Null when the
 * frame carries none (a head, an end, an abort, another SSE event).
 */
export function bodyOf(frame: WireFrame, contentType: string | undefined): string | null {
  const http = frame.http;
  if (!http) return frame.raw;
  switch (http.part) {
    case 'request':
      return frame.raw.includes('\r\n\r\n') ? requestBody(frame) : null;
    case 'chunk': {
      if (contentType?.startsWith('text/event-stream')) {
        const event = firstSseEvent(frame.raw);
        // An event with no `event:` field is a `message` event.
        return event && (event.event ?? 'message') === 'message' && event.data !== '' ? event.data : null;
      }
      return frame.raw;
    }
    default:
      return null;
  }
}

/** The message a frame carries (see `bodyOf`), when its text is one JSON-RPC message. */
export function messageOf(frame: WireFrame, contentType: string | undefined): JsonRpcMessage | null {
  const body = bodyOf(frame, contentType);
  return body === null ? null : parseJsonRpc(body);
}
