/**
 * The lifecycles of the requests the server sends the client mid-call: the server's view of
 * each (server-request) and the client's handler of it (client-handler). Stepped from the trace
 * as it grows, as the connection is: the server's request and cancel frames, the client's
 * answer reaching the server, the client handler's notes and the response frame it wrote (or
 * the end of the client's step without one). A step a table does not have becomes an `error`
 * event, as in lifecycles.ts.
 */
import {
  can,
  clientHandlerMachine,
  serverRequestMachine,
  stepMachine,
  type ClientHandlerEvent,
  type ClientHandlerState,
  type MachineDef,
  type ServerRequestEvent,
  type ServerRequestState,
  type Transition,
} from '../machines/index.ts';
import { frameEntry, idKey, type HandlerEvent, type NewTraceEvent, type RequestId, type TraceEvent, type TraceIndex } from '../trace/index.ts';

interface Subject<S> {
  requestId: RequestId;
  method: string;
  connection: number;
  state: S;
}

interface HandlerRecord extends Subject<ClientHandlerState> {
  /** Whether the client wrote a response for it. */
  answered: boolean;
}

export class ReverseLifecycles {
  /** The server's requests on the present connection, by id key. */
  private readonly requests = new Map<string, Subject<ServerRequestState>>();
  /** The client's handlers of them, by id key. */
  private readonly handlers = new Map<string, HandlerRecord>();
  /** The client handlers that returned or threw in the client's present step. */
  private finished: HandlerRecord[] = [];
  private readonly append: (event: NewTraceEvent) => void;
  private readonly index: TraceIndex;
  private readonly now: () => number;

  constructor(append: (event: NewTraceEvent) => void, index: TraceIndex, now: () => number) {
    this.append = append;
    this.index = index;
    this.now = now;
  }

  /** Called with every event appended to the trace, after the trace index has taken it in. */
  observe(e: TraceEvent): void {
    if (e.kind === 'frame') this.onFrame(e.frame, e.injected === true);
    else if (e.kind === 'delivery' && e.dir === 'c2s' && e.dropped === undefined) this.onDelivered(e.frame);
    else if (e.kind === 'handler' && e.side === 'client') this.onNote(e);
  }

  /** The client's step is over: a handler that finished in it without a response had it suppressed. */
  stepEnded(): void {
    const finished = this.finished;
    this.finished = [];
    for (const record of finished) if (!record.answered) this.offerHandler(record, 'response-suppressed');
  }

  /** A new connection: request ids start again. */
  clear(): void {
    this.requests.clear();
    this.handlers.clear();
    this.finished = [];
  }

  private onFrame(frame: number, forged: boolean): void {
    const entry = this.index.byFrame.get(frame);
    if (!entry) return;
    for (const req of entry.requests) {
      if (req.dir !== 's2c') continue;
      const record: Subject<ServerRequestState> = { requestId: req.id, method: req.method, connection: req.frame.connection, state: serverRequestMachine.initial };
      this.requests.set(idKey(req.id), record);
      this.recordRequest(record, null, null, `the server asked the client (${req.method})`);
    }
    for (const c of entry.cancels) {
      const record = c.dir === 's2c' && c.target ? this.requests.get(idKey(c.target.id)) : undefined;
      if (record && c.target?.dir === 's2c') this.offerRequest(record, 'cancel');
    }
    // A forged answer is not the client handler's.
    if (forged) return;
    for (const r of entry.responses) {
      const record = r.dir === 'c2s' && r.req?.dir === 's2c' ? this.handlers.get(idKey(r.req.id)) : undefined;
      if (!record) continue;
      record.answered = true;
      this.offerHandler(record, 'response-sent');
    }
  }

  private onDelivered(frame: number): void {
    for (const r of frameEntry(this.index, frame)?.responses ?? []) {
      const record = r.req?.dir === 's2c' ? this.requests.get(idKey(r.req.id)) : undefined;
      if (record) this.offerRequest(record, 'response');
    }
  }

  private onNote(e: HandlerEvent): void {
    const note = e.note;
    if (note.type === 'client-handler-started') {
      const connection = this.index.connection;
      const record: HandlerRecord = { requestId: note.requestId, method: note.method, connection, state: clientHandlerMachine.initial, answered: false };
      this.handlers.set(idKey(note.requestId), record);
      this.recordHandler(record, null, null, `request received (${note.method})`);
      return;
    }
    const event: ClientHandlerEvent | undefined =
      note.type === 'client-handler-cancel-seen' ? 'cancel-seen' : note.type === 'client-handler-returned' ? 'return' : note.type === 'client-handler-threw' ? 'throw' : undefined;
    const record = event && 'requestId' in note ? this.handlers.get(idKey(note.requestId)) : undefined;
    if (!event || !record) return;
    this.stepHandler(record, event);
    if (event === 'return' || event === 'throw') this.finished.push(record);
  }

  private offerRequest(record: Subject<ServerRequestState>, event: ServerRequestEvent): void {
    if (can(serverRequestMachine, record.state, event)) this.stepRequest(record, event);
  }

  private offerHandler(record: HandlerRecord, event: ClientHandlerEvent): void {
    if (can(clientHandlerMachine, record.state, event)) this.stepHandler(record, event);
  }

  private stepRequest(record: Subject<ServerRequestState>, event: ServerRequestEvent): void {
    const from = record.state;
    const to = this.next(serverRequestMachine, record, event);
    if (to === undefined) return;
    record.state = to.to;
    this.recordRequest(record, from, event, to.label);
  }

  private stepHandler(record: HandlerRecord, event: ClientHandlerEvent): void {
    const from = record.state;
    const to = this.next(clientHandlerMachine, record, event);
    if (to === undefined) return;
    record.state = to.to;
    this.recordHandler(record, from, event, to.label);
  }

  /** The transition `event` takes, or undefined (and an error event) when the table lacks it. */
  private next<S extends string, E extends string>(def: MachineDef<S, E>, record: Subject<S>, event: E): Transition<S, E> | undefined {
    const outcome = stepMachine(def, record.state, event);
    if (outcome.ok) return outcome.transition;
    this.append({ kind: 'error', t: this.now(), message: `${def.id} ${idKey(record.requestId)}: ${outcome.reason}` });
    return undefined;
  }

  private recordRequest(record: Subject<ServerRequestState>, from: ServerRequestState | null, on: ServerRequestEvent | null, because: string): void {
    const { requestId, method, connection, state } = record;
    this.append({ kind: 'server-request-state', t: this.now(), requestId, method, connection, machine: 'server-request', from, to: state, on, because });
  }

  private recordHandler(record: HandlerRecord, from: ClientHandlerState | null, on: ClientHandlerEvent | null, because: string): void {
    const { requestId, method, connection, state } = record;
    this.append({ kind: 'client-handler-state', t: this.now(), requestId, method, connection, machine: 'client-handler', from, to: state, on, because });
  }
}
