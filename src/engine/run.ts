/**
 * The coordinator: a discrete-event loop over virtual time. It owns the wire and the clock;
 * the two sides run only when it hands them an event, and only until they are quiet. It tells
 * the lifecycle stepper what happened (lifecycles.ts); the tables decide what that means.
 * Which event comes next, and the tie rule at one virtual millisecond: schedule-order.ts.
 */
import type { Scenario, Step } from '../scenario/index.ts';
import { Actions, type PendingAction } from './actions.ts';
import type { ClientSideApi, ServerSideApi, SideConfig, StepResult } from './side-protocol.ts';
import { createTraceIndex, messageOf, type TraceIndex, type TraceIndexBuilder } from '../trace/index.ts';
import type { Direction, FrameEvent, HandlerNote, JsonRpcMessage, NewTraceEvent, RequestId, TraceEvent, WireFrame } from '../trace/index.ts';
import { Wire, type InFlight } from './wire.ts';
import { Lifecycles } from './lifecycles.ts';
import { HANDSHAKE_STATES } from '../machines/index.ts';
import { Streams, serverStreamsStep, type TransportEvent } from './streams.ts';
import { forgeAction, forgeContext, type ForgeContext, type Forged } from './forge.ts';
import { haltMessage, MAX_STEPS, MAX_TRACE_EVENTS, MAX_VIRTUAL_MS, SIDE_STEP_TIMEOUT_MS, SideHalt, withinDeadline, type HaltReason, type RunHalt } from './bounds.ts';
import { BATCH_STEPS, INTO, Lookahead, planBatch, type SideEvent, type SideName } from './lookahead.ts';
import { Schedule, type Chooser } from './schedule.ts';
import { EventOrder, type NextEvent } from './schedule-order.ts';

export interface Sides {
  client: ClientSideApi;
  server: ServerSideApi;
}

export interface RunOptions {
  /** The wall-clock time one side may take to answer one step (SIDE_STEP_TIMEOUT_MS by default). */
  sideTimeoutMs?: number;
  /** Answers the run's decision points (the explorer's); by default the scenario's own `explore.schedule`. */
  chooser?: Chooser;
}

export interface RunUntilOptions {
  /** Asked before each event: true stops the run there, leaving the clock at the last event run. */
  shouldStop?: () => boolean;
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
  /** The trace index, grown with the trace: the lifecycles and the forger look requests up in it. */
  private readonly indexer: TraceIndexBuilder = createTraceIndex();
  private readonly lifecycles: Lifecycles;
  private readonly streams = new Streams();
  private readonly forge: ForgeContext;
  private now = 0;
  private readonly actions = new Actions();
  private readonly timers: Record<SideName, number | null> = { client: null, server: null };
  private readonly listeners = new Set<(events: readonly TraceEvent[]) => void>();
  /** The connection (stdio process and client transport) frames now belong to. */
  private connectionNo = 0;
  private serverAlive = true;
  private serverRestartDue = false;
  /** Set once the run reaches a bound or a side fails: no event is run after it. */
  private halted: RunHalt | null = null;
  private steps = 0;
  private readonly sideTimeoutMs: number;
  private readonly ahead = new Lookahead();
  /** Inside runUntil: the instant sides may run ahead to; null when each step is asked for alone. */
  private aheadThrough: number | null = null;
  private readonly choices: Schedule;
  private readonly order: EventOrder;
  /** Do the sides answer batches (sides in worker threads of their own; lookahead.ts)? */
  private readonly batching: boolean;

  private constructor(scenario: Scenario, sides: Sides, options: RunOptions) {
    this.scenario = scenario;
    this.sides = sides;
    this.batching = sides.client.batch !== undefined || sides.server.batch !== undefined;
    this.sideTimeoutMs = options.sideTimeoutMs ?? SIDE_STEP_TIMEOUT_MS;
    this.choices = new Schedule(scenario, options.chooser);
    this.wire = new Wire(scenario, this.choices);
    this.order = new EventOrder(this.choices, {
      timers: this.timers,
      wire: this.wire,
      actions: this.actions,
      messageOf: (wire) => messageOf(wire, this.streams.contentTypeOf(wire)),
      requestIdOf: (call) => this.lifecycles.requestIdOf(call),
    });
    this.lifecycles = new Lifecycles((e) => this.append(e), this.indexer.index, () => this.now);
    this.config = {
      revision: scenario.revision,
      transport: scenario.transport,
      httpServer: scenario.httpServer,
      serverProfile: scenario.serverProfile ?? 'ts-v2',
      clientProfile: scenario.clientProfile ?? 'ts-v2',
      ...(scenario.connectTimeoutMs !== undefined && { connectTimeoutMs: scenario.connectTimeoutMs }),
      ...(scenario.clientHandlers && { clientHandlers: scenario.clientHandlers }),
      ...(scenario.negotiation && { negotiation: scenario.negotiation }),
      ...(scenario.resumable && { resumable: scenario.resumable }),
    };
    this.forge = forgeContext(scenario, this.indexer.index, this.lifecycles, this.streams, () => this.connectionNo);
    for (const step of this.choices.steps(scenario.steps)) this.actions.add(step, 0);
    this.reportSchedule();
  }

  /** A schedule made for another run: said once in the trace, as an engine error (the run goes on with choice 0 there). */
  private reportSchedule(): void {
    const problem = this.choices.takeProblem();
    if (problem !== null) this.fail(problem);
  }

  /**
   * Builds both sides at virtual time 0; the client starts its handshake. A side that fails
   * to start halts the run at once (the run is returned, its trace saying why).
   */
  static async start(scenario: Scenario, sides: Sides, options: RunOptions = {}): Promise<Run> {
    const run = new Run(scenario, sides, options);
    await run.guarded(async () => {
      // Both sides set up at once (neither reads the other's), and are taken server first as ever.
      const server = run.call('server', 'starting', sides.server.init(run.config, 0));
      const client = run.call('client', 'starting', sides.client.init(run.config, 0));
      // A server that fails to start ends the run; the client's answer is then not waited for.
      client.catch(() => undefined);
      run.absorb('server', await server);
      run.absorb('client', await client);
    });
    return run;
  }

  /** Why the run ended before its end (a bound, or a side that failed); null while it has not. */
  get halt(): RunHalt | null {
    return this.halted;
  }

  /** Called with each batch of events appended by one step. */
  subscribe(listener: (events: readonly TraceEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get virtualTime(): number {
    return this.now;
  }

  /** The trace's index, grown with it event by event: what indexTrace(trace) builds again, for the trace as it stands. */
  get index(): TraceIndex {
    return this.indexer.index;
  }

  /** True while the connection is still being made (HANDSHAKE_STATES): the client has neither connected nor given up. */
  get handshaking(): boolean {
    return HANDSHAKE_STATES.has(this.lifecycles.connectionState);
  }

  /**
   * Adds a user action at virtual time `step.at` (never before the present), or — for a step
   * with `after` — `step.at` ms after its triggering frame is written.
   */
  schedule(step: Step): void {
    this.actions.add(step, this.now);
  }

  nextEventTime(): number | null {
    return this.peek()?.t ?? null;
  }

  /** Processes the next due event. Returns false when nothing is left to do (or the run has halted). */
  async step(): Promise<boolean> {
    const next = this.peek();
    if (!next) return false;
    await this.runNext(next);
    return true;
  }

  /** Runs `next`, the event peek() gave (runEvents peeks once per event, not once to look and once to run). */
  private async runNext(next: NextEvent): Promise<void> {
    const before = this.trace.length;
    if (next.t > MAX_VIRTUAL_MS) {
      this.stop('virtual-time');
    } else {
      this.now = next.t;
      this.steps++;
      await this.guarded(() => this.run(next));
      this.reportSchedule();
      if (this.trace.length >= MAX_TRACE_EVENTS) this.stop('events');
      else if (this.steps >= MAX_STEPS) this.stop('steps');
    }
    this.emit(before);
  }

  private async run(next: NextEvent): Promise<void> {
    switch (next.kind) {
      case 'timer':
        this.absorb(next.side, await this.stepSide(next.side, { kind: 'timer', t: next.t }, `its timer due at ${next.t} ms`, () => this.sides[next.side].fireTimer(next.t)));
        break;
      case 'frame':
        await this.deliver(next.frame);
        break;
      case 'action':
        await this.perform(next.action);
        break;
    }
    await this.restartServerIfDue();
  }

  /** A side's answer to one step, within the wall-clock deadline; a SideHalt otherwise. */
  private call<T>(side: SideName, what: string, work: Promise<T>): Promise<T> {
    if (this.ahead.busy(side)) throw new Error(`the ${side} was asked for ${what} while it still runs steps ahead`);
    return withinDeadline(side, what, this.sideTimeoutMs, work);
  }

  /**
   * A timer or a frame for a side: the step it ran ahead, else (inside runUntil) a batch of its
   * steps starting with this one, else this step alone. The other side is set running ahead too.
   */
  private async stepSide(side: SideName, event: SideEvent, what: string, alone: () => Promise<StepResult>, frame?: InFlight): Promise<StepResult> {
    if (!this.batching) return this.call(side, what, alone());
    this.runAhead(side === 'client' ? 'server' : 'client', frame);
    const early = (await this.ahead.take(side, event, what)) ?? (this.runAhead(side, frame) ? await this.ahead.take(side, event, what) : null);
    return early ?? this.call(side, what, alone());
  }

  /**
   * Starts a batch on a side that has none (inside runUntil), when the lookahead allows more than
   * its next step; `current` is the frame being delivered now, to either side (off the wire).
   */
  private runAhead(side: SideName, current?: InFlight): boolean {
    const batch = this.sides[side].batch?.bind(this.sides[side]);
    // A tie the schedule may reorder could change what reaches the side at that instant.
    if (!batch || this.aheadThrough === null || this.actions.anyWaiting || this.ahead.busy(side) || this.choices.ties) return false;
    const other: SideName = side === 'client' ? 'server' : 'client';
    const reaches = (f: InFlight): boolean => f.connection === this.connectionNo && (side === 'client' || this.serverAlive);
    const plan = planBatch({
      side,
      timer: this.timers[side],
      otherTimer: this.timers[other],
      toSide: [...(current?.dir === INTO[side] ? [current] : []), ...this.wire.due(INTO[side], BATCH_STEPS, reaches)],
      toOther: current?.dir === INTO[other] ? [current] : this.wire.due(INTO[other], 1),
      latency: this.choices.minLatency(this.scenario.latency),
      nextAction: this.actions.nextAt,
      clientRestartsServer: this.config.clientProfile === 'strict-host',
      through: this.aheadThrough,
    });
    return plan !== null && this.ahead.start(side, plan, (what) => withinDeadline(side, what, this.sideTimeoutMs, batch(plan)));
  }

  /** Runs `work`; a side that timed out or failed in it halts the run. */
  private async guarded(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof SideHalt)) throw error;
      this.stop(error.reason, error.message);
    }
  }

  /** Ends the run: nothing due is run after this, and the trace's last event says why. */
  private stop(reason: HaltReason, detail?: string): void {
    if (this.halted) return;
    const message = haltMessage(reason, detail);
    this.halted = { reason, message };
    this.fail(message);
  }

  /**
   * Runs every event due at or before `t`, then moves the clock to `t`. Returns false when
   * `shouldStop` stopped it first (the clock then stays at the last event run).
   */
  async runUntil(t: number, options: RunUntilOptions = {}): Promise<boolean> {
    const outcome = await this.runEvents(t, options).then((caughtUp) => ({ caughtUp }), (error: unknown) => ({ error }));
    this.aheadThrough = null;
    // No batch may outlive this call: the next one may schedule an action, or start another run.
    const dropped = await this.ahead.settle();
    if ('error' in outcome) throw outcome.error;
    if (dropped > 0 && this.halted === null) throw new Error(`${dropped} steps the sides ran ahead were never taken`);
    if (outcome.caughtUp) this.now = Math.max(this.now, t);
    return outcome.caughtUp;
  }

  private async runEvents(t: number, options: RunUntilOptions): Promise<boolean> {
    let stopping = false;
    for (let next = this.peek(); next !== null && next.t <= t; next = this.peek()) {
      // Once asked to stop, the steps the sides already ran ahead are taken first, no new ones.
      stopping ||= options.shouldStop?.() === true;
      this.aheadThrough = stopping ? null : t;
      if (stopping && !this.ahead.holding) return false;
      await this.runNext(next);
    }
    return !stopping;
  }

  /** Runs until no event is left at or before the scenario's end; false when `shouldStop` stopped it. */
  runToEnd(options: RunUntilOptions = {}): Promise<boolean> {
    return this.runUntil(this.scenario.endAt, options);
  }

  private peek(): NextEvent | null {
    return this.halted === null ? this.order.next() : null;
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
    if (to === 'client') {
      const msg = messageOf(frame.wire, this.streams.contentTypeOf(frame.wire));
      if (isResponse(msg)) this.lifecycles.responseArrived(this.connectionNo, msg.id);
    }
    this.absorb(to, await this.stepSide(to, { kind: 'frame', t: this.now, frame: frame.frame }, `frame ${frame.frame}`, () => this.sides[to].deliver(this.now, frame.wire), frame));
  }

  private async perform(pending: PendingAction): Promise<void> {
    this.actions.take(pending);
    const action = pending.step.action;
    this.append({ kind: 'user-action', t: this.now, action });
    switch (action.type) {
      case 'call': {
        if (this.lifecycles.hasCall(action.call)) {
          this.fail(`call ${action.call} already exists`);
          return;
        }
        const result = await this.call('client', `call ${action.call}`, this.sides.client.act(this.now, action));
        this.lifecycles.openCall(action.call, this.firstToolCallId(result), this.connectionNo);
        // A Stop before the wire (a signal aborted before the call, or in its tick) was pressed with it.
        if (action.stop) this.lifecycles.stepCall(action.call, 'stop');
        this.absorb('client', result);
        return;
      }
      case 'stop': {
        if (!this.lifecycles.hasCall(action.call)) {
          this.fail(`Stop for unknown call ${action.call}`);
          return;
        }
        this.lifecycles.stepCall(action.call, 'stop');
        this.absorb('client', await this.call('client', `Stop ${action.call}`, this.sides.client.act(this.now, action)));
        return;
      }
      case 'inject-response':
      case 'inject-cancel':
      case 'inject-progress':
      case 'inject':
        this.writeForged(forgeAction(action, this.forge));
        return;
      case 'hold':
        this.wire.hold(action.dir);
        return;
      case 'release':
        this.wire.release(this.now, action.dir);
        return;
      case 'disconnect':
      case 'ping':
        this.absorb('client', await this.call('client', `the ${action.type}`, this.sides.client.act(this.now, action)));
        return;
      case 'crash-server':
        if (!this.requireStdio('crash the server')) return;
        this.absorb('server', await this.call('server', 'the crash', this.sides.server.act(this.now, { type: 'crash' })));
        return;
      case 'reconnect':
        if (!this.requireStdio('restart the server')) return;
        this.absorb('client', await this.call('client', 'the reconnect', this.sides.client.act(this.now, { type: 'reconnect' })));
        return;
      case 'close-stream':
      case 'expire-session': {
        const step = serverStreamsStep(action, this.lifecycles, this.streams);
        if (!step.ok) return this.fail(step.error);
        if (step.event) this.transport(step.event);
        this.absorb('server', await this.call('server', step.what, this.sides.server.act(this.now, step.action)));
        return;
      }
      case 'cancel-task':
        if (this.lifecycles.hasCall(action.call)) this.absorb('client', await this.call('client', `tasks/cancel ${action.call}`, this.sides.client.act(this.now, action)));
        else this.fail(`tasks/cancel for unknown call ${action.call}`);
        return;
    }
  }

  private fail(message: string): void {
    this.append({ kind: 'error', t: this.now, message });
  }

  private requireStdio(what: string): boolean {
    if (this.scenario.transport === 'stdio') return true;
    this.fail(`only a stdio server process can be made to ${what}`);
    return false;
  }

  private writeForged(forged: Forged): void {
    if (forged.ok) this.write(forged.dir, forged.wire, true);
    else this.fail(forged.error);
  }

  private firstToolCallId(result: StepResult): RequestId | null {
    for (const out of result.out) {
      if (out.kind !== 'send') continue;
      const msg = messageOf(out, undefined);
      if (msg?.method === 'tools/call' && msg.id !== undefined) return msg.id;
    }
    return null;
  }

  private write(dir: Direction, wire: WireFrame, forged: boolean): FrameEvent {
    const msg = messageOf(wire, this.streams.contentTypeOf(wire));
    const placed = this.wire.write(this.now, dir, wire, msg, this.connectionNo, forged, this.streams.postedOn(wire));
    const written: FrameEvent = {
      seq: this.trace.length,
      kind: 'frame',
      t: this.now,
      frame: placed.frame,
      dir,
      raw: placed.wire.raw, // what the wire carries: a 'content-type' fault may have relabelled a head
      msg,
      deliverAt: placed.deliverAt,
      connection: this.connectionNo,
      ...(placed.wire.http && { http: placed.wire.http }),
      ...(wire.eof && { eof: true as const }),
      ...(forged && { injected: true as const }),
      ...placed.marks,
    };
    this.push(written);
    this.actions.wake(written, (call) => this.lifecycles.requestIdOf(call));
    for (const e of this.streams.follow(written)) this.transport(e);
    if (wire.eof) {
      this.transport({ event: 'disconnected', detail: dir === 'c2s' ? 'the client closed its end (stdin EOF)' : 'the server closed its end (stdout EOF)', by: dir === 'c2s' ? 'client' : 'server' });
    }
    if (placed.duplicate) {
      const copy = this.wire.write(this.now, dir, placed.wire, msg, this.connectionNo, true);
      this.append({ kind: 'frame', t: this.now, frame: copy.frame, dir, raw: copy.wire.raw, msg, deliverAt: copy.deliverAt, connection: this.connectionNo, ...(copy.wire.http && { http: copy.wire.http }), injected: true, fault: 'duplicated' });
    }
    return written;
  }

  private transport(e: TransportEvent): void {
    this.append({ kind: 'connection', t: this.now, ...e });
  }

  /** Takes in what a side did during one step, in order, and tells the lifecycles what happened. */
  private absorb(side: SideName, result: StepResult): void {
    for (const out of result.out) {
      if (out.kind === 'send') {
        const frame = this.write(side === 'client' ? 'c2s' : 's2c', { raw: out.raw, ...(out.http && { http: out.http }), ...(out.eof && { eof: out.eof }) }, false);
        if (side === 'server' && isResponse(frame.msg)) this.lifecycles.stepHandler(frame.msg.id, 'response-sent');
      } else {
        this.append({ kind: 'handler', t: this.now, side, note: out.note });
        this.react(out.note);
      }
    }
    this.lifecycles.stepEnded(side);
    this.timers[side] = result.nextTimerAt;
  }

  private react(note: HandlerNote): void {
    switch (note.type) {
      case 'connected':
        this.transport({ event: 'connected', detail: `protocol ${note.protocolVersion} (${note.era} era) over ${this.scenario.transport}` });
        return;
      case 'server-exited':
        this.serverAlive = false;
        this.lifecycles.serverExited();
        this.transport({ event: 'crashed', detail: `the server process exited with code ${note.code}: ${note.reason}`, by: 'server' });
        return;
      case 'reconnect-requested':
      case 'new-session-requested':
        // The host starts a new connection (after a reconnect, to a new server process); frames
        // still in flight on the old one reach nobody.
        this.connectionNo++;
        this.lifecycles.newConnection();
        this.streams.clear();
        this.serverRestartDue = note.type === 'reconnect-requested';
        this.transport({ event: 'reconnecting', detail: note.reason, by: 'client' });
        return;
      case 'handler-started':
        this.lifecycles.startHandler(note.requestId, note.tool);
        return;
      case 'handler-cancel-seen':
        this.lifecycles.stepHandler(note.requestId, 'cancel-seen');
        return;
      case 'handler-returned':
      case 'handler-threw':
        this.lifecycles.stepHandler(note.requestId, note.type === 'handler-returned' ? 'return' : 'throw', note.aborted);
        return;
      case 'call-settled':
        this.lifecycles.stepCall(note.call, note.outcome === 'result' && note.isError !== true ? 'result' : note.unsent ? 'error-before-send' : 'error');
        return;
      default:
        return;
    }
  }

  /** A new server process for the new connection, at the present instant. */
  private async restartServerIfDue(): Promise<void> {
    if (!this.serverRestartDue) return;
    this.serverRestartDue = false;
    this.serverAlive = true;
    this.absorb('server', await this.call('server', 'starting again', this.sides.server.init(this.config, this.now)));
  }

  private append(event: NewTraceEvent): void {
    this.push({ seq: this.trace.length, ...event } as TraceEvent);
  }

  /** Records an event: the trace, its index, and the connection lifecycle it may step. */
  private push(event: TraceEvent): void {
    this.trace.push(event);
    this.indexer.add(event);
    this.lifecycles.observe(event);
  }

  private emit(from: number): void {
    const events = this.trace.slice(from);
    if (events.length === 0) return;
    for (const listener of this.listeners) listener(events);
  }
}
