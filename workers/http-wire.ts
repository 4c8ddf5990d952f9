/**
 * HTTP over the simulated wire, shared by both ends: how a request, a response head, a body
 * chunk, an end and an abort are written as frames, and read back.
 */
import type { HttpFraming } from '../src/trace/index.ts';
import type { WireFrame } from '../src/engine/index.ts';
import { STATUS_TEXT } from '../src/trace/index.ts';

export const SERVER_ORIGIN = 'http://mcp-server.invalid';


function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

export function headersObject(headers: Headers): Record<string, string> {
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

export function chunkFrame(stream: number, text: string): WireFrame {
  return { raw: text, http: { stream, part: 'chunk' } };
}

export function endFrame(stream: number): WireFrame {
  return { raw: '', http: { stream, part: 'end' } };
}

export function abortFrame(stream: number): WireFrame {
  return { raw: '', http: { stream, part: 'abort' } };
}

/** Statuses whose responses may not have a body (the Response constructor rejects one). */
export function isNullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304;
}
