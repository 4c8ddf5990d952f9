/**
 * The setting a trace shows by itself: the revision from the handshake (the client's own
 * `connected` note in a lab trace; else the `initialize` exchange's agreed `protocolVersion`; else
 * the version a 2026 request names in its `_meta`; else the `MCP-Protocol-Version` header), and
 * the transport from the framing (HTTP frames: HTTP+SSE when the server announces its
 * `endpoint`, else Streamable HTTP; a lab trace with none: stdio).
 */
import type { TraceEvent } from '../events.ts';
import { idKey } from '../trace-index.ts';
import { isObject, messagesOf } from '../messages.ts';
import type { ObservedTransport } from './observed.ts';

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

export function revisionOf(trace: readonly TraceEvent[]): string | undefined {
  const connected = trace.findLast((e) => e.kind === 'handler' && e.note.type === 'connected');
  if (connected?.kind === 'handler' && connected.note.type === 'connected') return connected.note.protocolVersion;
  const initialize = new Set<string>();
  let agreed: string | undefined;
  let named: string | undefined;
  let header: string | undefined;
  for (const e of trace) {
    if (e.kind !== 'frame') continue;
    if (e.dir === 'c2s') header ??= e.http?.headers?.['mcp-protocol-version'];
    for (const msg of messagesOf(e)) {
      if (e.dir === 'c2s' && msg.method === 'initialize' && msg.id !== undefined) initialize.add(idKey(msg.id));
      if (e.dir === 's2c' && msg.method === undefined && initialize.has(idKey(msg.id)) && isObject(msg.result) && typeof msg.result.protocolVersion === 'string') agreed = msg.result.protocolVersion;
      const version = msg.params?._meta;
      if (e.dir === 'c2s' && isObject(version) && typeof version[META_VERSION] === 'string') named ??= version[META_VERSION];
    }
  }
  return agreed ?? named ?? header;
}

export function transportOf(trace: readonly TraceEvent[]): ObservedTransport | undefined {
  // A recorder that knew its transport said so on the source event (the probe: messages without their framing).
  const source = trace.find((e) => e.kind === 'observed' && e.what === 'source');
  if (source?.kind === 'observed' && source.transport !== undefined) return source.transport;
  let http = false;
  let outside = false;
  for (const e of trace) {
    if (e.kind === 'observed' && e.what === 'source') outside = true;
    if (e.kind !== 'frame' || !e.http) continue;
    http = true;
    if (e.dir === 's2c' && e.http.part === 'chunk' && /(^|\n)event: ?endpoint\r?\n/.test(e.raw)) return 'http-sse';
  }
  if (http) return 'streamable-http';
  return outside ? undefined : 'stdio';
}
