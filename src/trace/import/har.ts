/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as a browser's DevTools saves a
 * Streamable HTTP or HTTP+SSE session: each entry is one HTTP exchange, and becomes one stream
 * of the lab's HTTP framing — the request (line, the headers MCP reads, `postData.text`), the
 * response head (`status`, headers), the body as chunks (a `text/event-stream` body split into
 * its events, any other body one chunk) and the end. An entry the browser records as failed
 * (`status` 0, or Chrome's `_error`, e.g. "net::ERR_ABORTED"; Playwright's status -1 with
 * `response._failureText`) ends with the client's abort.
 *
 * Times: the request at `startedDateTime`, the head after `blocked`, `dns`, `connect`, `send`
 * and `wait`, the end at `startedDateTime` + `time`. A HAR does not time the events inside a
 * body, so they are placed, in order, when the body ends.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import * as z from 'zod/v4';
import type { Direction, HttpFraming } from '../events.ts';
import { abortFrame, chunkFrame, endFrame, messageOf, requestFrame, responseHeadFrame, type WireFrame } from '../http-frames.ts';
import { observedTrace } from './builder.ts';
import { fail, failAt, ticker, type Imported, type ObservedTransport, type Progress } from './observed.ts';

const header = z.object({ name: z.string(), value: z.string() });
const entrySchema = z.object({
  startedDateTime: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'is not a date'),
  time: z.number(),
  request: z.object({ method: z.string(), url: z.url(), headers: z.array(header), postData: z.object({ text: z.string().optional() }).optional() }),
  response: z.object({
    status: z.number(),
    headers: z.array(header),
    content: z.object({ mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() }),
    /** Playwright's note on a request that failed (its `recordHar` writes status -1 with it). */
    _failureText: z.string().optional(),
  }),
  timings: z.record(z.string(), z.number().optional()).optional(),
  _error: z.string().optional(),
});
type Entry = z.infer<typeof entrySchema>;

/** The headers MCP reads, lower-cased, as the lab's frames carry them. */
const KEPT = /^(content-type|accept|last-event-id|mcp-.*)$/;

function kept(headers: readonly { name: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    const name = h.name.toLowerCase();
    if (KEPT.test(name)) out[name] = h.value;
  }
  return out;
}

/** Whether a parsed value is a HAR: `{log: {entries: […]}}`. */
export function isHar(value: unknown): value is { log: { entries: unknown[] } } {
  return typeof value === 'object' && value !== null && 'log' in value && typeof value.log === 'object' && value.log !== null && 'entries' in value.log && Array.isArray(value.log.entries);
}

/**
 * An SSE event written back as the lines that carried it; `retry` is the reconnection time a line
 * of it set (a priming event carries one and no data), which a parser reports apart from the event.
 */
function sseText(e: EventSourceMessage, retry: number | undefined): string {
  const lines = [
    ...(e.id !== undefined ? [`id: ${e.id}`] : []),
    ...(e.event !== undefined ? [`event: ${e.event}`] : []),
    ...(retry !== undefined ? [`retry: ${retry}`] : []),
    ...e.data.split('\n').map((d) => `data: ${d}`),
  ];
  return `${lines.join('\n')}\n\n`;
}

function sseEvents(body: string): string[] {
  const out: string[] = [];
  let retry: number | undefined;
  const parser = createParser({
    onRetry: (ms) => {
      retry = ms;
    },
    onEvent: (e) => {
      out.push(sseText(e, retry));
      retry = undefined;
    },
  });
  parser.feed(body);
  parser.feed('\n\n');
  // A retry line in an event that dispatched nothing (no data line) is still what the server said.
  if (retry !== undefined) out.push(`retry: ${retry}\n\n`);
  return out;
}

function bodyText(content: Entry['response']['content']): string {
  const text = content.text ?? '';
  if (content.encoding !== 'base64') return text;
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

interface Timed {
  at: number;
  order: number;
  dir: Direction;
  frame: WireFrame;
  contentType?: string;
}

const phase = (timings: Entry['timings'], name: string): number => Math.max(0, timings?.[name] ?? 0);

function entryFrames(e: Entry, stream: number): Timed[] {
  const start = Date.parse(e.startedDateTime);
  const end = start + Math.max(0, e.time);
  const out: Timed[] = [];
  const add = (at: number, dir: Direction, frame: WireFrame, contentType?: string): void => {
    out.push({ at, order: stream * 1e6 + out.length, dir, frame, ...(contentType !== undefined && { contentType }) });
  };
  add(start, 'c2s', requestFrame(stream, e.request.method, e.request.url, kept(e.request.headers), e.request.postData?.text ?? ''));
  // A failed request: DevTools' status 0 or `_error`; Playwright's status -1 with `response._failureText`.
  if (e.response.status <= 0 || e._error !== undefined || e.response._failureText !== undefined) {
    add(end, 'c2s', abortFrame(stream));
    return out;
  }
  const headers = kept(e.response.headers);
  const headAt = Math.min(end, start + ['blocked', 'dns', 'connect', 'send', 'wait'].reduce((sum, p) => sum + phase(e.timings, p), 0));
  add(headAt, 's2c', responseHeadFrame(stream, e.response.status, headers));
  const contentType = headers['content-type'] ?? e.response.content.mimeType;
  const body = bodyText(e.response.content);
  const chunks = contentType?.startsWith('text/event-stream') ? sseEvents(body) : body === '' ? [] : [body];
  for (const chunk of chunks) add(end, 's2c', chunkFrame(stream, chunk), contentType);
  add(end, 's2c', endFrame(stream));
  return out;
}

/** HTTP+SSE (2024-11-05) announces its POST endpoint in an `endpoint` event on the GET stream. */
function transportOf(entries: readonly Entry[]): ObservedTransport {
  return entries.some((e) => e.request.method === 'GET' && /(^|\n)event: ?endpoint\r?\n/.test(bodyText(e.response.content))) ? 'http-sse' : 'streamable-http';
}

export function importHar(value: unknown, progress?: Progress): Imported {
  if (!isHar(value)) return fail('har', 'the file has no "log.entries" array');
  const entries: Entry[] = [];
  const tick = ticker(value.log.entries.length, progress);
  for (const [i, item] of value.log.entries.entries()) {
    tick(i);
    const parsed = entrySchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return failAt('har', { entry: i }, `has ${issue ? `a bad "${issue.path.join('.')}": ${issue.message}` : 'a bad shape'}`);
    }
    entries.push(parsed.data);
  }
  if (entries.length === 0) return fail('har', 'the capture has no entries');
  const order = entries.map((e, i) => ({ e, i })).sort((a, b) => Date.parse(a.e.startedDateTime) - Date.parse(b.e.startedDateTime) || a.i - b.i);
  const frames = order.flatMap(({ e }, n) => entryFrames(e, n + 1)).sort((a, b) => a.at - b.at || a.order - b.order);
  const out = observedTrace('har');
  for (const f of frames) {
    const http: HttpFraming | undefined = f.frame.http;
    out.frame(f.at, f.dir, f.frame.raw, messageOf(f.frame, f.contentType), http);
  }
  const version = entries.map((e) => kept(e.request.headers)['mcp-protocol-version']).find((v) => v !== undefined);
  return { ok: true, format: 'har', trace: out.trace(), transport: transportOf(entries), ...(version !== undefined && { revision: version }) };
}
