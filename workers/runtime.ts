/**
 * The part of a side that is the same for client and server: a virtual clock that owns every
 * timer of the side (side-globals.ts), the wire-facing MCP transport, and the "run until quiet" step.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { HandlerNote, WireFrame } from '../src/trace/index.ts';
import type { BatchPlan, BatchStep, SideApi, SideConfig, SideOutput, StepResult } from '../src/engine/index.ts';
import { SideClock, installSideGlobals } from './side-globals.ts';

/** One side's state in this thread: its clock and randomness, what it wrote this step, whether its process died. */
export class SideState extends SideClock {
  out: SideOutput[] = [];
  /** Set when this side's emulated process has died: nothing it does reaches anyone any more. */
  dead = false;
  /** How a step of this side ends (settlingFor). */
  settling: Settling = 'quiet-turns';
}

/**
 * How a step ends. On stdio a side's work is promise work and virtual timers only, so all of it
 * has run once the microtask queue is empty, however long the chain: one turn (oneTurn), and
 * no turn more to see that nothing changed. Over HTTP the SDK reads request and response
 * bodies, which a browser may finish in a task of its own: there a step ends once two turns in
 * a row find nothing new.
 */
type Settling = 'one-turn' | 'quiet-turns';
const QUIET_TURNS = 2;

function settlingFor(config: SideConfig): Settling {
  return config.transport === 'stdio' ? 'one-turn' : 'quiet-turns';
}

/**
 * The side whose code is running. A worker holds one side, so by default that is the only one;
 * with both sides in one thread (sides.node.ts) the host says which, per step.
 */
const own = new SideState();
let locate: () => SideState | undefined = () => own;
installSideGlobals(() => locate());

/** Puts the sides of this thread under `locator` (call before any side runs). */
export function locateSidesWith(locator: () => SideState | undefined): void {
  locate = locator;
}

function currentSide(): SideState {
  const found = locate();
  if (!found) throw new Error('side code ran outside any side');
  return found;
}

/**
 * A macrotask after every microtask queued so far: setImmediate where there is one (Node), a
 * MessageChannel hop in a browser worker.
 */
const macrotask: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : (() => {
        const tick = new MessageChannel();
        const waiting: (() => void)[] = [];
        tick.port1.onmessage = () => waiting.shift()?.();
        return () =>
          new Promise<void>((resolve) => {
            waiting.push(resolve);
            tick.port2.postMessage(0);
          });
      })();

/** Chromium's task scheduler, which TypeScript's DOM types do not have yet. */
const taskScheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;

/** Node's tick queue (process.nextTick), where there is one. */
const nodeTicks = (globalThis as { process?: { nextTick?: (callback: () => void) => void } }).process?.nextTick;

/**
 * The turn a one-turn step waits for: until every microtask queued so far, and every one those
 * queue, has run. In Node, a tick queued from inside a microtask does that without a trip
 * round the event loop: Node runs its tick queue only once V8 has drained the microtask queue
 * to empty (processTicksAndRejections, and InternalCallbackScope::Close after a callback).
 * A warm standard run took 15% less time so than with setImmediate (medians 0.50–0.52
 * against 0.59–0.61 ms, 3,000 runs each, two processes each way), all 88 library traces the
 * same. In Chromium `scheduler.yield()` gives a task after them for about half a
 * MessageChannel hop (in a worker: 3–5 against 8–15 µs a hop; 2,000 progress steps take
 * 4,008 turns, counted headless, and the hops were 8% of the sides' worker in a Chrome
 * profile of them live). Quiet turns (HTTP) stay macrotasks: a body read there may finish in a
 * task of its own, and Chromium runs a yield's task ahead of other tasks, so two quiet turns
 * could pass before that task had run.
 */
const oneTurn: () => Promise<void> =
  nodeTicks !== undefined
    ? () => new Promise((resolve) => queueMicrotask(() => nodeTicks(resolve)))
    : typeof taskScheduler?.yield === 'function'
      ? taskScheduler.yield.bind(taskScheduler)
      : macrotask;

export function note(n: HandlerNote): void {
  const s = currentSide();
  if (!s.dead) s.out.push({ kind: 'note', note: n });
}

/** Writes a frame to the wire (the coordinator decides when it arrives). */
export function send(frame: WireFrame): void {
  const s = currentSide();
  if (!s.dead) s.out.push({ kind: 'send', ...frame });
}

function nextTimerAt(s: SideState): number | null {
  let min: number | null = null;
  for (const t of s.clock.timers?.values() ?? []) if (min === null || t.callAt < min) min = t.callAt;
  return min;
}

/** Changes whenever the side writes, notes, or sets or clears a timer (timers fire only in our own calls, before we look). */
function activity(s: SideState): string {
  return `${s.out.length}/${s.timerCalls}`;
}

/** Everything the SDK does in response to one event has run, as settlingFor says for the transport. */
async function untilQuiet(s: SideState): Promise<void> {
  if (s.settling === 'one-turn') return oneTurn();
  let quiet = 0;
  let last = activity(s);
  while (quiet < QUIET_TURNS) {
    await macrotask();
    const now = activity(s);
    if (now === last) quiet++;
    else {
      quiet = 0;
      last = now;
    }
  }
}

/** Moves the clock to `t`. The coordinator runs earlier timers first, so this fires nothing. */
function moveClockTo(s: SideState, t: number): void {
  const { clock } = s;
  if (t < clock.now) throw new Error(`virtual time ran backwards: ${clock.now} → ${t}`);
  const due = nextTimerAt(s);
  if (due !== null && due <= t) throw new Error(`timer due at ${due} would be skipped by a move to ${t}`);
  clock.tick(t - clock.now);
}

async function collect(s: SideState, work: () => void): Promise<StepResult> {
  s.out = [];
  work();
  await untilQuiet(s);
  const result: StepResult = { out: s.out, nextTimerAt: nextTimerAt(s) };
  s.out = [];
  return result;
}

/** Runs `work` at virtual time `t`, waits until the side is quiet, and hands back its output. */
export function runAt(t: number, work: () => void): Promise<StepResult> {
  const s = currentSide();
  moveClockTo(s, t);
  return collect(s, work);
}

/** Fires exactly one timer: the earliest, which the coordinator says is due at `t`. */
export function fireTimerAt(t: number): Promise<StepResult> {
  const s = currentSide();
  const due = nextTimerAt(s);
  if (due !== t) return Promise.reject(new Error(`asked to fire a timer at ${t}, earliest is ${due}`));
  // `next()` moves the clock to the timer's instant and fires that one timer only.
  return collect(s, () => s.clock.next());
}

/** The event of a batch's next step: the earliest timer, else the next frame (a timer first at a tie). */
function nextOfBatch(plan: BatchPlan, delivered: number): { kind: 'timer'; t: number } | { kind: 'frame'; t: number; frame: number; wire: WireFrame } | null {
  const timer = nextTimerAt(currentSide());
  const frame = plan.deliveries[delivered];
  if (timer !== null && timer < plan.before && timer <= plan.through && (frame === undefined || timer <= frame.t)) return { kind: 'timer', t: timer };
  return frame === undefined ? null : { kind: 'frame', ...frame };
}

/**
 * Runs the steps of `plan` one after the other, each until quiet as its own call would, and
 * hands them all back at once: one round trip instead of one per step. A step that throws
 * ends the batch with its error, as the call would have failed.
 */
async function runBatch<A>(side: SideApi<A>, plan: BatchPlan): Promise<BatchStep[]> {
  const steps: BatchStep[] = [];
  let delivered = 0;
  for (let next = nextOfBatch(plan, delivered); next !== null && steps.length < plan.most; next = nextOfBatch(plan, delivered)) {
    const event = next.kind === 'timer' ? { kind: next.kind, t: next.t } : { kind: next.kind, t: next.t, frame: next.frame };
    let result: StepResult;
    try {
      if (next.kind === 'frame') delivered++;
      result = await (next.kind === 'timer' ? side.fireTimer(next.t) : side.deliver(next.t, next.wire));
    } catch (error) {
      steps.push({ ...event, error: error instanceof Error ? error.message : String(error) });
      break;
    }
    steps.push({ ...event, result });
    if (result.out.some((o) => o.kind === 'note' && plan.stopOn.includes(o.note.type))) break;
  }
  return steps;
}

/** A side that waits as its transport needs (settlingFor), for a coordinator in its own thread. */
export function settling<A>(side: SideApi<A>): SideApi<A> {
  return {
    ...side,
    init(config, t) {
      currentSide().settling = settlingFor(config);
      return side.init(config, t);
    },
  };
}

/**
 * A side behind a thread boundary (the Node worker entries): it answers `batch` too, so that a
 * coordinator in another thread asks for several steps in one round trip (lookahead.ts). A
 * coordinator in the side's own thread asks one step at a time: there is no round trip to save,
 * and planning batches made a warm standard run 1–15% slower (four processes, each timing both
 * ways in alternating rounds).
 */
export function withBatches<A>(side: SideApi<A>): Required<SideApi<A>> {
  const settled = settling(side);
  return { ...settled, batch: (plan) => runBatch(settled, plan) };
}

/**
 * `side` taking copies of its setting and actions, as a worker would get them over a port, for a
 * caller in the same thread (sides.node.ts, and the browser worker's own run): a side keeps
 * them, and hands parts of them to the SDK (the client's supported revisions, a call's
 * arguments), which must not reach back into the scenario that a search runs again and again.
 * Frames are strings it only reads.
 */
export function copyingInputs<A>(side: SideApi<A>): SideApi<A> {
  return { ...side, init: (config, t) => side.init(copyOfData(config), t), act: (t, action) => side.act(t, copyOfData(action)) };
}

/**
 * A deep copy of plain data (objects, arrays and primitives, as a setting and an action are:
 * they come from a scenario's JSON). Written here rather than structuredClone, which made a warm
 * standard run (four copies) 8–13% slower: medians 0.51–0.56 against 0.45–0.52 ms over four
 * processes, each timing both in alternating blocks.
 */
function copyOfData<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyOfData) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyOfData((value as Record<string, unknown>)[key]);
  return copy as T;
}

/**
 * Starts a new run in this worker: no pending timers, virtual time 0. Objects of an earlier
 * run are dropped by the side; their timers are gone with the reset, so none can fire later.
 */
export function resetRun(t: number): void {
  const s = currentSide();
  s.reset(t);
  s.out = [];
  s.dead = false;
}

/** The emulated process exits: its pending timers go with it, and whatever it still does is lost. */
export function kill(): void {
  const s = currentSide();
  const now = s.clock.now;
  s.clock.reset();
  s.clock.tick(now);
  s.dead = true;
}

/** The SDK's own stdio framing functions, passed in by each side from its package. */
export interface FrameCodec {
  serializeMessage(message: JSONRPCMessage): string;
  deserializeMessage(line: string): JSONRPCMessage;
}

/**
 * The MCP transport of a side: `send` writes a newline-delimited JSON frame (the stdio
 * framing) to the coordinator; `receive` parses a frame the wire delivered. Closing writes the
 * end of the stream (EOF); an EOF from the other side closes it too.
 */
export class WireTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  private closed = false;
  private peerClosed = false;
  private readonly codec: FrameCodec;

  constructor(codec: FrameCodec) {
    this.codec = codec;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('transport closed');
    send({ raw: this.codec.serializeMessage(message) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.peerClosed) send({ raw: '', eof: true });
    this.onclose?.();
  }

  receive({ raw, eof }: WireFrame): void {
    if (this.closed) return;
    if (eof) {
      this.peerClosed = true;
      void this.close();
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = this.codec.deserializeMessage(raw.endsWith('\n') ? raw.slice(0, -1) : raw);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }
}
