/**
 * Reading HTTP frames off the trace: which JSON-RPC message, if any, a frame carries. The
 * coordinator uses it to fill `FrameEvent.msg`, so every view sees messages the same way on
 * every transport.
 */
import { parseJsonRpc, type JsonRpcMessage } from './events.ts';
import type { WireFrame } from '../engine/index.ts';

/** The `event` name and joined `data` of the first complete SSE event in a chunk. */
export function firstSseEvent(text: string): { event: string; data: string; id?: string } | null {
  const block = text.split(/\r?\n\r?\n/)[0];
  if (block === undefined) return null;
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  let sawField = false;
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    sawField = true;
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return sawField ? { event, data: data.join('\n'), ...(id !== undefined && { id }) } : null;
}

/**
 * The message a frame carries: a stdio line; an HTTP request body; an SSE `message` event's
 * data; or a JSON response body. `contentType` is the response's, for chunks.
 */
export function messageOf(frame: WireFrame, contentType: string | undefined): JsonRpcMessage | null {
  const http = frame.http;
  if (!http) return parseJsonRpc(frame.raw);
  switch (http.part) {
    case 'request': {
      const at = frame.raw.indexOf('\r\n\r\n');
      return at < 0 ? null : parseJsonRpc(frame.raw.slice(at + 4));
    }
    case 'chunk': {
      if (contentType?.startsWith('text/event-stream')) {
        const event = firstSseEvent(frame.raw);
        return event && event.event === 'message' && event.data !== '' ? parseJsonRpc(event.data) : null;
      }
      return parseJsonRpc(frame.raw);
    }
    default:
      return null;
  }
}
