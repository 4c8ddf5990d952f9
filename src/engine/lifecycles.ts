/**
 * The one lifecycle stepper: it steps any of the three tables (a client request per call, a
 * server handler per request received, the connection), appends the state event, and reports
 * a step the table does not have as an `error` event. The run loop tells it what happened;
 * the tables decide what that means. The connection table is stepped by the trace itself:
 * every appended event is observed here, and the handshake's request and answer are found in
 * the trace index.
 */
import {
  can,
  clientRequestMachine,
  connectionMachine,
  serverHandlerMachine,
  stepMachine,
  type ClientRequestEvent,
  type ClientRequestState,
  type ConnectionEventName,
  type ConnectionState,
  type MachineDef,
  type ServerHandlerEvent,
  type ServerHandlerState,
  type Transition,
} from '../machines/index.ts';
import { ReverseLifecycles } from './reverse-lifecycles.ts';
import { idKey, type ConnectionEvent, type IndexedRequest, type NewTraceEvent, type RequestId, type TraceEvent, type TraceIndex } from '../trace/index.ts';

interface CallRecord {
  requestId: RequestId | null;
  /** The connection the call was made on: request ids start again on each connection. */
  connection: number;
  state: ClientRequestState;
}

interface HandlerRecord {
  requestId: RequestId;
  state: ServerHandlerState;
  /** Whether the server wrote a response for it (python-sdk 1.x answers before the handler ends). */
  answered: boolean;
  /** Whether its request's signal aborted. */
  signalAborted: boolean;
}

/**
 * The requests that open a connection, each with the field its result must have for the client
 * to take it. The SDK validates a handshake result; one without it (a forged result) fails the
 * client's connect, and the client closes the connection, as after an error.
 */
const HANDSHAKE_RESULT_FIELD: ReadonlyMap<string, string> = new Map([
  ['initialize', 'protocolVersion'],
  ['server/discover', 'supportedVersions'],
]);

function refusesHandshake(method: string, answer: { error?: unknown; result?: unknown }): boolean {
  if (answer.error !== undefined) return true;
  const field = HANDSHAKE_RESULT_FIELD.get(method);
  return field === undefined || answer.result === null || typeof answer.result !== 'object' || !(field in answer.result);
}

/** Which transport events step the connection (stream and session bookkeeping does not). */
const CONNECTION_EVENTS: Partial<Record<ConnectionEvent['event'], ConnectionEventName>> = {
  connected: 'connected',
  disconnected: 'disconnected',
  crashed: 'crashed',
  reconnecting: 'reconnecting',
};

export class Lifecycles {
  private readonly calls = new Map<string, CallRecord>();
  /**
   * By request id key, on the present connection: one handler per request received, oldest
   * first. A client that writes the same request twice (a duplicated tools/call) gets two
   * handlers for one id, as the SDK runs one per request it reads.
   */
  private readonly handlers = new Map<string, HandlerRecord[]>();
  /** The handlers that returned or threw in the server's present step. */
  private finished: HandlerRecord[] = [];
  private connection: ConnectionState = connectionMachine.initial;
  /** The handshake request of the present connection, as the trace index holds it. */
  private handshake: IndexedRequest | undefined;
  private readonly append: (event: NewTraceEvent) => void;
  private readonly index: TraceIndex;
  private readonly now: () => number;
  /** The requests the server sends the client, and the client's handlers of them. */
  private readonly reverse: ReverseLifecycles;

  constructor(append: (event: NewTraceEvent) => void, index: TraceIndex, now: () => number) {
    this.append = append;
    this.index = index;
    this.now = now;
    this.reverse = new ReverseLifecycles(append, index, now);
  }

  /** Where the present connection's lifecycle stands. */
  get connectionState(): ConnectionState {
    return this.connection;
  }

  /**
   * Steps `def` from `state` on `event` and records the change with `record`; a step the table
   * lacks becomes an error event naming `subject`, and the state stays.
   */
  private step<S extends string, E extends string>(
    def: MachineDef<S, E>,
    state: S,
    event: E,
    subject: string,
    record: (transition: Transition<S, E>) => NewTraceEvent,
  ): S {
    const outcome = stepMachine(def, state, event);
    if (!outcome.ok) {
      this.append({ kind: 'error', t: this.now(), message: `${subject}: ${outcome.reason}` });
      return state;
    }
    this.append(record(outcome.transition));
    return outcome.transition.to;
  }

  // ---- client requests, one per call ----------------------------------------------------

  hasCall(call: string): boolean {
    return this.calls.has(call);
  }

  requestIdOf(call: string): RequestId | null {
    return this.calls.get(call)?.requestId ?? null;
  }

  openCall(call: string, requestId: RequestId | null, connection: number): void {
    const record: CallRecord = { requestId, connection, state: clientRequestMachine.initial };
    this.calls.set(call, record);
    this.append({ kind: 'client-state', t: this.now(), call, requestId, connection, machine: 'client-request', from: null, to: record.state, on: null, because: 'Call pressed' });
  }

  stepCall(call: string, event: ClientRequestEvent): void {
    const record = this.calls.get(call);
    if (!record) return;
    const from = record.state;
    record.state = this.step(clientRequestMachine, from, event, `call ${call}`, (tr) => ({
      kind: 'client-state',
      t: this.now(),
      call,
      requestId: record.requestId,
      connection: record.connection,
      machine: 'client-request',
      from,
      to: tr.to,
      on: event,
      because: tr.label,
    }));
  }

  /** A response for `id` reached the client on `connection`: offered to every call made there with that id. */
  responseArrived(connection: number, id: RequestId): void {
    for (const [call, record] of this.calls) {
      if (record.connection === connection && record.requestId === id && can(clientRequestMachine, record.state, 'late-response')) {
        this.stepCall(call, 'late-response');
      }
    }
  }

  // ---- server handlers, one per request received -----------------------------------------

  startHandler(requestId: RequestId, tool: string): void {
    const record: HandlerRecord = { requestId, state: serverHandlerMachine.initial, answered: false, signalAborted: false };
    const key = idKey(requestId);
    const same = this.handlers.get(key) ?? [];
    this.handlers.set(key, [...same, record]);
    const because = same.length === 0 ? `request received (${tool})` : `the same request received again (${tool}): another handler for this id`;
    this.append({ kind: 'server-state', t: this.now(), requestId, machine: 'server-handler', from: null, to: record.state, on: null, because });
  }

  /**
   * What happened to a handler of `requestId`. The side names the id, not which of its
   * handlers (two when the request came twice): the newest one the table lets take the event
   * takes it (the SDK keeps one abort controller per id, the newest request's); a handler that
   * finished says whether its signal had aborted, which tells two apart. With none that can,
   * the newest one is stepped, and its missing step reported.
   */
  stepHandler(requestId: RequestId, event: ServerHandlerEvent, aborted?: boolean): void {
    const records = this.handlers.get(idKey(requestId)) ?? [];
    const able = records.filter((r) => can(serverHandlerMachine, r.state, event));
    const record = able.findLast((r) => aborted === undefined || r.signalAborted === aborted) ?? able.at(-1) ?? records.at(-1);
    if (record) this.stepRecord(record, event);
  }

  private stepRecord(record: HandlerRecord, event: ServerHandlerEvent): void {
    const from = record.state;
    const requestId = record.requestId;
    record.state = this.step(serverHandlerMachine, from, event, `request ${idKey(requestId)}`, (tr) => ({
      kind: 'server-state',
      t: this.now(),
      requestId,
      machine: 'server-handler',
      from,
      to: tr.to,
      on: event,
      because: tr.label,
    }));
    if (event === 'response-sent') record.answered = true;
    if (event === 'cancel-seen') record.signalAborted = true;
    if (event === 'return' || event === 'throw') this.finished.push(record);
  }

  private offerHandler(record: HandlerRecord, event: ServerHandlerEvent): void {
    if (can(serverHandlerMachine, record.state, event)) this.stepRecord(record, event);
  }

  /** The server process exited: every handler the table lets crash, crashes. */
  serverExited(): void {
    for (const records of this.handlers.values()) for (const record of records) this.offerHandler(record, 'crash');
  }

  /**
   * A side's step is over (the client's handlers: reverse-lifecycles.ts). A server handler that
   * finished in it and has not been answered in the step is settled by what the wire showed: whether the server had written a response for it
   * before (a forged frame is not the server's, so it never counts), and whether its signal had
   * aborted (a result suppressed after a cancel, or one with nowhere to go).
   */
  stepEnded(side: 'client' | 'server'): void {
    if (side === 'client') {
      this.reverse.stepEnded();
      return;
    }
    const finished = this.finished;
    this.finished = [];
    for (const record of finished) {
      // Unanswered: suppressed when the handler had been cancelled, undeliverable when it never was.
      this.offerHandler(record, record.answered ? 'answered-before' : record.signalAborted ? 'response-suppressed' : 'result-undeliverable');
    }
  }

  /** A new connection (and server process): request ids start again. */
  newConnection(): void {
    this.handlers.clear();
    this.reverse.clear();
  }

  // ---- the connection, stepped by the trace ---------------------------------------------

  /** Called with every event appended to the trace, after the trace index has taken it in. */
  observe(e: TraceEvent): void {
    this.reverse.observe(e);
    switch (e.kind) {
      case 'frame': {
        const request = this.index.requests.at(-1);
        if (request?.frame !== e || request.dir !== 'c2s' || !HANDSHAKE_RESULT_FIELD.has(request.method)) return;
        this.handshake = request;
        // The first handshake is the connection's own; one after a reconnect starts it again.
        this.offerConnection('handshake-sent');
        return;
      }
      case 'delivery': {
        if (e.dir !== 's2c' || e.dropped !== undefined) return;
        const answer = this.handshake?.responses.find((r) => r.frame.frame === e.frame);
        if (!answer || !this.handshake) return;
        const method = this.handshake.method;
        const event = refusesHandshake(method, answer.msg) ? 'handshake-error' : method === 'initialize' ? 'initialize-result' : 'discover-result';
        // Only the answer to the handshake under way moves the connection.
        this.offerConnection(event);
        return;
      }
      case 'connection': {
        const event = CONNECTION_EVENTS[e.event];
        if (event !== undefined) this.stepConnection(event);
        return;
      }
      default:
        return;
    }
  }

  private offerConnection(event: ConnectionEventName): void {
    if (can(connectionMachine, this.connection, event)) this.stepConnection(event);
  }

  private stepConnection(event: ConnectionEventName): void {
    const from = this.connection;
    this.connection = this.step(connectionMachine, from, event, 'connection', (tr) => ({
      kind: 'connection-state',
      t: this.now(),
      machine: 'connection',
      from,
      to: tr.to,
      on: event,
      because: tr.label,
    }));
  }
}
