/**
 * The trace as a Mermaid `sequenceDiagram`: what crossed the wire between the client and the
 * server, in the order it was written, with the user's actions and what went wrong as notes.
 * Pure and headless (no DOM, no Mermaid): the same trace gives the same text, live or replayed.
 *
 * What becomes what:
 *   - each frame is an arrow from its writer to its reader, placed when it was written, with
 *     its write time as `(t=…)`: requests and notifications solid (`->>`), responses and HTTP
 *     response framing dashed (`-->>`); on HTTP every label starts with its stream (`[#3]`).
 *     All streams share the two lanes: one lane per stream would multiply participants by the
 *     number of POSTs and stop being readable after a few calls;
 *   - HTTP framing: a response head is one short arrow (`[#2] 200 OK, SSE`), a response end is
 *     left out (the next request on that stream cannot come anyway), a client's abort is a cross
 *     (`Client-xServer: [#3] stream closed (cancel)`);
 *   - a frame a wire fault touched says so: `[dropped]`, `[held]`, `[delayed: arrives t=…]`,
 *     and the wire's extra copy of a duplicated frame starts with `⚠ duplicate`;
 *   - user actions (Call, Stop, inject, …) are notes over the client with their time; an
 *     injected frame's label starts with `⚠ injected`;
 *   - a response for a call that reaches the client after that call's Stop gets a note where it
 *     arrives ("late: … arrived at t=360, after Stop A at t=100"): Mermaid draws every message
 *     flat, so the crossing is said in words at the moment of delivery;
 *   - the server's half of the race is a note each when a handler reaches `cancellation seen`
 *     or `response suppressed` / `result undeliverable` (the response that is *not* on the wire);
 *   - connection milestones, ledger commits, frames dropped by a side, and engine errors are
 *     notes; findings from the checker are notes placed after their latest witness.
 * Readability: consecutive `notifications/progress` arrows for the same token (same stream,
 * nothing in between) collapse into one ("notifications/progress ×N (1..N of T)"), and with
 * `maxMessages` only the newest messages are kept, after a note "… N earlier messages".
 * All text from the trace goes through `mermaidText` (see mermaid-text.ts).
 */
import { STATUS_TEXT, frameEntry, indexTrace, type FrameEvent, type JsonRpcMessage, type TraceEvent, type Target, type TraceIndex, type UserAction } from '../trace/index.ts';
import { clip, mermaidText } from './mermaid-text.ts';

/**
 * A finding from the checker. `witnesses` are trace positions (`seq`) of the events that show
 * it; its note goes right after the diagram row of the latest one.
 */
export interface DiagramFinding {
  witnesses: readonly number[];
  rule: string;
  severity: string;
}

export interface SequenceDiagramOptions {
  /** Keep only this many newest messages (arrows); no limit when absent. */
  maxMessages?: number;
  findings?: readonly DiagramFinding[];
}

type Lane = 'Client' | 'Server';
type Arrow = '->>' | '-->>' | '-x';

interface ProgressRun {
  /** Frames that may collapse together share a key: connection, direction, stream, token. */
  key: string;
  prefix: string;
  count: number;
  first: string;
  last: string;
  total: string | null;
  t0: number;
  t1: number;
}

type Row =
  | { kind: 'message'; at: number; from: Lane; to: Lane; arrow: Arrow; text: string; progress?: ProgressRun }
  | { kind: 'note'; at: number; over: string; text: string };

/** Lengths past which untrusted parts of a label are cut. */
const MAX = { method: 60, args: 100, value: 40, message: 60, raw: 40, path: 40, detail: 80, rule: 80 } as const;

/** Connection events worth a note (stream and session bookkeeping is already in the arrows). */
const NOTED_CONNECTION_EVENTS = new Set<string>(['connected', 'disconnected', 'crashed', 'reconnecting', 'session-expired']);

/** The server's half of the race: the handler heard the cancel; it finished and nothing was sent. */
const NOTED_HANDLER_STATES = new Set<string>(['cancellation seen', 'response suppressed', 'result undeliverable']);

const SEVERITY_MARK: Record<string, string> = { error: '✖', warning: '⚠', info: 'ℹ' };

export function sequenceDiagram(trace: readonly TraceEvent[], opts: SequenceDiagramOptions = {}): string {
  let rows = collapseProgress(buildRows(trace));
  let droppedMessages = 0;
  if (opts.maxMessages !== undefined) ({ rows, droppedMessages } = keepNewest(rows, opts.maxMessages));
  const lines = ['sequenceDiagram', '  accTitle: MCP messages between client and server', '  participant Client', '  participant Server'];
  if (droppedMessages > 0) lines.push(note('Client,Server', `… ${droppedMessages} earlier messages`));
  const findingsAfter = placeFindings(rows, opts.findings ?? []);
  for (const f of findingsAfter.get(-1) ?? []) lines.push(findingNote(f));
  rows.forEach((row, i) => {
    lines.push(renderRow(row));
    for (const f of findingsAfter.get(i) ?? []) lines.push(findingNote(f));
  });
  return lines.join('\n') + '\n';
}

function note(over: string, text: string): string {
  return `  Note over ${over}: ${nonEmpty(mermaidText(text))}`;
}

function nonEmpty(text: string): string {
  return text === '' ? '(empty)' : text;
}

function renderRow(row: Row): string {
  if (row.kind === 'note') return note(row.over, row.text);
  const text = row.progress ? progressLabel(row.progress) : row.text;
  return `  ${row.from}${row.arrow}${row.to}: ${nonEmpty(mermaidText(text))}`;
}

function findingNote(f: DiagramFinding): string {
  const mark = SEVERITY_MARK[f.severity];
  return note('Client,Server', `${mark ? `${mark} ` : ''}${clip(f.severity, 20)}: ${clip(f.rule, MAX.rule)}`);
}

function progressLabel(p: ProgressRun): string {
  const of = p.total === null ? '' : ` of ${p.total}`;
  if (p.count === 1) return `${p.prefix}notifications/progress ${p.first}${p.total === null ? '' : `/${p.total}`} (t=${p.t0})`;
  return `${p.prefix}notifications/progress ×${p.count} (${p.first}..${p.last}${of}) (t=${p.t0}..${p.t1})`;
}

function idText(id: unknown): string {
  return id === undefined ? '?' : clip(JSON.stringify(id) ?? String(id), MAX.value);
}

/**
 * What the pass over the trace knows so far: the trace index (what each response answers,
 * which call a request carries, which request a stream's abort closes — per connection, since
 * request ids start again on each) and each call's first Stop up to the current event.
 */
interface Seen {
  index: TraceIndex;
  /** call → time of its first Stop. */
  stops: Map<string, number>;
}

/** The call a response frame answers, when it answers a call's tools/call. */
function answeredCall(seen: Seen, frame: number): { call: string; what: string } | undefined {
  const resp = frameEntry(seen.index, frame)?.responses[0];
  const call = resp?.req?.call;
  if (!resp || call === undefined) return undefined;
  return { call, what: `${resp.msg.error !== undefined ? 'error' : 'result'} id=${idText(resp.msg.id)}` };
}

/** What one trace reads as, before it is drawn: every arrow and note in trace order. */
function buildRows(trace: readonly TraceEvent[]): Row[] {
  const rows: Row[] = [];
  const seen: Seen = { index: indexTrace(trace), stops: new Map() };
  const stops = seen.stops;
  for (const e of trace) {
    switch (e.kind) {
      case 'frame': {
        const row = frameRow(e, seen);
        if (row) rows.push(row);
        break;
      }
      case 'delivery': {
        const response = e.dir === 's2c' && e.dropped === undefined ? answeredCall(seen, e.frame) : undefined;
        const stoppedAt = response && stops.get(response.call);
        if (response && stoppedAt !== undefined) {
          rows.push({ kind: 'note', at: e.seq, over: 'Client', text: `late: ${response.what} arrived at t=${e.t}, after Stop ${response.call} at t=${stoppedAt}` });
        }
        break;
      }
      case 'user-action': {
        const action = e.action;
        if (action.type === 'stop' && !stops.has(action.call)) stops.set(action.call, e.t);
        rows.push({ kind: 'note', at: e.seq, over: 'Client', text: `t=${e.t} ${describeAction(action)}` });
        break;
      }
      case 'handler': {
        const n = e.note;
        if (n.type === 'ledger-commit') {
          rows.push({ kind: 'note', at: e.seq, over: 'Server', text: `t=${e.t} ledger commit ${clip(n.key, MAX.value)}=${clip(n.value, MAX.value)}` });
        } else if (n.type === 'frame-dropped') {
          const lane = e.side === 'client' ? 'Client' : 'Server';
          rows.push({ kind: 'note', at: e.seq, over: lane, text: `t=${e.t} [#${n.stream}] frame dropped: ${clip(n.reason, MAX.detail)}` });
        }
        break;
      }
      case 'server-state':
        if (e.from !== e.to && NOTED_HANDLER_STATES.has(e.to)) {
          rows.push({ kind: 'note', at: e.seq, over: 'Server', text: `t=${e.t} handler id=${idText(e.requestId)} → ${e.to}` });
        }
        break;
      case 'connection':
        if (NOTED_CONNECTION_EVENTS.has(e.event)) {
          rows.push({ kind: 'note', at: e.seq, over: 'Client,Server', text: `t=${e.t} ${e.event}: ${clip(e.detail, MAX.detail)}` });
        }
        break;
      case 'error':
        rows.push({ kind: 'note', at: e.seq, over: 'Client,Server', text: `t=${e.t} engine error: ${clip(e.message, MAX.detail)}` });
        break;
      default:
        break;
    }
  }
  return rows;
}

function frameRow(e: FrameEvent, seen: Seen): Row | null {
  const from: Lane = e.dir === 'c2s' ? 'Client' : 'Server';
  const to: Lane = e.dir === 'c2s' ? 'Server' : 'Client';
  const http = e.http;
  const faulted = e.fault;
  // The wire's copy of a duplicated frame is marked forged by the engine: call it a duplicate.
  const duplicate = faulted === 'duplicated';
  let fault = '';
  if (faulted === 'delayed' && typeof e.deliverAt === 'number') fault = ` [delayed: arrives t=${e.deliverAt}]`;
  else if (faulted !== undefined && !duplicate) fault = ` [${clip(faulted, MAX.value)}]`;
  const prefix = (http ? `[#${http.stream}] ` : '') + (duplicate ? '⚠ duplicate ' : e.injected ? '⚠ injected ' : '');
  const time = ` (t=${e.t})${fault}`;
  const msg = e.msg;

  if (http?.part === 'end') return null;
  if (http?.part === 'abort') {
    const call = frameEntry(seen.index, e.frame)?.abort?.target?.call;
    const why = call !== undefined && seen.stops.has(call) ? 'cancel' : `by ${from.toLowerCase()}`;
    return { kind: 'message', at: e.seq, from, to, arrow: '-x', text: `${prefix}stream closed (${why})${time}` };
  }
  if (e.eof === true) return { kind: 'message', at: e.seq, from, to, arrow: '-x', text: `${prefix}end of stream (EOF)${time}` };
  if (http?.part === 'response-head') {
    const status = http.status ?? 0;
    const type = contentKind(http.headers?.['content-type']);
    const reason = STATUS_TEXT[status];
    return { kind: 'message', at: e.seq, from, to, arrow: '-->>', text: `${prefix}${status}${reason ? ` ${reason}` : ''}${type ? `, ${type}` : ''}${time}` };
  }
  if (msg) {
    if (msg.method === 'notifications/progress' && !e.injected && faulted === undefined) {
      const p = msg.params ?? {};
      const progress: ProgressRun = {
        key: `${e.connection}|${e.dir}|${http?.stream ?? ''}|${JSON.stringify(p.progressToken) ?? ''}`,
        prefix,
        count: 1,
        first: scalar(p.progress),
        last: scalar(p.progress),
        total: p.total === undefined ? null : scalar(p.total),
        t0: e.t,
        t1: e.t,
      };
      return { kind: 'message', at: e.seq, from, to, arrow: '->>', text: '', progress };
    }
    const answered = frameEntry(seen.index, e.frame)?.responses[0]?.req?.method;
    const what = (http?.part === 'request' ? `${http.method ?? 'POST'} ` : '') + describeMessage(msg, answered);
    return { kind: 'message', at: e.seq, from, to, arrow: msg.method === undefined ? '-->>' : '->>', text: `${prefix}${what}${time}` };
  }
  if (http?.part === 'request') {
    return { kind: 'message', at: e.seq, from, to, arrow: '->>', text: `${prefix}${http.method ?? ''} ${clip(pathOf(http.url), MAX.path)}${time}` };
  }
  if (http?.part === 'chunk') return { kind: 'message', at: e.seq, from, to, arrow: '-->>', text: `${prefix}${chunkKind(e.raw)}${time}` };
  return { kind: 'message', at: e.seq, from, to, arrow: '->>', text: `${prefix}(not JSON) ${clip(e.raw, MAX.raw)}${time}` };
}

/** A message in a few words; `answered` is the method of the request a response answers. */
function describeMessage(msg: JsonRpcMessage, answered: string | undefined): string {
  const params = msg.params ?? {};
  if (msg.method !== undefined) {
    const method = clip(msg.method, MAX.method);
    if (msg.method === 'tools/call' && typeof params.name === 'string') return `${method} ${clip(params.name, MAX.value)} id=${idText(msg.id)}`;
    if (msg.method === 'notifications/cancelled') return `${method} requestId=${idText(params.requestId)}`;
    if (msg.method === 'notifications/progress') return `${method} ${scalar(params.progress)}${params.total === undefined ? '' : `/${scalar(params.total)}`}`;
    return msg.id === undefined ? method : `${method} id=${idText(msg.id)}`;
  }
  const kind = msg.error !== undefined ? 'error' : 'result';
  let text = answered ? `${kind} of ${clip(answered, MAX.method)} id=${idText(msg.id)}` : `${kind} id=${idText(msg.id)}`;
  if (msg.error !== undefined) text += ` (${scalar(msg.error.code)} ${clip(String(msg.error.message), MAX.message)})`;
  else if (isToolError(msg.result)) text += ' (isError)';
  return text;
}

function isToolError(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}

function scalar(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? clip(String(v), MAX.value) : clip(JSON.stringify(v) ?? '?', MAX.value);
}

function contentKind(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return 'SSE';
  if (type === 'application/json') return 'JSON';
  return clip(type, MAX.value);
}

function chunkKind(raw: string): string {
  if (raw.startsWith(':')) return 'SSE comment';
  const event = /^event: ?(.*)$/m.exec(raw)?.[1];
  return event !== undefined ? `SSE event: ${clip(event, MAX.value)}` : 'body (no JSON-RPC message)';
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** A user action in a few words. */
function describeAction(action: UserAction): string {
  switch (action.type) {
    case 'call': {
      const args = Object.entries(action.args)
        .map(([k, v]) => `${clip(k, MAX.value)}=${clip(JSON.stringify(v) ?? String(v), MAX.value)}`)
        .join(', ');
      const stopped = action.stop === undefined ? '' : ` · Stop ${action.stop === 'same-tick' ? 'in the same tick' : 'before the call'}`;
      return `Call ${action.call} · ${clip(action.tool, MAX.value)}(${clip(args, MAX.args)})${stopped}`;
    }
    case 'stop':
      return `Stop ${action.call}`;
    case 'inject-response':
      return `⚠ inject ${scalar(action.outcome)} for ${targetOf(action)}`;
    case 'inject':
      return `⚠ inject ${action.dir} ${clip(JSON.stringify(action.message), MAX.message)}`;
    default: {
      const rest = Object.entries(action)
        .filter(([k]) => k !== 'type')
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${clip(k, MAX.value)}=${scalar(v)}`);
      return [clip(action.type, MAX.value), ...rest].join(' ');
    }
  }
}

function targetOf(target: Target): string {
  if (target.call !== undefined) return clip(target.call, MAX.value);
  if (target.initialize) return 'initialize';
  return `id=${idText(target.requestId)}`;
}

/** Merges runs of progress arrows with the same key and nothing between them. */
function collapseProgress(rows: Row[]): Row[] {
  const out: Row[] = [];
  for (const row of rows) {
    const prev = out.at(-1);
    if (row.kind === 'message' && row.progress && prev?.kind === 'message' && prev.progress && prev.progress.key === row.progress.key) {
      prev.progress = { ...prev.progress, count: prev.progress.count + row.progress.count, last: row.progress.last, total: row.progress.total, t1: row.progress.t1 };
      continue;
    }
    out.push(row.kind === 'message' && row.progress ? { ...row, progress: { ...row.progress } } : row);
  }
  return out;
}

/** Drops every row up to the last message that does not fit, so the newest `max` messages stay. */
function keepNewest(rows: Row[], max: number): { rows: Row[]; droppedMessages: number } {
  const limit = Math.max(0, Math.floor(max));
  const total = rows.filter((r) => r.kind === 'message').length;
  const drop = total - limit;
  if (drop <= 0) return { rows, droppedMessages: 0 };
  let seen = 0;
  let cut = 0;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]?.kind === 'message' && ++seen === drop) {
      cut = i + 1;
      break;
    }
  }
  return { rows: rows.slice(cut), droppedMessages: drop };
}

/**
 * Where each finding's note goes: after the row of its latest witness (the last row made at or
 * before that trace position); -1 is before every row (right after the "… earlier messages"
 * note when its witnesses were all dropped by `maxMessages`). A finding without witnesses goes
 * at the end.
 */
function placeFindings(rows: readonly Row[], findings: readonly DiagramFinding[]): Map<number, DiagramFinding[]> {
  const placed = new Map<number, DiagramFinding[]>();
  for (const f of findings) {
    let index = -1;
    if (f.witnesses.length === 0) index = rows.length - 1;
    for (const w of f.witnesses) index = Math.max(index, rowAt(rows, w));
    const list = placed.get(index) ?? [];
    list.push(f);
    placed.set(index, list);
  }
  return placed;
}

function rowAt(rows: readonly Row[], seq: number): number {
  let found = -1;
  for (let i = 0; i < rows.length; i++) {
    if ((rows[i]?.at ?? Number.POSITIVE_INFINITY) <= seq) found = i;
    else break;
  }
  return found;
}
