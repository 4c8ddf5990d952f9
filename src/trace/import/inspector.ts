/**
 * The MCP Inspector's exported protocol log (its Messages panel's Export, a JSON array written
 * with `JSON.stringify(messages, null, 2)`: onExportProtocol in clients/web/src/App.tsx,
 * https://github.com/modelcontextprotocol/inspector/blob/86d5f58ec8c369839b8237455ad8b1c17b15a984/clients/web/src/App.tsx#L3731-L3737).
 * Each entry is a `MessageEntry` (core/mcp/types.ts#L293-L318 at that commit): `timestamp`
 * (ISO), `direction` (`request`, `response`, `notification`), `origin` (`client`, `server`;
 * absent in older logs), `message`, and for a request its `response` and `duration` (ms) once
 * answered (the log folds a response into its request: core/mcp/state/messageLogState.ts#L79-L95),
 * and `clientError` when the Inspector's SDK client refused a well-formed answer.
 *
 * The Inspector is the client, and stamps each message in its own process: what it sends when it
 * sends it, what it gets when it arrives (core/mcp/inspectorClient.ts#L839-L893). A folded
 * response is placed `duration` ms after its request, from the other side; a `clientError` is a
 * note there. An entry with no `origin` is the Inspector's own (client) when it is a request or
 * notification, and the server's when it is a response, as the Inspector's History showed them
 * before `origin`. The log holds messages, not wire bytes: each frame's text is the message as
 * one JSON line. The Inspector empties the log when the connection ends
 * (messageLogState.ts#L126-L132), so an export never holds the server's exit.
 */
import type { Direction, JsonRpcMessage } from '../events.ts';
import { isObject } from '../messages.ts';
import { observedTrace } from './builder.ts';
import { asMessage, fail, failAt, ticker, type Imported, type Progress } from './observed.ts';

/** A message the log holds, or a note (the Inspector's own word on an entry). */
type Seen = { at: number; dir: Direction; msg: JsonRpcMessage } | { at: number; note: string };

const OTHER: Record<Direction, Direction> = { c2s: 's2c', s2c: 'c2s' };

/** Whether a parsed value looks like an Inspector export: an array whose first entry has a timestamp, a direction and a message. */
export function isInspectorLog(value: unknown): boolean {
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  return isObject(first) && typeof first.direction === 'string' && isObject(first.message) && 'timestamp' in first;
}

function entryFrames(e: Record<string, unknown>): Seen[] | string {
  const msg = asMessage(e.message);
  if (!msg) return 'has no "message" object';
  if (typeof e.timestamp !== 'string' || Number.isNaN(Date.parse(e.timestamp))) return 'has no ISO "timestamp"';
  if (e.direction !== 'request' && e.direction !== 'response' && e.direction !== 'notification') return `has an unknown direction ${JSON.stringify(e.direction)}`;
  const at = Date.parse(e.timestamp);
  const origin = e.origin === 'client' || e.origin === 'server' ? e.origin : e.direction === 'response' ? 'server' : 'client';
  const dir: Direction = origin === 'client' ? 'c2s' : 's2c';
  const out: Seen[] = [{ at, dir, msg }];
  const response = asMessage(e.response);
  if (response && typeof e.duration !== 'number') return 'has a "response" without a "duration"';
  const answered = at + (typeof e.duration === 'number' ? e.duration : 0);
  if (response) out.push({ at: answered, dir: OTHER[dir], msg: response });
  if (typeof e.clientError === 'string') out.push({ at: answered, note: `The Inspector refused the answer to ${msg.method ?? 'this message'}${msg.id !== undefined ? ` (id ${JSON.stringify(msg.id)})` : ''}: ${e.clientError}` });
  return out;
}

export function importInspector(value: unknown, progress?: Progress): Imported {
  if (!Array.isArray(value)) return fail('inspector', 'the file is not a JSON array of protocol entries');
  const seen: Seen[] = [];
  const tick = ticker(value.length, progress);
  for (const [i, e] of value.entries()) {
    tick(i);
    const frames = isObject(e) ? entryFrames(e) : 'is not an object';
    if (typeof frames === 'string') return failAt('inspector', { entry: i }, frames);
    seen.push(...frames);
  }
  // A folded response comes after the entries logged while it was pending: order by time (stable).
  const ordered = seen.map((s, i) => ({ s, i })).sort((a, b) => a.s.at - b.s.at || a.i - b.i);
  const out = observedTrace('inspector', { seenAt: 'client' });
  for (const { s } of ordered) {
    if ('note' in s) out.note(s.at, s.note);
    else out.frame(s.at, s.dir, `${JSON.stringify(s.msg)}\n`, s.msg);
  }
  return { ok: true, format: 'inspector', trace: out.trace() };
}
