/**
 * mcpsnoop's JSONL session log: one envelope per line, as its shim writes what it sees
 * (`Envelope` in internal/proxy/frame.go, kerlenton/mcpsnoop@b6191fc2774ae476ab609c68a1dc58b5da64b302,
 * https://github.com/kerlenton/mcpsnoop/blob/b6191fc2774ae476ab609c68a1dc58b5da64b302/internal/proxy/frame.go#L56-L107):
 * `session_id`, `seq`, `ts` (RFC 3339), `direction` (`c2s`, `s2c`, `stderr`, `meta`),
 * `transport` (`stdio`, `http`), `raw` (the JSON-RPC message, embedded as JSON) or `text` (a
 * line that is not JSON-RPC), and on HTTP `mcp_protocol_version` and the response `status`.
 *
 * On stdio an envelope is one line (its `raw` may be a batch array: observe in
 * internal/proxy/stdio.go); on HTTP one message (a batch's elements each get one, marked
 * `batch`: internal/proxy/http.go), so an HTTP log has no streams and its frames are the
 * messages, without HTTP framing. `stderr` lines and the `meta` envelope (the server's command)
 * become notes.
 */
import { isObject } from '../messages.ts';
import { observedTrace } from './builder.ts';
import { asMessage, excerpt, failAt, linesOf, ticker, type Imported, type Progress } from './observed.ts';

function envelopeOf(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a line is an mcpsnoop envelope: its session, sequence number and direction. */
export function isSnoopEnvelope(line: string): boolean {
  const e = envelopeOf(line);
  return e !== undefined && typeof e.session_id === 'string' && typeof e.seq === 'number' && typeof e.direction === 'string';
}

export function importMcpsnoop(text: string, progress?: Progress): Imported {
  const lines = linesOf('mcpsnoop', text);
  if (!Array.isArray(lines)) return lines;
  const out = observedTrace('mcpsnoop');
  let transport: string | undefined;
  let revision: string | undefined;
  const tick = ticker(lines.length, progress);
  for (const [i, line] of lines.entries()) {
    tick(i);
    if (line.trim() === '') continue;
    const e = envelopeOf(line);
    const where = { line: i + 1 };
    if (e === undefined) return failAt('mcpsnoop', where, `is not a JSON object: ${excerpt(line)}`);
    if (typeof e.ts !== 'string' || Number.isNaN(Date.parse(e.ts))) return failAt('mcpsnoop', where, 'has no RFC 3339 "ts"');
    const at = Date.parse(e.ts);
    if (typeof e.transport === 'string') transport ??= e.transport;
    if (typeof e.mcp_protocol_version === 'string' && e.mcp_protocol_version !== '') revision ??= e.mcp_protocol_version;
    const dir = e.direction;
    if (dir === 'stderr') {
      out.note(at, `server stderr: ${typeof e.text === 'string' ? e.text : ''}`);
    } else if (dir === 'meta') {
      const meta = isObject(e.raw) && Array.isArray(e.raw.command) ? e.raw.command.join(' ') : '';
      out.note(at, `mcpsnoop session ${String(e.session_id)}${meta ? `: server command ${meta}` : ''}`);
    } else if (dir === 'c2s' || dir === 's2c') {
      if (e.raw !== undefined) out.frame(at, dir, `${JSON.stringify(e.raw)}\n`, asMessage(e.raw));
      else if (typeof e.text === 'string') out.frame(at, dir, `${e.text}\n`, null);
      else return failAt('mcpsnoop', where, 'has neither "raw" nor "text"');
      if (typeof e.status === 'number' && e.status >= 400) out.note(at, `HTTP status ${e.status} on that response`);
    } else {
      return failAt('mcpsnoop', where, `has an unknown direction ${excerpt(String(dir))}`);
    }
  }
  return {
    ok: true,
    format: 'mcpsnoop',
    trace: out.trace(),
    ...(transport === 'stdio' && { transport: 'stdio' as const }),
    ...(transport === 'http' && { transport: 'streamable-http' as const }),
    ...(revision !== undefined && { revision }),
  };
}
