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
import { clientRequestMachine, type ClientRequestEvent } from './machines/client-request.ts';
import { serverHandlerMachine, type ServerHandlerEvent } from './machines/server-handler.ts';
import { stepMachine } from './machines/machine.ts';
import type { Scenario, Step } from './scenario.ts';
import type { ClientSideApi, ServerSideApi, StepResult, WireFrame } from './side-protocol.ts';
import { messageOf } from './http-frames.ts';
import {
  parseJsonRpc,
  type ClientRequestState,
  type ConnectionEvent,
  type Direction,
  type FrameEvent,
  type HandlerNote,
  type NewTraceEvent,
  type ServerHandlerState,
  type TraceEvent,
  type UserAction,
} from './trace.ts';

export interface Sides {
  client: ClientSideApi;
  server: ServerSideApi;
}

type SideName = 'client' | 'server';
type RequestId = string | number;

interface PendingFrame {
  frame: number;
  dir: Direction;
  wire: WireFrame;
  deliverAt: number;
}

/** What the coordinator knows of one HTTP stream, read off its frames. */
interface StreamRecord {
  open: boolean;
  contentType?: string;
  /** The JSON-RPC request the client POSTed on it, if any. */
  requestId?: RequestId;
  sessionId?: string;
}

interface PendingAction {
  order: number;
  step: Step;
}

interface CallRecord {
  requestId: RequestId | null;
  state: ClientRequestState;
}

type NextEvent =
  | { kind: 'timer'; t: number; side: SideName }
  | { kind: 'frame'; t: number; frame: PendingFrame }
  | { kind: 'action'; t: number; action: PendingAction };

const EVENT_CLASS = { timer: 0, frame: 1, action: 2 } as const;

function idKey(id: RequestId): string {
  return JSON.stringify(id);
}

const UNKNOWN_RESPONSE = 'Received a response for an unknown message ID: ';

export class Run {
  readonly trace: TraceEvent[] = [];
  private readonly scenario: Scenario;
  private readonly sides: Sides;
  private now = 0;
  private nextFrameNo = 0;
  private nextActionNo = 0;
  private frames: PendingFrame[] = [];
  private actions: PendingAction[] = [];
  private readonly timers: Record<SideName, number | null> = { client: null, server: null };
  private readonly calls = new Map<string, CallRecord>();
  private readonly handlers = new Map<string, ServerHandlerState>();
  private readonly streams = new Map<number, StreamRecord>();
  private readonly sessions = new Set<string>();
  private readonly listeners = new Set<(events: readonly TraceEvent[]) => void>();

  private constructor(scenario: Scenario, sides: Sides) {
    this.scenario = scenario;
    this.sides = sides;
    for (const step of scenario.steps) this.schedule(step);
  }

  /** Builds both sides at virtual time 0; the client starts its `initialize` handshake. */
  static async start(scenario: Scenario, sides: Sides): Promise<Run> {
    const run = new Run(scenario, sides);
    const config = { revision: scenario.revision, transport: scenario.transport, httpServer: scenario.httpServer };
    run.absorb('server', 0, await sides.server.init(config));
    run.absorb('client', 0, await sides.client.init(config));
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

  /** Adds a user action at virtual time `step.at` (never before the present). */
  schedule(step: Step): void {
    const at = Math.max(step.at, this.now);
    this.actions.push({ order: this.nextActionNo++, step: { ...step, at } });
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
        this.absorb(next.side, next.t, await this.sides[next.side].fireTimer(next.t));
        break;
      case 'frame':
        await this.deliver(next.frame);
        break;
      case 'action':
        await this.perform(next.action);
        break;
    }
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
    for (const frame of this.frames) candidates.push({ kind: 'frame', t: frame.deliverAt, frame });
    for (const action of this.actions) candidates.push({ kind: 'action', t: action.step.at, action });
    let best: NextEvent | null = null;
    for (const c of candidates) if (!best || this.before(c, best)) best = c;
    return best;
  }

  private before(a: NextEvent, b: NextEvent): boolean {
    if (a.t !== b.t) return a.t < b.t;
    if (a.kind !== b.kind) return EVENT_CLASS[a.kind] < EVENT_CLASS[b.kind];
    if (a.kind === 'timer' && b.kind === 'timer') return a.side === 'client' && b.side === 'server';
    if (a.kind === 'frame' && b.kind === 'frame') return a.frame.frame < b.frame.frame;
    if (a.kind === 'action' && b.kind === 'action') return a.action.order < b.action.order;
    return false;
  }

  private async deliver(frame: PendingFrame): Promise<void> {
    this.frames = this.frames.filter((f) => f !== frame);
    this.append({ kind: 'delivery', t: this.now, frame: frame.frame, dir: frame.dir });
    const to: SideName = frame.dir === 'c2s' ? 'server' : 'client';
    this.absorb(to, this.now, await this.sides[to].deliver(this.now, frame.wire));
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
        this.calls.set(action.call, { requestId, state: clientRequestMachine.initial });
        this.append({
          kind: 'client-state',
          t: this.now,
          call: action.call,
          requestId,
          from: null,
          to: clientRequestMachine.initial,
          because: 'Call pressed',
        });
        this.absorb('client', this.now, result);
        return;
      }
      case 'stop': {
        if (!this.calls.has(action.call)) {
          this.append({ kind: 'error', t: this.now, message: `Stop for unknown call ${action.call}` });
          return;
        }
        this.stepClient(action.call, 'stop');
        this.absorb('client', this.now, await this.sides.client.act(this.now, action));
        return;
      }
      case 'inject-response':
        this.inject(action);
        return;
    }
  }

  /**
   * Forges a response for a call's request id and puts it on the wire as the server would:
   * a stdio line, or an SSE `message` event on a stream that is still open.
   */
  private inject(action: Extract<UserAction, { type: 'inject-response' }>): void {
    const requestId = this.calls.get(action.call)?.requestId;
    if (requestId === undefined || requestId === null) {
      this.append({ kind: 'error', t: this.now, message: `no request id known for call ${action.call}` });
      return;
    }
    const message =
      action.outcome === 'result'
        ? { jsonrpc: '2.0', id: requestId, result: { content: [{ type: 'text', text: 'injected late result' }] } }
        : { jsonrpc: '2.0', id: requestId, error: { code: -32603, message: 'injected late error' } };
    const json = JSON.stringify(message);
    if (this.scenario.transport === 'stdio') {
      this.write('s2c', { raw: json + '\n' }, true);
      return;
    }
    const stream = this.streamForInjection(requestId);
    if (stream === null) {
      this.append({ kind: 'error', t: this.now, message: `no open SSE stream can carry a response for call ${action.call}` });
      return;
    }
    this.write('s2c', { raw: `event: message\ndata: ${json}\n\n`, http: { stream, part: 'chunk' } }, true);
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

  private write(dir: Direction, wire: WireFrame, injected: boolean): FrameEvent {
    const latency = dir === 'c2s' ? this.scenario.latency.c2s : this.scenario.latency.s2c;
    const frame: PendingFrame = { frame: this.nextFrameNo++, dir, wire, deliverAt: this.now + latency };
    this.frames.push(frame);
    const http = wire.http;
    const event: NewTraceEvent = {
      kind: 'frame',
      t: this.now,
      frame: frame.frame,
      dir,
      raw: wire.raw,
      msg: messageOf(wire, http ? this.streams.get(http.stream)?.contentType : undefined),
      deliverAt: frame.deliverAt,
      ...(http && { http }),
      ...(injected && { injected: true as const }),
    };
    const written = this.append(event) as FrameEvent;
    if (http) this.followStream(written);
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
        record.sessionId = http.headers?.['mcp-session-id'];
        const path = http.url ? new URL(http.url).pathname : '';
        this.connection('stream-opened', `${http.method ?? ''} ${path}${frame.msg?.method ? ` (${frame.msg.method})` : ''}`, http.stream, 'client');
        return;
      }
      case 'response-head': {
        record.contentType = http.headers?.['content-type'];
        const session = http.headers?.['mcp-session-id'];
        if (session && !this.sessions.has(session)) {
          this.sessions.add(session);
          this.connection('session-created', `Mcp-Session-Id: ${session}`, http.stream, 'server');
        }
        if (http.status === 404 && record.sessionId !== undefined) {
          this.connection('session-expired', `404 for session ${record.sessionId}`, http.stream, 'server');
        }
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
    this.append({
      kind: 'connection',
      t: this.now,
      event,
      ...(stream !== undefined && { stream }),
      ...(by !== undefined && { by }),
      detail,
    });
  }

  /** Takes in what a side did during one step, in order, and steps the lifecycles it implies. */
  private absorb(side: SideName, t: number, result: StepResult): void {
    const returnedThisStep = new Set<string>();
    for (const out of result.out) {
      if (out.kind === 'send') {
        const frame = this.write(side === 'client' ? 'c2s' : 's2c', { raw: out.raw, ...(out.http && { http: out.http }) }, false);
        const id = frame.msg?.id;
        const isResponse = frame.msg !== null && frame.msg.method === undefined && id !== undefined;
        if (side === 'server' && isResponse && this.handlers.has(idKey(id))) {
          returnedThisStep.delete(idKey(id));
          this.stepServer(id, 'response-sent');
        }
      } else {
        this.append({ kind: 'handler', t, side, note: out.note });
        this.react(out.note, returnedThisStep);
      }
    }
    for (const key of returnedThisStep) this.stepServer(JSON.parse(key) as RequestId, 'response-suppressed');
    this.timers[side] = result.nextTimerAt;
  }

  private react(note: HandlerNote, returnedThisStep: Set<string>): void {
    switch (note.type) {
      case 'handler-started':
        this.handlers.set(idKey(note.requestId), serverHandlerMachine.initial);
        this.append({
          kind: 'server-state',
          t: this.now,
          requestId: note.requestId,
          from: null,
          to: serverHandlerMachine.initial,
          because: `request received (${note.tool})`,
        });
        return;
      case 'connected':
        this.connection('connected', `protocol ${note.protocolVersion} (${note.era} era) over ${this.scenario.transport}`);
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
          note.outcome === 'result'
            ? note.isError
              ? 'error'
              : 'result'
            : record.state === 'CANCEL_REQUESTED'
              ? 'stopped'
              : 'error';
        this.stepClient(note.call, event);
        return;
      }
      case 'client-onerror': {
        if (!note.message.startsWith(UNKNOWN_RESPONSE)) return;
        const id = parseJsonRpc(note.message.slice(UNKNOWN_RESPONSE.length))?.id;
        for (const [call, record] of this.calls) if (id !== undefined && record.requestId === id) this.stepClient(call, 'late-response');
        return;
      }
      default:
        return;
    }
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
    this.append({
      kind: 'client-state',
      t: this.now,
      call,
      requestId: record.requestId,
      from,
      to: record.state,
      because: outcome.transition.label,
    });
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
    this.append({
      kind: 'server-state',
      t: this.now,
      requestId,
      from: state,
      to: outcome.transition.to,
      because: outcome.transition.label,
    });
  }

  private append(event: NewTraceEvent): TraceEvent {
    const full = { seq: this.trace.length, ...event } as TraceEvent;
    this.trace.push(full);
    return full;
  }

  private emit(from: number): void {
    const events = this.trace.slice(from);
    if (events.length === 0) return;
    for (const listener of this.listeners) listener(events);
  }
}
