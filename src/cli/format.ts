/**
 * The headless runner's human-readable output: one line per trace event, and the checker's
 * findings. Pure functions of the trace and findings (no I/O), so tests can read them too.
 */
import type { Finding } from '../rules/index.ts';
import { findingLabel, findingSummary, sortFindings, type FindingSetting } from '../views/index.ts';
import { DIRECTION_LABEL, type FrameEvent, type HandlerNote, type JsonRpcMessage, type TraceEvent, type UserAction } from '../trace/index.ts';

const RAW_LIMIT = 160;

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** A raw frame on one line: newlines and CRs made visible, long frames cut. */
function oneLine(raw: string): string {
  const flat = raw.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return flat.length > RAW_LIMIT ? `${flat.slice(0, RAW_LIMIT)}…` : flat;
}

/** What a JSON-RPC message is, in a few words. */
export function describeMessage(msg: JsonRpcMessage): string {
  const params = msg.params ?? {};
  if (msg.method !== undefined) {
    if (msg.id !== undefined) return `${msg.method} request id ${show(msg.id)}`;
    if (msg.method === 'notifications/cancelled') return `notifications/cancelled ${'requestId' in params ? `of id ${show(params.requestId)}` : 'without requestId'}${params.reason !== undefined ? ` (reason ${show(params.reason)})` : ''}`;
    if (msg.method === 'notifications/progress') {
      return `notifications/progress token ${show(params.progressToken)} ${show(params.progress)}${params.total !== undefined ? `/${show(params.total)}` : ''}`;
    }
    return msg.method;
  }
  if (msg.error !== undefined) return `error for id ${show(msg.id)} (code ${show(msg.error.code)}: ${msg.error.message})`;
  if (msg.result !== undefined) return `result for id ${show(msg.id)}`;
  return 'a JSON object that is neither request, notification nor response';
}

function describeFrame(e: FrameEvent): string {
  const parts = [`frame ${e.frame}`, DIRECTION_LABEL[e.dir]];
  if (e.http) {
    const h = e.http;
    const what =
      h.part === 'request'
        ? `request ${h.method ?? ''} ${h.url ? new URL(h.url).pathname + new URL(h.url).search : ''}`.trimEnd()
        : h.part === 'response-head'
          ? `response ${h.status ?? ''}${h.headers?.['content-type'] ? ` ${h.headers['content-type']}` : ''}`
          : h.part;
    parts.push(`HTTP stream ${h.stream} ${what}`);
  }
  if (e.msg) parts.push(describeMessage(e.msg));
  else if (!e.http && !e.eof) parts.push('not JSON');
  if (e.eof) parts.push('end of stream');
  const flags: string[] = [];
  if (e.injected) flags.push('forged');
  if (e.fault) flags.push(e.fault);
  if (e.deliverAt === null) flags.push('never delivered');
  else flags.push(`due ${e.deliverAt} ms`);
  if (e.connection > 0) flags.push(`connection ${e.connection}`);
  return `${parts.join('  ')}  [${flags.join(', ')}]  ${oneLine(e.raw)}`;
}

function describeAction(a: UserAction): string {
  switch (a.type) {
    case 'call': {
      const options = [
        a.timeoutMs !== undefined ? `timeout ${a.timeoutMs} ms` : '',
        a.resetTimeoutOnProgress ? 'reset on progress' : '',
        a.maxTotalTimeoutMs !== undefined ? `max total ${a.maxTotalTimeoutMs} ms` : '',
        a.stop === 'before-call' ? 'signal already aborted' : a.stop === 'same-tick' ? 'Stop in the same tick' : '',
        a.task ? `as a task${a.task.ttlMs !== undefined ? `, ttl ${a.task.ttlMs} ms` : ''}` : '',
      ].filter(Boolean);
      return `call ${a.call}: ${a.tool} ${show(a.args)}${options.length ? ` (${options.join(', ')})` : ''}`;
    }
    case 'stop':
      return `Stop ${a.call}`;
    case 'cancel-task':
      return `tasks/cancel for call ${a.call}'s task`;
    case 'inject-response':
    case 'inject-cancel': {
      const target = a.call !== undefined ? `call ${a.call}` : a.initialize ? 'initialize' : `id ${show(a.requestId)}`;
      return a.type === 'inject-response'
        ? `forge a ${a.outcome} for ${target}${a.to === 'server' ? ' to the server' : ''}`
        : `forge a cancel for ${target}${a.reason !== undefined ? ` (reason ${show(a.reason)})` : ''}`;
    }
    case 'inject-progress':
      return `forge progress for call ${a.call}${a.onStreamOf !== undefined ? ` on call ${a.onStreamOf}'s stream` : ''}`;
    case 'inject':
      return `forge a message ${DIRECTION_LABEL[a.dir]}: ${show(a.message)}`;
    case 'hold':
    case 'release':
      return `${a.type} ${DIRECTION_LABEL[a.dir]}`;
    case 'disconnect':
      return 'disconnect the client';
    case 'ping':
      return 'ping the server';
    case 'crash-server':
      return 'crash the server';
    case 'reconnect':
      return 'restart the server and reconnect';
    case 'close-stream':
      return `the server closes call ${a.call}'s SSE stream`;
    case 'expire-session':
      return `the server forgets the session${a.outageMs !== undefined ? ` (404 to everything for ${a.outageMs} ms)` : ''}`;
  }
}

function describeNote(note: HandlerNote): string {
  const { type, ...rest } = note;
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : show(v)}`)
    .join(' ');
  return fields ? `${type} ${fields}` : type;
}

export function formatEvent(e: TraceEvent): string {
  switch (e.kind) {
    case 'frame':
      return describeFrame(e);
    case 'delivery':
      return e.dropped !== undefined
        ? `frame ${e.frame} reached nobody: ${e.dropped}`
        : `frame ${e.frame} delivered to the ${e.dir === 'c2s' ? 'server' : 'client'}`;
    case 'user-action':
      return `user: ${describeAction(e.action)}`;
    case 'handler':
      return `${e.side}: ${describeNote(e.note)}`;
    case 'client-state':
      return `call ${e.call}${e.requestId !== null ? ` (id ${show(e.requestId)})` : ''}: ${e.from ?? '∅'} → ${e.to} (${e.because})`;
    case 'server-state':
      return `request ${show(e.requestId)} on the server: ${e.from ?? '∅'} → ${e.to} (${e.because})`;
    case 'connection':
      return `connection ${e.event}${e.stream !== undefined ? ` stream ${e.stream}` : ''}${e.by ? ` by the ${e.by}` : ''}: ${e.detail}`;
    case 'error':
      return `ENGINE ERROR: ${e.message}`;
    case 'observed':
      return e.what === 'source' ? e.text : `log: ${e.text}`;
    default:
      return describeOther(e);
  }
}

/** A kind of event this formatter does not know yet (the trace may grow new kinds): its fields. */
function describeOther(event: unknown): string {
  const fields = Object.fromEntries(Object.entries(event as Record<string, unknown>).filter(([k]) => k !== 'seq' && k !== 't' && k !== 'kind'));
  const kind = String((event as { kind?: unknown }).kind);
  const { from, to, because } = fields;
  if (typeof to === 'string') return `${kind}: ${typeof from === 'string' ? from : '∅'} → ${to}${typeof because === 'string' ? ` (${because})` : ''}`;
  return `${kind} ${show(fields)}`;
}

/** The trace, one line per event: sequence number, virtual time, what happened. */
export function formatTrace(trace: readonly TraceEvent[]): string[] {
  const seqWidth = String(Math.max(0, trace.length - 1)).length;
  const tWidth = String(trace.at(-1)?.t ?? 0).length;
  const indent = ' '.repeat(seqWidth + tWidth + 8);
  // A multi-line note (a traceback on stderr) keeps its lines, indented under the event.
  return trace.map((e) => `#${String(e.seq).padEnd(seqWidth)}  ${String(e.t).padStart(tWidth)} ms  ${formatEvent(e).replace(/\r?\n/g, `\n${indent}`)}`);
}

function formatFinding(f: Finding, setting: FindingSetting): string {
  const witnesses = f.witnesses.length ? ` [events ${f.witnesses.map((w) => `#${w}`).join(' ')}]` : '';
  return `  ${findingLabel(f, setting).padEnd(LABEL_WIDTH)} ${f.rule}: ${f.why}${witnesses}`;
}

/** The longest label ("SHOULD not followed"), so the rules line up. */
const LABEL_WIDTH = 19;

/**
 * The findings: a one-line count, then the notable ones (violations and allowed races), or all
 * of them with `all`, errors first (see src/views/findings.ts).
 */
export function formatFindings(findings: readonly Finding[], setting: FindingSetting, all = false): string[] {
  const summary = findingSummary(findings, setting);
  const shown = all ? sortFindings(findings, setting) : summary.notable;
  return [`Findings (${summary.total}): ${summary.text}`, ...shown.map((f) => formatFinding(f, setting))];
}
