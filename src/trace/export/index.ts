/**
 * The lab's trace written in the formats other tools read, the other way round from
 * src/trace/import/: mcpsnoop's JSONL session log (stdio) and HAR 1.2 (the HTTP transports),
 * so a run staged here opens where a reporter's own evidence does. Each is laid out in the shape
 * its importer reads (mcpsnoop.ts and har.ts cite the upstream definitions), and a round trip
 * through the importer gives the same frames back (tests/unit/export.test.ts).
 *
 * Virtual time becomes wall time from `epoch` (the Unix epoch unless given): a trace has no wall
 * clock, and a fixed one keeps an export of the same run byte-identical.
 */
import type { FrameEvent, TraceEvent } from '../events.ts';

export type ExportFormat = 'mcpsnoop' | 'har';

export const EXPORT_LABEL: Record<ExportFormat, string> = { mcpsnoop: 'mcpsnoop JSONL session log', har: 'HAR 1.2' };

/** The frames a capture would have seen: a wire fault's copy and a stdio end-of-stream are the lab's own. */
function captured(trace: readonly TraceEvent[]): FrameEvent[] {
  return trace.filter((e): e is FrameEvent => e.kind === 'frame' && !e.eof && e.fault !== 'duplicated');
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * mcpsnoop's envelopes (frame.go `Envelope`): a `meta` line first, then one per stdio line as the
 * shim reads it (`raw` when it is JSON, a batch staying an array; `text` when not), and the
 * server's stderr lines. `ts` is Go's RFC 3339 with trailing zeros trimmed, as mcpsnoop writes it.
 */
export function toMcpsnoop(trace: readonly TraceEvent[], epoch = 0): string {
  let seq = 0;
  const ts = (t: number): string => new Date(epoch + t).toISOString().replace(/\.?0+Z$/, 'Z');
  const envelope = (t: number, direction: string, body: Record<string, unknown>): string =>
    JSON.stringify({ session_id: 'cancel-lab', server_label: 'cancel-lab-server', seq: seq++, ts: ts(t), direction, transport: 'stdio', ...body });
  const out = [envelope(0, 'meta', { raw: { command: ['cancel-lab', 'server'] } })];
  for (const e of trace) {
    if (e.kind === 'handler' && e.side === 'server' && e.note.type === 'stderr') out.push(envelope(e.t, 'stderr', { text: e.note.text }));
    if (e.kind !== 'frame' || e.eof || e.fault === 'duplicated') continue;
    const line = e.raw.trimEnd();
    const json = parsed(line);
    out.push(envelope(e.t, e.dir, json === undefined ? { text: line } : { raw: json }));
  }
  return `${out.join('\n')}\n`;
}

const pairs = (headers: Record<string, string> | undefined): { name: string; value: string }[] => Object.entries(headers ?? {}).map(([name, value]) => ({ name, value }));

/**
 * DevTools' HAR 1.2: one entry per HTTP exchange (a stream of the trace), its request body and
 * its whole response body (an SSE stream's events as written), its status and headers, timed by
 * its phases; a stream the client closed is `_error: net::ERR_ABORTED`, as Chromium writes it.
 */
export function toHar(trace: readonly TraceEvent[], epoch = 0): string {
  const iso = (t: number): string => new Date(epoch + t).toISOString();
  const streams = new Map<number, FrameEvent[]>();
  for (const f of captured(trace)) if (f.http) streams.set(f.http.stream, [...(streams.get(f.http.stream) ?? []), f]);
  const entries = [...streams.values()].flatMap((fs) => {
    const req = fs.find((f) => f.http?.part === 'request');
    if (!req?.http?.url || !req.http.method) return [];
    const body = req.raw.slice(req.raw.indexOf('\r\n\r\n') + 4);
    const head = fs.find((f) => f.http?.part === 'response-head');
    const last = fs.at(-1) ?? req;
    const text = fs
      .filter((f) => f.http?.part === 'chunk')
      .map((f) => f.raw)
      .join('');
    const aborted = fs.some((f) => f.http?.part === 'abort');
    return [
      {
        startedDateTime: iso(req.t),
        time: last.t - req.t,
        request: {
          method: req.http.method,
          url: req.http.url,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: pairs(req.http.headers),
          queryString: [],
          ...(body !== '' && { postData: { mimeType: req.http.headers?.['content-type'] ?? 'application/json', text: body } }),
          headersSize: -1,
          bodySize: body.length,
        },
        response: {
          status: aborted && !head ? 0 : (head?.http?.status ?? 0),
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: pairs(head?.http?.headers),
          content: { size: text.length, mimeType: head?.http?.headers?.['content-type'] ?? 'x-unknown', ...(text !== '' && { text }) },
          redirectURL: '',
          headersSize: -1,
          bodySize: text.length,
        },
        cache: {},
        timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: (head?.t ?? last.t) - req.t, receive: last.t - (head?.t ?? last.t) },
        ...(aborted && { _error: 'net::ERR_ABORTED' }),
      },
    ];
  });
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'MCP Cancel Lab', version: '1' }, pages: [], entries } }, null, 2);
}

/** Which formats a run on `transport` can be written in: mcpsnoop reads stdio, a HAR holds HTTP. */
export function exportFormatsFor(transport: string): ExportFormat[] {
  return transport === 'stdio' ? ['mcpsnoop'] : ['har'];
}

/** The run in `format`, with the file name and media type a download gives it. */
export function exportTrace(trace: readonly TraceEvent[], format: ExportFormat): { name: string; text: string; type: string } {
  return format === 'mcpsnoop'
    ? { name: 'trace.mcpsnoop.jsonl', text: toMcpsnoop(trace), type: 'application/jsonl' }
    : { name: 'trace.har', text: toHar(trace), type: 'application/json' };
}
