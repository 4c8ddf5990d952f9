/**
 * What the coordinator and a side (the client or the server, each in its own worker) say to
 * each other. The side runs only when the coordinator tells it to, at one virtual instant,
 * until it is quiet; it answers with what it wrote and did, in order, and its next timer.
 */
import type { HandlerNote, RequestId, UserAction, WireFrame } from '../trace/index.ts';
import type { ClientHandlers, ClientProfile, HttpServerShape, Negotiation, Revision, ServerProfile, TransportKind } from '../scenario/index.ts';

export type SideOutput = ({ kind: 'send' } & WireFrame) | { kind: 'note'; note: HandlerNote };

export interface StepResult {
  out: SideOutput[];
  /** Virtual time of the side's earliest pending timer, or null when it has none. */
  nextTimerAt: number | null;
}

export interface SideConfig {
  revision: Revision;
  transport: TransportKind;
  /** Which of the SDK's two Streamable HTTP server shapes serves a 2025-era client. */
  httpServer: HttpServerShape;
  serverProfile: ServerProfile;
  clientProfile: ClientProfile;
  connectTimeoutMs?: number;
  /** How the client's handlers of the server's requests behave. */
  clientHandlers?: ClientHandlers;
  /** Each side's supported revisions and the client's negotiation mode; both support `revision` alone when absent. */
  negotiation?: Negotiation;
  /** Sessionful Streamable HTTP: the server keeps an event store (and sends `retry` when set). */
  resumable?: { retryMs?: number };
}

export type ClientAction =
  | Extract<UserAction, { type: 'call' }>
  | { type: 'stop'; call: string }
  | { type: 'cancel-task'; call: string }
  | { type: 'disconnect' }
  | { type: 'ping' }
  | { type: 'reconnect' };

export interface SideApi<A> {
  /**
   * Starts a run (t = 0) or a new process/connection within one (t > 0): sets the worker's clock
   * to t with no timers, drops the previous objects, builds the SDK objects (the client starts
   * connecting). A worker can serve many runs, one at a time.
   */
  init(config: SideConfig, t: number): Promise<StepResult>;
  /** A frame arrives from the wire at virtual time `t`. */
  deliver(t: number, frame: WireFrame): Promise<StepResult>;
  /** Fires the side's earliest timer, which is due at `t`. */
  fireTimer(t: number): Promise<StepResult>;
  /** A user action at virtual time `t`. */
  act(t: number, action: A): Promise<StepResult>;
  /**
   * Several steps in one round trip (lookahead.ts): the side's own timers and the frames in
   * `plan`, each step exactly as `fireTimer` or `deliver` would run it, in the order the
   * coordinator would ask for them. A side without it is asked one step at a time.
   */
  batch?(plan: BatchPlan): Promise<BatchStep[]>;
}

/** What a side may run ahead of the coordinator: nothing else can reach it before `before`. */
export interface BatchPlan {
  /** The instant of its first step. */
  from: number;
  /** The frames the wire delivers to this side before `before`, in delivery order. */
  deliveries: { t: number; frame: number; wire: WireFrame }[];
  /** Steps due at or after this instant are not run (nor any after `through`). */
  before: number;
  through: number;
  /** At most this many steps (a side whose timers fire again and again at one instant). */
  most: number;
  /** The batch ends after a step that notes one of these: they change what reaches the side next. */
  stopOn: HandlerNote['type'][];
}

/** One step of a batch: which event it was, and what the side did (or the error it threw). */
export type BatchStep = ({ kind: 'timer'; t: number } | { kind: 'frame'; t: number; frame: number }) & ({ result: StepResult } | { error: string });

/** What the user makes the server do: crash (stdio), or on sessionful Streamable HTTP close a request's SSE stream or forget the session. */
export type ServerAction = { type: 'crash' } | { type: 'close-stream'; requestId: RequestId } | { type: 'expire-session'; outageMs?: number };

export type ClientSideApi = SideApi<ClientAction>;
export type ServerSideApi = SideApi<ServerAction>;

/**
 * `side` with each of its steps run through `wrap`: a worker's death raced against it, a turn
 * in a shared worker. One place for the methods (and `batch`, where the side has it), so a host
 * adds its rule to all of them.
 */
export function wrapSteps<A>(side: Required<SideApi<A>>, wrap: StepWrap): Required<SideApi<A>>;
export function wrapSteps<A>(side: SideApi<A>, wrap: StepWrap): SideApi<A>;
export function wrapSteps<A>(side: SideApi<A>, wrap: StepWrap): SideApi<A> {
  const { batch } = side;
  return {
    init: (config, t) => wrap(() => side.init(config, t)),
    deliver: (t, frame) => wrap(() => side.deliver(t, frame)),
    fireTimer: (t) => wrap(() => side.fireTimer(t)),
    act: (t, action) => wrap(() => side.act(t, action)),
    // A side in the coordinator's own thread has no batches (workers/runtime.ts withBatches).
    ...(batch && { batch: (plan: BatchPlan) => wrap(() => batch.call(side, plan)) }),
  };
}

type StepWrap = <T>(step: () => Promise<T>) => Promise<T>;
