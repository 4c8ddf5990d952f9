/**
 * The coordinator: a discrete-event loop over virtual time. It owns the wire and the clock;
 * the two sides run only when it hands them an event, and only until they are quiet.
 *
 * Tie rule (several events due at the same virtual millisecond), in this order:
 *   1. timers: the client's before the server's (one timer per step, earliest first);
 *   2. frame arrivals, in the order the frames were written;
 *   3. user actions, in the order they were scheduled.
 * Timers come first because a side cannot be moved to an instant without firing the timers
 * due at it; user actions come last so that "Stop at t" sees everything the wire brought at t.
 */
import { clientRequestMachine, type ClientRequestEvent } from '../machines/index.ts';
import { serverHandlerMachine, type ServerHandlerEvent } from '../machines/index.ts';
import { stepMachine } from '../machines/index.ts';
import type { Scenario, Step, Trigger } from '../scenario/index.ts';
import type { ClientSideApi, ServerSideApi, SideConfig, StepResult, WireFrame } from './side-protocol.ts';
import { messageOf } from '../trace/index.ts';
import { Wire, type InFlight } from './wire.ts';
import { ConnectionTracker } from '../machines/index.ts';
import type {
  ClientRequestState,
  ConnectionEvent,
  Direction,
  FrameEvent,
  HandlerNote,
  JsonRpcMessage,
  NewTraceEvent,
  ServerHandlerState,
  Target,
  TraceEvent,
  UserAction,
} from '../trace/index.ts';

export interface Sides {
  client: ClientSideApi;
  server: ServerSideApi;
}

type SideName = 'client' | 'server';
type RequestId = string | number;

interface PendingAction {
  order: number;
  step: Step;
}

interface CallRecord {
  requestId: RequestId | null;
  /** The connection the call was made on: request ids start again on each connection. */
  connection: number;
  state: ClientRequestState;
}

/** What the coordinator knows of one HTTP stream, read off its frames. */
interface StreamRecord {
  open: boolean;
  contentType?: string;
  /** The JSON-RPC request the client POSTed on it, if any. */
  requestId?: RequestId;
  sessionId?: string;
}

type NextEvent =
  | { kind: 'timer'; t: number; side: SideName }
  | { kind: 'frame'; t: number; frame: InFlight }
  | { kind: 'action'; t: number; action: PendingAction };

const EVENT_CLASS = { timer: 0, frame: 1, action: 2 } as const;

/** Stream numbers for HTTP requests the user forges, far from the client's own. */
const FORGED_STREAM_BASE = 1000;

function idKey(id: RequestId): string {
  return JSON.stringify(id);
}

function isResponse(msg: JsonRpcMessage | null): msg is JsonRpcMessage & { id: RequestId } {
  return msg !== null && msg.method === undefined && msg.id !== undefined;
}

export class Run {
  readonly trace: TraceEvent[] = [];
  private readonly scenario: Scenario;
  private readonly config: SideConfig;
  private readonly sides: Sides;
  private readonly wire: Wire;
  private now = 0;
  private nextActionNo = 0;
  private actions: PendingAction[] = [];
  private waiting: (PendingAction & { seen: number })[] = [];
  private readonly timers: Record<SideName, number | null> = { client: null, server: null };
  private readonly calls = new Map<string, CallRecord>();
  private readonly handlers = new Map<string, ServerHandlerState>();
  /** Requests the server answered while their handler still ran (python-sdk 1.x's code 0). */
  private readonly answeredEarly = new Set<string>();
  private readonly streams = new Map<number, StreamRecord>();
  private readonly sessions = new Set<string>();
  private readonly listeners = new Set<(events: readonly TraceEvent[]) => void>();
  private readonly connectionTracker = new ConnectionTracker();
  /** The connection (stdio process and client transport) frames now belong to. */
  private connectionNo = 0;
  private serverAlive = true;
  private serverRestartDue = false;
  private initializeId: RequestId | null = null;
  private forgedStreams = 0;

  private constructor(scenario: Scenario, sides: Sides) {
    this.scenario = scenario;
    this.sides = sides;
    this.wire = new Wire(scenario);
    this.config = {
      revision: scenario.revision,
      transport: scenario.transport,
      httpServer: scenario.httpServer,
      serverProfile: scenario.serverProfile ?? 'ts-v2',
      clientProfile: scenario.clientProfile ?? 'ts-v2',
      ...(scenario.connectTimeoutMs !== undefined && { connectTimeoutMs: scenario.connectTimeoutMs }),
    };
    for (const step of scenario.steps) this.schedule(step);
  }

  /** Builds both sides at virtual time 0; the client starts its handshake. */
  static async start(scenario: Scenario, sides: Sides): Promise<Run> {
    const run = new Run(scenario, sides);
    run.absorb('server', await sides.server.init(run.config, 0));
    run.absorb('client', await sides.client.init(run.config, 0));
    return run;
  }

  /** Called with each batch of events appended by one step. */
  subscribe(listener: (events: readonly TraceEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get virtualTime(): number {
    return this.now;
  }

  /**
   * Adds a user action at virtual time `step.at` (never before the present), or — for a step
   * with `after` — `step.at` ms after its triggering frame is written.
   */
  schedule(step: Step): void {
    if (step.after) {
      this.waiting.push({ order: this.nextActionNo++, step, seen: 0 });
      return;
    }
    const at = Math.max(step.at, this.now);
    this.actions.push({ order: this.nextActionNo++, step: { ...step, at } });
  }

  /** Does a written frame match a step's trigger? */
  private triggers(trigger: Trigger, frame: FrameEvent): boolean {
    const msg = frame.msg;
    if (!msg || (trigger.dir !== undefined && trigger.dir !== frame.dir)) return false;
    const method = msg.method ?? (msg.id !== undefined ? 'response' : undefined);
    if (method !== trigger.method) return false;
    if (trigger.call === undefined) return true;
    const id = this.calls.get(trigger.call)?.requestId;
    if (id === undefined || id === null) return false;
    const params = msg.params ?? {};
    return msg.id === id || params.requestId === id || params.progressToken === id;
  }

  /** Steps waiting for a frame: each becomes due once its trigger has matched `nth` times. */
  private wake(frame: FrameEvent): void {
    for (const w of [...this.waiting]) {
      if (!w.step.after || !this.triggers(w.step.after, frame)) continue;
      w.seen++;
      if (w.seen < (w.step.after.nth ?? 1)) continue;
      this.waiting = this.waiting.filter((x) => x !== w);
      this.actions.push({ order: w.order, step: { ...w.step, at: frame.t + w.step.at } });
    }
  }

  callState(call: string): ClientRequestState | undefined {
    return this.calls.get(call)?.state;
  }

  nextEventTime(): number | null {
    return this.peek()?.t ?? null;
  }

  /** Processes the next due event. Returns false when nothing is left to do. */
  async step(): Promise<boolean> {
    const next = this.peek();
    if (!next) return false;
    const before = this.trace.length;
    this.now = next.t;
    switch (next.kind) {
      case 'timer':
        this.absorb(next.side, await this.sides[next.side].fireTimer(next.t));
        break;
      case 'frame':
        await this.deliver(next.frame);
        break;
      case 'action':
        await this.perform(next.action);
        break;
    }
    await this.restartServerIfDue();
    this.emit(before);
    return true;
  }

  /** Runs every event due at or before `t`, then moves the clock to `t`. */
  async runUntil(t: number): Promise<void> {
    for (let next = this.nextEventTime(); next !== null && next <= t; next = this.nextEventTime()) await this.step();
    this.now = Math.max(this.now, t);
  }

  /** Runs until no event is left at or before the scenario's end. */
  async runToEnd(): Promise<void> {
    await this.runUntil(this.scenario.endAt);
  }

  private peek(): NextEvent | null {
    const candidates: NextEvent[] = [];
    for (const side of ['client', 'server'] as const) {
      const t = this.timers[side];
      if (t !== null) candidates.push({ kind: 'timer', t, side });
    }
    const frame = this.wire.next();
    if (frame?.deliverAt !== null && frame !== null) candidates.push({ kind: 'frame', t: frame.deliverAt, frame });
    for (const action of this.actions) candidates.push({ kind: 'action', t: action.step.at, action });
    let best: NextEvent | null = null;
    for (const c of candidates) if (!best || this.before(c, best)) best = c;
    return best;
  }

  private before(a: NextEvent, b: NextEvent): boolean {
    if (a.t !== b.t) return a.t < b.t;
    if (a.kind !== b.kind) return EVENT_CLASS[a.kind] < EVENT_CLASS[b.kind];
    if (a.kind === 'timer' && b.kind === 'timer') return a.side === 'client' && b.side === 'server';
    if (a.kind === 'action' && b.kind === 'action') return a.action.order < b.action.order;
    return false;
  }

  private async deliver(frame: InFlight): Promise<void> {
    this.wire.take(frame);
    const to: SideName = frame.dir === 'c2s' ? 'server' : 'client';
    const dropped =
      frame.connection !== this.connectionNo
        ? 'its connection was closed before it arrived'
        : to === 'server' && !this.serverAlive
          ? 'the server process has exited'
          : null;
    this.append({ kind: 'delivery', t: this.now, frame: frame.frame, dir: frame.dir, ...(dropped !== null && { dropped }) });
    if (dropped !== null) return;
    if (to === 'client') this.noticeLateResponse(messageOf(frame.wire, this.contentTypeOf(frame.wire)));
    this.absorb(to, await this.sides[to].deliver(this.now, frame.wire));
  }

  /** A response reaching a call the client no longer waits for is late: the client ignores it. */
  private noticeLateResponse(msg: JsonRpcMessage | null): void {
    if (!isResponse(msg)) return;
    for (const [call, record] of this.calls) {
      if (record.connection === this.connectionNo && record.requestId === msg.id && record.state !== 'RUNNING') {
        this.stepClient(call, 'late-response');
      }
    }
  }

  private async perform(pending: PendingAction): Promise<void> {
    this.actions = this.actions.filter((a) => a !== pending);
    const action = pending.step.action;
    this.append({ kind: 'user-action', t: this.now, action });
    switch (action.type) {
      case 'call': {
        if (this.calls.has(action.call)) {
          this.append({ kind: 'error', t: this.now, message: `call ${action.call} already exists` });
          return;
        }
        const result = await this.sides.client.act(this.now, action);
        const requestId = this.firstToolCallId(result);
        this.calls.set(action.call, { requestId, connection: this.connectionNo, state: clientRequestMachine.initial });
        this.append({ kind: 'client-state', t: this.now, call: action.call, requestId, connection: this.connectionNo, machine: 'client-request', from: null, to: clientRequestMachine.initial, on: null, because: 'Call pressed' });
        this.absorb('client', result);
        return;
      }
      case 'stop': {
        if (!this.calls.has(action.call)) {
          this.append({ kind: 'error', t: this.now, message: `Stop for unknown call ${action.call}` });
          return;
        }
        this.stepClient(action.call, 'stop');
        this.absorb('client', await this.sides.client.act(this.now, action));
        return;
      }
      case 'inject-response':
        this.injectResponse(action);
        return;
      case 'inject-cancel':
        this.injectCancel(action);
        return;
      case 'hold':
        this.wire.hold(action.dir);
        return;
      case 'release':
        this.wire.release(this.now, action.dir);
        return;
      case 'disconnect':
        this.absorb('client', await this.sides.client.act(this.now, { type: 'disconnect' }));
        return;
      case 'crash-server':
        if (!this.requireStdio('crash the server')) return;
        this.absorb('server', await this.sides.server.act(this.now, { type: 'crash' }));
        return;
      case 'reconnect':
        if (!this.requireStdio('restart the server')) return;
        this.absorb('client', await this.sides.client.act(this.now, { type: 'reconnect' }));
        return;
    }
  }

  private requireStdio(what: string): boolean {
    if (this.scenario.transport === 'stdio') return true;
    this.append({ kind: 'error', t: this.now, message: `only a stdio server process can be made to ${what}` });
    return false;
  }

  /** The request id a forged frame names, or null (with an error event) when there is none. */
  private resolveTarget(target: Target): RequestId | null {
    if ('requestId' in target) return target.requestId;
    if ('initialize' in target) {
      if (this.initializeId === null) this.append({ kind: 'error', t: this.now, message: 'no initialize request on this connection' });
      return this.initializeId;
    }
    const id = this.calls.get(target.call)?.requestId ?? null;
    if (id === null) this.append({ kind: 'error', t: this.now, message: `no request id known for call ${target.call}` });
    return id;
  }

  /**
   * Forges a response (a late result or error, or one for an unknown id) and puts it on the wire
   * as the server would: a stdio line, or an SSE `message` event on a stream that is still open.
   */
  private injectResponse(action: Extract<UserAction, { type: 'inject-response' }>): void {
    const requestId = this.resolveTarget(action);
    if (requestId === null) return;
    const message =
      action.outcome === 'result'
        ? { jsonrpc: '2.0', id: requestId, result: { content: [{ type: 'text', text: 'injected late result' }] } }
        : { jsonrpc: '2.0', id: requestId, error: { code: -32603, message: 'injected late error' } };
    const json = JSON.stringify(message);
    const dir: Direction = action.to === 'server' ? 'c2s' : 's2c';
    if (this.scenario.transport === 'stdio') {
      this.write(dir, { raw: json + '\n' }, true);
      return;
    }
    if (dir === 'c2s') {
      this.append({ kind: 'error', t: this.now, message: 'forged responses to the server are offered on stdio only' });
      return;
    }
    const stream = this.streamForInjection(requestId);
    if (stream === null) {
      this.append({ kind: 'error', t: this.now, message: `no open SSE stream can carry a response for ${json}` });
      return;
    }
    this.write('s2c', { raw: `event: message\ndata: ${json}\n\n`, http: { stream, part: 'chunk' } }, true);
  }

  /** Forges a notifications/cancelled from the client: a stdio line, or a POST of its own. */
  private injectCancel(action: Extract<UserAction, { type: 'inject-cancel' }>): void {
    const requestId = this.resolveTarget(action);
    if (requestId === null) return;
    const json = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: action.reason ?? 'injected' } });
    if (this.scenario.transport === 'stdio') {
      this.write('c2s', { raw: json + '\n' }, true);
      return;
    }
    const stream = FORGED_STREAM_BASE + ++this.forgedStreams;
    const path = this.scenario.transport === 'http-sse' ? '/messages?sessionId=sse-session-1' : '/mcp';
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const session = [...this.sessions].at(-1);
    if (session) headers['mcp-session-id'] = session;
    if (this.scenario.transport === 'streamable-http') headers['mcp-protocol-version'] = this.scenario.revision;
    const lines = Object.entries(headers).map(([n, v]) => `${n}: ${v}\r\n`).join('');
    const url = `http://mcp-server.invalid${path}`;
    this.write('c2s', { raw: `POST ${path} HTTP/1.1\r\nhost: mcp-server.invalid\r\n${lines}\r\n${json}`, http: { stream, part: 'request', method: 'POST', url, headers } }, true);
  }

  /** The call's own response stream if still open, else any open SSE stream (HTTP+SSE's one stream). */
  private streamForInjection(requestId: RequestId): number | null {
    let fallback: number | null = null;
    for (const [stream, record] of this.streams) {
      if (!record.open || !record.contentType?.startsWith('text/event-stream')) continue;
      if (record.requestId === requestId) return stream;
      fallback ??= stream;
    }
    return fallback;
  }

  private firstToolCallId(result: StepResult): RequestId | null {
    for (const out of result.out) {
      if (out.kind !== 'send') continue;
      const msg = messageOf(out, undefined);
      if (msg?.method === 'tools/call' && msg.id !== undefined) return msg.id;
    }
    return null;
  }

  private contentTypeOf(wire: WireFrame): string | undefined {
    return wire.http ? this.streams.get(wire.http.stream)?.contentType : undefined;
  }

  private write(dir: Direction, wire: WireFrame, forged: boolean): FrameEvent {
    const msg = messageOf(wire, this.contentTypeOf(wire));
    const placed = this.wire.write(this.now, dir, wire, msg, this.connectionNo, forged);
    const written = this.append({
      kind: 'frame',
      t: this.now,
      frame: placed.frame,
      dir,
      raw: wire.raw,
      msg,
      deliverAt: placed.deliverAt,
      connection: this.connectionNo,
      ...(wire.http && { http: wire.http }),
      ...(wire.eof && { eof: true as const }),
      ...(forged && { injected: true as const }),
      ...(placed.fault && { fault: placed.fault }),
    }) as FrameEvent;
    if (msg?.method === 'initialize' && msg.id !== undefined && dir === 'c2s') this.initializeId = msg.id;
    this.wake(written);
    if (wire.http) this.followStream(written);
    if (wire.eof) {
      this.connection('disconnected', dir === 'c2s' ? 'the client closed its end (stdin EOF)' : 'the server closed its end (stdout EOF)', undefined, dir === 'c2s' ? 'client' : 'server');
    }
    if (placed.duplicate) {
      const copy = this.wire.write(this.now, dir, wire, msg, this.connectionNo, true);
      this.append({ kind: 'frame', t: this.now, frame: copy.frame, dir, raw: wire.raw, msg, deliverAt: copy.deliverAt, connection: this.connectionNo, ...(wire.http && { http: wire.http }), injected: true, fault: 'duplicated' });
    }
    return written;
  }

  /** Keeps the per-stream record and records the transport's lifecycle events it implies. */
  private followStream(frame: FrameEvent): void {
    const http = frame.http;
    if (!http) return;
    const record = this.streams.get(http.stream) ?? { open: true };
    this.streams.set(http.stream, record);
    switch (http.part) {
      case 'request': {
        if (frame.msg?.method !== undefined && frame.msg.id !== undefined) record.requestId = frame.msg.id;
        const session = http.headers?.['mcp-session-id'];
        if (session !== undefined) record.sessionId = session;
        const path = http.url ? new URL(http.url).pathname : '';
        this.connection('stream-opened', `${http.method ?? ''} ${path}${frame.msg?.method ? ` (${frame.msg.method})` : ''}`, http.stream, 'client');
        return;
      }
      case 'response-head': {
        const contentType = http.headers?.['content-type'];
        if (contentType !== undefined) record.contentType = contentType;
        const session = http.headers?.['mcp-session-id'];
        if (session && !this.sessions.has(session)) {
          this.sessions.add(session);
          this.connection('session-created', `Mcp-Session-Id: ${session}`, http.stream, 'server');
        }
        if (http.status === 404 && record.sessionId !== undefined) this.connection('session-expired', `404 for session ${record.sessionId}`, http.stream, 'server');
        return;
      }
      case 'end':
        record.open = false;
        this.connection('stream-closed', 'the server ended the response', http.stream, 'server');
        return;
      case 'abort':
        record.open = false;
        this.connection('stream-closed', 'the client closed the stream before the response ended', http.stream, 'client');
        return;
      default:
        return;
    }
  }

  private connection(event: ConnectionEvent['event'], detail: string, stream?: number, by?: 'client' | 'server'): void {
    this.append({ kind: 'connection', t: this.now, event, ...(stream !== undefined && { stream }), ...(by !== undefined && { by }), detail });
  }

  /** Takes in what a side did during one step, in order, and steps the lifecycles it implies. */
  private absorb(side: SideName, result: StepResult): void {
    const returnedThisStep = new Set<string>();
    for (const out of result.out) {
      if (out.kind === 'send') {
        const frame = this.write(side === 'client' ? 'c2s' : 's2c', { raw: out.raw, ...(out.http && { http: out.http }), ...(out.eof && { eof: out.eof }) }, false);
        if (side === 'server' && isResponse(frame.msg) && this.handlers.has(idKey(frame.msg.id))) {
          const key = idKey(frame.msg.id);
          if (this.handlers.get(key) === 'running' || this.handlers.get(key) === 'answered early') this.answeredEarly.add(key);
          returnedThisStep.delete(key);
          this.stepServer(frame.msg.id, 'response-sent');
        }
      } else {
        this.append({ kind: 'handler', t: this.now, side, note: out.note });
        this.react(out.note, returnedThisStep);
      }
    }
    for (const key of returnedThisStep) {
      const state = this.handlers.get(key);
      if (state !== 'returned' && state !== 'threw') continue;
      this.stepServer(JSON.parse(key) as RequestId, this.answeredEarly.has(key) ? 'answered-before' : 'response-suppressed');
    }
    this.timers[side] = result.nextTimerAt;
  }

  private react(note: HandlerNote, returnedThisStep: Set<string>): void {
    switch (note.type) {
      case 'connected':
        this.connection('connected', `protocol ${note.protocolVersion} (${note.era} era) over ${this.scenario.transport}`);
        return;
      case 'server-exited':
        this.serverAlive = false;
        for (const [key, state] of this.handlers) {
          if (state === 'running' || state === 'answered early' || state === 'cancellation seen' || state === 'returned' || state === 'threw') {
            returnedThisStep.delete(key);
            this.stepServer(JSON.parse(key) as RequestId, 'crash');
          }
        }
        this.connection('crashed', `the server process exited with code ${note.code}: ${note.reason}`, undefined, 'server');
        return;
      case 'reconnect-requested':
        // The host starts a new server process and a new connection; frames still in flight
        // on the old one reach nobody.
        this.connectionNo++;
        this.handlers.clear();
        this.answeredEarly.clear();
        this.streams.clear();
        this.initializeId = null;
        this.serverRestartDue = true;
        this.connection('reconnecting', note.reason, undefined, 'client');
        return;
      case 'handler-started':
        this.handlers.set(idKey(note.requestId), serverHandlerMachine.initial);
        this.append({ kind: 'server-state', t: this.now, requestId: note.requestId, machine: 'server-handler', from: null, to: serverHandlerMachine.initial, on: null, because: `request received (${note.tool})` });
        return;
      case 'handler-cancel-seen':
        this.stepServer(note.requestId, 'cancel-seen');
        return;
      case 'handler-returned':
      case 'handler-threw':
        this.stepServer(note.requestId, note.type === 'handler-returned' ? 'return' : 'throw');
        returnedThisStep.add(idKey(note.requestId));
        return;
      case 'call-settled': {
        const record = this.calls.get(note.call);
        if (!record) return;
        const event: ClientRequestEvent =
          note.outcome === 'result' ? (note.isError ? 'error' : 'result') : record.state === 'CANCEL_REQUESTED' ? 'stopped' : 'error';
        this.stepClient(note.call, event);
        return;
      }
      default:
        return;
    }
  }

  /** A new server process for the new connection, at the present instant. */
  private async restartServerIfDue(): Promise<void> {
    if (!this.serverRestartDue) return;
    this.serverRestartDue = false;
    this.serverAlive = true;
    this.absorb('server', await this.sides.server.init(this.config, this.now));
  }

  private stepClient(call: string, event: ClientRequestEvent): void {
    const record = this.calls.get(call);
    if (!record) return;
    const outcome = stepMachine(clientRequestMachine, record.state, event);
    if (!outcome.ok) {
      this.append({ kind: 'error', t: this.now, message: `call ${call}: ${outcome.reason}` });
      return;
    }
    const from = record.state;
    record.state = outcome.transition.to;
    this.append({ kind: 'client-state', t: this.now, call, requestId: record.requestId, connection: record.connection, machine: 'client-request', from, to: record.state, on: event, because: outcome.transition.label });
  }

  private stepServer(requestId: RequestId, event: ServerHandlerEvent): void {
    const key = idKey(requestId);
    const state = this.handlers.get(key);
    if (state === undefined) return;
    const outcome = stepMachine(serverHandlerMachine, state, event);
    if (!outcome.ok) {
      this.append({ kind: 'error', t: this.now, message: `request ${key}: ${outcome.reason}` });
      return;
    }
    this.handlers.set(key, outcome.transition.to);
    this.append({ kind: 'server-state', t: this.now, requestId, machine: 'server-handler', from: state, to: outcome.transition.to, on: event, because: outcome.transition.label });
  }

  private append(event: NewTraceEvent): TraceEvent {
    const full = { seq: this.trace.length, ...event } as TraceEvent;
    this.trace.push(full);
    // The connection table is stepped by what the trace records, right after its cause.
    const rejectedBefore = this.connectionTracker.rejected.length;
    for (const change of this.connectionTracker.observe(full)) {
      this.trace.push({ seq: this.trace.length, kind: 'connection-state', t: full.t, machine: 'connection', from: change.from, to: change.to, on: change.transition.on, because: change.transition.label });
    }
    for (const r of this.connectionTracker.rejected.slice(rejectedBefore)) {
      this.trace.push({ seq: this.trace.length, kind: 'error', t: full.t, message: `connection: ${r.reason}` });
    }
    return full;
  }

  private emit(from: number): void {
    const events = this.trace.slice(from);
    if (events.length === 0) return;
    for (const listener of this.listeners) listener(events);
  }
}
