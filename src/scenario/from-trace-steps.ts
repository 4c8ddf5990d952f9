/**
 * The steps of a scenario made from a trace observed outside the lab (from-trace.ts): what the
 * client did (its tools/call requests, Stops, timeouts, pings), what the server's tools must
 * do to answer as the log shows (a lab tool for each call), and forged frames (`inject…`
 * steps) for the messages no profile writes by itself. Every guess is said in a note.
 */
import { forgedMessageProblem, idKey, isObject, plural, type FrameEvent, type IndexedCancel, type IndexedRequest, type IndexedResponse, type JsonRpcMessage, type TraceIndex, type UserAction } from '../trace/index.ts';
import { ASK_CAPABILITY, type ClientHandler, type ClientHandlers, type HandledCapability } from './reverse.ts';
import type { ClientProfile, ServerProfile } from './model.ts';
import type { Step } from './schema.ts';
import { validateToolArgs } from './tools.ts';
import type { OwnAnswer } from './from-trace-timing.ts';

export interface Observed {
  steps: Step[];
  notes: string[];
  /** A client cancel of `initialize` after this long (ms): the TypeScript SDK v1's connect timeout. */
  connectTimeoutMs?: number;
  /** The answers the run's own server writes, and when (from-trace-timing.ts gives them their times). */
  own: OwnAnswer[];
  /** The cancels the run's own client writes (for a Stop, a timeout, a connect timeout), in the order written. */
  sent: IndexedCancel[];
}

/** A cancel's reason says the SDK's request timeout sent it, not a Stop. */
const TIMEOUT_REASON = /timed? ?out/i;

/** The client and server messages the lab's own sides write in every run: the handshake. */
const HANDSHAKE = new Set(['initialize', 'notifications/initialized']);

interface Context {
  idx: TraceIndex;
  c2s: number;
  s2c: number;
  /** The log was taken at the client: a server frame's time is its arrival there. */
  atClient: boolean;
  /** A duration past the run's end: a handler that must not answer within it. */
  long: number;
  steps: Step[];
  notes: string[];
  /** The messages some step (or the lab's sides by themselves) accounts for. */
  explained: Set<JsonRpcMessage>;
  /** The client's requests too large to forge: the run's server never answers them. */
  unsent: Set<JsonRpcMessage>;
  own: OwnAnswer[];
  sent: IndexedCancel[];
  /** The server's profile: what it writes by itself for a cancelled request. */
  server: ServerProfile;
  /** The setting takes streams steps (streams.ts): the real v2 server over sessionful Streamable HTTP. */
  streams: boolean;
}

const step = (at: number, action: UserAction): Step => ({ at: Math.max(0, Math.round(at)), action });

/** When a frame was written: the log's time, less the way back for a server frame the client stamped as it arrived. */
function writtenAt(ctx: Context, frame: FrameEvent): number {
  return frame.t - (ctx.atClient && frame.dir === 's2c' ? ctx.s2c : 0);
}

function label(req: IndexedRequest): string {
  const name = isObject(req.msg.params) && typeof req.msg.params.name === 'string' ? req.msg.params.name : '?';
  return `tools/call ${name} (id ${idKey(req.id)})`;
}

function isError(r: IndexedResponse): boolean {
  return r.msg.error !== undefined;
}

/** The Go SDK's answer to a request whose handler stopped on its cancel (profiles.ts): an isError result "context canceled". */
function isContextCanceled(r: IndexedResponse): boolean {
  const result = r.msg.result;
  if (!isObject(result) || result.isError !== true || !Array.isArray(result.content)) return false;
  const first: unknown = result.content[0];
  return isObject(first) && first.text === 'context canceled';
}

/** A response written after the request's first cancel. */
function afterCancel(req: IndexedRequest, r: IndexedResponse): boolean {
  const cancel = req.cancels[0];
  return cancel !== undefined && r.frame.t >= cancel.frame.t;
}

/**
 * The server profile its answers to cancelled requests show: python-sdk 1.x's code-0 error, or
 * the Go SDK's "context canceled" result. A plain result after a cancel shows no profile: any
 * server whose answer crossed the cancel on the wire writes one, so it is forged instead.
 */
export function serverFingerprint(idx: TraceIndex): ServerProfile | undefined {
  const answered = idx.requests.flatMap((req) => req.responses.filter((r) => afterCancel(req, r)));
  if (answered.some((r) => r.msg.error?.code === 0)) return 'py-v1';
  if (answered.some(isContextCanceled)) return 'go';
  return undefined;
}

/**
 * The lab tool that answers a call the way the log shows: the call's own tool when the lab has
 * it with these arguments; progress → slow_count at the step the log shows; a result before
 * any cancel reached the server → stubborn for that long; else work, which stops at a cancel
 * and answers past the run's end (a forged frame or the profile writes what the log shows).
 */
function toolFor(ctx: Context, req: IndexedRequest, first: IndexedResponse | undefined, cancelAt: number | undefined): { tool: string; args: Record<string, unknown>; why: string } {
  const params = isObject(req.msg.params) ? req.msg.params : {};
  const name = typeof params.name === 'string' ? params.name : '';
  const args = isObject(params.arguments) ? params.arguments : {};
  if (validateToolArgs(name, args).ok) return { tool: name, args, why: 'the lab has this tool' };
  if (ctx.server === 'go' && first && isContextCanceled(first)) return { tool: 'work', args: { ms: ctx.long, onCancel: 'observe' }, why: 'it stopped on its cancel, and the Go SDK still writes its answer' };
  const progress = ctx.idx.progressByOwner.get(req) ?? [];
  const started = req.frame.t + ctx.c2s;
  const firstProgress = progress[0];
  if (firstProgress) {
    const totals = progress.map((p) => (isObject(p.msg.params) && typeof p.msg.params.total === 'number' ? p.msg.params.total : 0));
    const steps = Math.min(10_000, Math.max(1, progress.length + (first ? 0 : 1), ...totals.map(Math.round)));
    const stepMs = Math.max(0, Math.round(writtenAt(ctx, firstProgress.frame) - started));
    return { tool: 'slow_count', args: { steps, stepMs }, why: `${progress.length} progress notifications, the first ${stepMs} ms after the request arrived` };
  }
  if (first && !isError(first) && (cancelAt === undefined || writtenAt(ctx, first.frame) <= cancelAt + ctx.c2s)) {
    const ms = Math.max(0, Math.round(writtenAt(ctx, first.frame) - started));
    return { tool: 'stubborn', args: { ms }, why: `answered ${ms} ms after the request arrived` };
  }
  const why = !first ? 'never answered in the log' : cancelAt !== undefined && first.frame.t > cancelAt ? 'answered after its cancel, which no profile does: that answer is forged' : 'its error is forged';
  return { tool: 'work', args: { ms: ctx.long, onCancel: 'observe' }, why };
}

/** Whether a server frame carries the request's answer or progress. */
function carries(ctx: Context, frame: FrameEvent, req: IndexedRequest): boolean {
  const entry = ctx.idx.byFrame.get(frame.frame);
  return entry !== undefined && (entry.responses.some((r) => r.req === req) || entry.progress.some((p) => p.owner === req));
}

/**
 * The call's SSE streams the server closed before its answer (`close-stream`): each ended with
 * no abort by the client, and the answer came later on another stream (the client resumed).
 */
function closedStreams(ctx: Context, req: IndexedRequest, call: string): void {
  const answer = req.responses[0];
  if (!ctx.streams || !answer) return;
  for (const s of ctx.idx.streams.values()) {
    if (!s.end || s.aborts.length > 0 || s.end.t >= answer.frame.t || s.s2c.includes(answer.frame)) continue;
    if (s.req !== req && !s.s2c.some((f) => carries(ctx, f, req))) continue;
    ctx.steps.push(step(s.end.t, { type: 'close-stream', call }));
    ctx.notes.push(`The server closed a stream of call ${call} at ${Math.round(s.end.t)} ms before its answer, which came on a resumed stream: a close-stream step.`);
  }
}

/** The client's calls, each with its Stop or timeout, and forged frames for its extra cancels and answers. */
function calls(ctx: Context): void {
  let n = 0;
  for (const req of ctx.idx.requests) {
    if (req.dir !== 'c2s' || req.method !== 'tools/call') continue;
    const call = `#${++n}`;
    ctx.explained.add(req.msg);
    // A cancel the recorder forged itself (the probe's, marked `injected`) is forged again: no Stop sent it.
    const [cancel, ...again] = req.cancels.filter((c) => c.frame.injected !== true);
    const recorders = req.cancels.filter((c) => c.frame.injected === true);
    const abort = req.aborts[0];
    const stopAt = cancel ? (abort ? Math.min(cancel.frame.t, abort.frame.t) : cancel.frame.t) : abort?.frame.t;
    const timeout = cancel !== undefined && TIMEOUT_REASON.test(String(isObject(cancel.msg.params) ? cancel.msg.params.reason : ''));
    const [first, ...more] = req.responses;
    const tool = toolFor(ctx, req, first, stopAt);
    const timing = timeout && stopAt !== undefined ? { timeoutMs: Math.max(0, Math.round(stopAt - req.frame.t)) } : {};
    ctx.steps.push(step(req.frame.t, { type: 'call', call, tool: tool.tool, args: tool.args, ...timing }));
    ctx.notes.push(`${label(req)} → call ${call}: ${tool.tool} ${JSON.stringify(tool.args)} (${tool.why}).`);
    if (stopAt !== undefined && !timeout) ctx.steps.push(step(stopAt, { type: 'stop', call }));
    closedStreams(ctx, req, call);
    if (timeout) ctx.notes.push(`Call ${call}'s cancel gives a timeout as its reason: the call times out after ${timing.timeoutMs ?? 0} ms instead of a Stop.`);
    if (cancel) {
      ctx.explained.add(cancel.msg);
      ctx.sent.push(cancel);
    }
    for (const c of [...again, ...recorders]) {
      ctx.steps.push(step(c.frame.t, { type: 'inject-cancel', call }));
      ctx.explained.add(c.msg);
    }
    if (first) {
      const timed = tool.tool !== 'work';
      const produced = timed || (ctx.server === 'py-v1' && first.msg.error?.code === 0) || (ctx.server === 'go' && isContextCanceled(first));
      if (!produced) ctx.steps.push(step(writtenAt(ctx, first.frame), { type: 'inject-response', outcome: isError(first) ? 'error' : 'result', call }));
      // The tool times its own answer; a profile's answer to the cancel comes as the cancel arrives.
      else if (timed) ctx.own.push({ res: first, ...(cancel && !timeout && !req.frame.http && stopAt !== undefined && { stopAt }) });
      else if (stopAt !== undefined) ctx.own.push({ res: first, due: stopAt + ctx.c2s, ...(cancel && { cancel }) });
      ctx.explained.add(first.msg);
    }
    for (const r of more) {
      ctx.steps.push(step(writtenAt(ctx, r.frame), { type: 'inject-response', outcome: isError(r) ? 'error' : 'result', call }));
      ctx.explained.add(r.msg);
    }
    for (const p of ctx.idx.progressByOwner.get(req) ?? []) if (tool.tool === 'slow_count') ctx.explained.add(p.msg);
  }
}

/** The reasons python-sdk 2.x's client gives its cancels (profiles.ts): "caller cancelled" for a Stop, "timed out after 0.5s" for a timeout. */
const PY_V2_REASON = /^(caller cancelled|timed out after \d+(\.\d+)?s)$/;

/** The first HTTP 404 the server gave a request that named a session: the session expired. */
function expiredAt(idx: TraceIndex): { t: number; session: string } | undefined {
  for (const s of idx.streams.values()) {
    const session = s.open?.http?.headers?.['mcp-session-id'];
    if (s.open && s.head?.http?.status === 404 && session !== undefined) return { t: s.open.t, session };
  }
  return undefined;
}

/**
 * The client profile a log shows: python-sdk 2.x's cancels give reasons of their own; a client
 * that re-initializes after an HTTP 404 is the strict host (the real v2 client does not by itself).
 */
export function clientFingerprint(idx: TraceIndex): ClientProfile | undefined {
  if (idx.cancels.some((c) => c.dir === 'c2s' && PY_V2_REASON.test(String(isObject(c.msg.params) ? c.msg.params.reason : '')))) return 'py-v2';
  const expired = expiredAt(idx);
  if (expired && idx.requests.some((r) => r.dir === 'c2s' && r.method === 'initialize' && r.frame.t >= expired.t)) return 'strict-host';
  return undefined;
}

/**
 * A 404 to a request naming a session: the server forgot it (`expire-session`) when it ended the
 * session's GET stream, or else as that request left the client; bare 404s (no JSON-RPC body)
 * from then on are an outage that lasts until the last of them has arrived.
 */
function expiredSession(ctx: Context): void {
  const found = ctx.streams ? expiredAt(ctx.idx) : undefined;
  if (!found) return;
  const streams = [...ctx.idx.streams.values()];
  // Forgetting the session ends its standalone GET stream: when one ended first, the session expired then.
  const getEnded = streams.filter((s) => s.open?.http?.method === 'GET' && s.open.http.headers?.['mcp-session-id'] === found.session && s.aborts.length === 0 && s.end !== undefined && s.end.t <= found.t);
  const ends = getEnded.flatMap((s) => (s.end ? [s.end.t] : []));
  const at = ends.length > 0 ? Math.max(...ends) : found.t;
  const bare = streams.filter((s) => s.open && s.head?.http?.status === 404 && s.open.t >= at && !s.s2c.some((f) => f.msg !== null));
  const last = bare.at(-1)?.open?.t;
  // The outage covers the last bare 404's request as it arrives.
  const outageMs = last !== undefined ? Math.round(last + ctx.c2s - at) + 1 : undefined;
  ctx.steps.push(step(at, { type: 'expire-session', ...(outageMs !== undefined && { outageMs }) }));
  ctx.notes.push(`The server answers a request naming session ${found.session} with HTTP 404 at ${Math.round(found.t)} ms: the session expired at ${Math.round(at)} ms (an expire-session step)${outageMs !== undefined ? `, and bare 404s follow for ${outageMs} ms (an outage)` : ''}.`);
}

/** The first cancel of `initialize` that gives a timeout as its reason: the TypeScript SDK v1 client's connect timeout. */
function connectTimeoutCancel(idx: TraceIndex): IndexedCancel | undefined {
  return idx.cancels.find((c) => c.dir === 'c2s' && c.target?.method === 'initialize' && TIMEOUT_REASON.test(String(isObject(c.msg.params) ? c.msg.params.reason : '')));
}

/** How long the client gave `connect` before it cancelled initialize, when it did. */
export function connectTimeoutOf(idx: TraceIndex): number | undefined {
  const c = connectTimeoutCancel(idx);
  return c?.target ? Math.round(c.frame.t - c.target.frame.t) : undefined;
}

/** Cancels of `initialize`, of ids never issued, and responses to ids never issued. */
function strays(ctx: Context): number | undefined {
  const timeout = connectTimeoutCancel(ctx.idx);
  const connectTimeoutMs = connectTimeoutOf(ctx.idx);
  if (timeout) {
    ctx.explained.add(timeout.msg);
    ctx.sent.push(timeout);
    ctx.notes.push(`The client cancels initialize after ${connectTimeoutMs ?? 0} ms with a timeout as its reason: the TypeScript SDK v1 client's connect timeout.`);
  }
  for (const c of ctx.idx.cancels) {
    if (c.dir !== 'c2s' || ctx.explained.has(c.msg) || !c.hasRequestId) continue;
    ctx.explained.add(c.msg);
    if (c.target?.method === 'initialize') ctx.steps.push(step(c.frame.t, { type: 'inject-cancel', initialize: true }));
    else if (typeof c.requestId === 'string' || (typeof c.requestId === 'number' && Number.isInteger(c.requestId))) ctx.steps.push(step(c.frame.t, { type: 'inject-cancel', requestId: c.requestId }));
    else ctx.explained.delete(c.msg);
  }
  for (const r of ctx.idx.orphans) {
    if (r.dir !== 's2c' || (typeof r.id !== 'string' && typeof r.id !== 'number')) continue;
    ctx.steps.push(step(writtenAt(ctx, r.frame), { type: 'inject-response', outcome: isError(r) ? 'error' : 'result', requestId: r.id }));
    ctx.explained.add(r.msg);
  }
  return connectTimeoutMs;
}

/**
 * What the lab's sides write by themselves: the handshake, the server's answers to the client's
 * other requests (pings, forged requests), the client's answers to the server's requests, and
 * python-sdk 1.x's "Internal Server Error" for an unknown id.
 */
function ownAnswers(ctx: Context): void {
  for (const req of ctx.idx.requests) {
    if (req.dir === 'c2s' && req.method === 'ping') {
      ctx.steps.push(step(req.frame.t, { type: 'ping' }));
      ctx.explained.add(req.msg);
    }
    // The server answers the client's other requests itself (forged ones too), and the client the server's.
    if (req.method !== 'tools/call' || req.dir === 's2c') for (const r of req.responses.slice(0, 1)) ctx.explained.add(r.msg);
    if (HANDSHAKE.has(req.method)) ctx.explained.add(req.msg);
  }
  for (const { msg } of ctx.idx.messages) {
    if (msg.method === 'notifications/initialized') ctx.explained.add(msg);
    if (ctx.server === 'py-v1' && msg.method === 'notifications/message' && JSON.stringify(msg.params ?? {}).includes('Internal Server Error')) ctx.explained.add(msg);
  }
}

/**
 * Every other message, forged as it is (`inject`); a request the client forges gets an id of
 * its own ("imported-…"), so the SDK's counter never answers it for a call of its own.
 */
function forged(ctx: Context): void {
  let skipped = 0;
  for (const { frame, msg } of ctx.idx.messages) {
    if (ctx.explained.has(msg)) continue;
    // The server answers a request the client forges by itself, as any server would.
    const message: unknown = frame.dir === 'c2s' && typeof msg.method === 'string' && msg.id !== undefined && !msg.method.startsWith('notifications/') ? { ...msg, id: `imported-${String(msg.id)}` } : msg;
    if (frame.dir === 'c2s' && msg.method === undefined) continue;
    // An HTTP error body with no id (a 405 to a GET, a 400) is the transport's own answer.
    if (frame.http && msg.method === undefined && msg.error !== undefined && (msg.id === undefined || msg.id === null)) continue;
    if (forgedMessageProblem(message) !== null) {
      ctx.unsent.add(msg);
      skipped++;
      continue;
    }
    ctx.steps.push(step(writtenAt(ctx, frame), { type: 'inject', dir: frame.dir, message }));
  }
  if (skipped > 0) ctx.notes.push(`${plural(skipped, 'message')} ${skipped === 1 ? 'is' : 'are'} too large to forge and ${skipped === 1 ? 'was' : 'were'} left out.`);
  const texts = ctx.idx.frames.filter((f) => !f.http && f.msg === null && !f.eof && ctx.idx.byFrame.get(f.frame)?.batch === undefined).length;
  if (texts > 0) ctx.notes.push(`${plural(texts, 'line')} that ${texts === 1 ? 'is' : 'are'} not JSON cannot be forged (a forged frame is a JSON value): the run has no frame for ${texts === 1 ? 'it' : 'them'}.`);
}

/**
 * The server's answers to the client's other requests, which it writes as each arrives (the
 * handshake's, pings, forged requests): initialize's own time is the startup's (from-trace-timing.ts).
 */
function answersAtOnce(ctx: Context): void {
  for (const req of ctx.idx.requests) {
    const res = req.responses[0];
    if (req.dir !== 'c2s' || req.method === 'tools/call' || !res || ctx.unsent.has(req.msg)) continue;
    ctx.own.push(req.method === 'initialize' ? { res } : { res, due: req.frame.t + ctx.c2s });
  }
}

export function observedSteps(idx: TraceIndex, latency: { c2s: number; s2c: number }, endAt: number, setting: { server: ServerProfile; streams: boolean; atClient: boolean }): Observed {
  const ctx: Context = { idx, ...latency, long: endAt + 60_000, steps: [], notes: [], explained: new Set(), unsent: new Set(), own: [], sent: [], ...setting };
  expiredSession(ctx);
  calls(ctx);
  const connectTimeoutMs = strays(ctx);
  ownAnswers(ctx);
  forged(ctx);
  answersAtOnce(ctx);
  // Stable by time: steps at one time keep the log's order, which is the order the lab takes them in.
  const steps = ctx.steps.map((s, i) => ({ s, i })).sort((a, b) => a.s.at - b.s.at || a.i - b.i).map(({ s }) => s);
  const sent = [...ctx.sent].sort((a, b) => a.frame.frame - b.frame.frame);
  return { steps, notes: ctx.notes, own: ctx.own, sent, ...(connectTimeoutMs !== undefined && { connectTimeoutMs }) };
}

/** A request the server may send the client (ask_client's): elicitation, sampling, roots or ping. */
export function isAsk(method: string): method is keyof typeof ASK_CAPABILITY {
  return Object.hasOwn(ASK_CAPABILITY, method);
}

/**
 * The client's handlers of the server's requests (elicitation, sampling, roots), from how long the
 * log's client took to answer the first of each: a handler that answered after the server
 * cancelled it ignored the cancel; one never answered runs past the run's end.
 */
export function observedClientHandlers(idx: TraceIndex, s2c: number, endAt: number): { handlers: ClientHandlers | undefined; notes: string[] } {
  const handlers: Partial<Record<HandledCapability, ClientHandler>> = {};
  const notes: string[] = [];
  for (const req of idx.requests) {
    if (req.dir !== 's2c' || !isAsk(req.method)) continue;
    const capability = ASK_CAPABILITY[req.method];
    if (capability === null || handlers[capability]) continue;
    const answer = req.responses[0];
    const cancel = req.cancels[0];
    const ms = answer ? Math.max(0, Math.round(answer.frame.t - req.frame.t - s2c)) : endAt + 60_000;
    handlers[capability] = { ms, onCancel: answer && cancel && cancel.frame.t < answer.frame.t ? 'ignore' : 'observe' };
    notes.push(`The client's ${capability} handler ${answer ? `answers ${ms} ms after the server's ${req.method} arrives` : 'never answers'}${handlers[capability]?.onCancel === 'ignore' ? ', past the server’s cancel' : ''}.`);
  }
  return { handlers: Object.keys(handlers).length > 0 ? handlers : undefined, notes };
}
