/**
 * The part of a side that is the same for client and server: a virtual clock that owns every
 * timer in this worker, the wire-facing MCP transport, and the "run until quiet" step.
 */
import FakeTimers from '@sinonjs/fake-timers';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { HandlerNote, WireFrame } from '../src/trace/index.ts';
import type { BatchPlan, BatchStep, SideApi, SideOutput, StepResult } from '../src/engine/index.ts';

// fake-timers keeps its pending timers in `clock.timers`; we read due times from it.
type Clock = Omit<FakeTimers.Clock, 'timers'> & { timers?: Map<number, { callAt: number }> };

/**
 * Only the timer functions and Date are faked: the SDK's request timeouts and `Date.now()`
 * arithmetic, and the tools' sleeps, all run on the virtual clock. Microtasks stay real so
 * promise chains run as they would; a real MessageChannel tells us when they have drained.
 */
const clock = FakeTimers.install({
  now: 0,
  toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
}) as unknown as Clock;

/**
 * Randomness is seeded per run, so ids the SDK draws (the sessionful HTTP transport's stream
 * ids, say) are the same on every replay. mulberry32: small, fast, good enough for ids.
 */
let seed = 1;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
Math.random = random;
Object.defineProperty(globalThis.crypto, 'randomUUID', {
  configurable: true,
  value: (): `${string}-${string}-${string}-${string}-${string}` => {
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  },
});

const tick = new MessageChannel();
let tickResolve: (() => void) | null = null;
tick.port1.onmessage = () => tickResolve?.();
function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    tickResolve = resolve;
    tick.port2.postMessage(0);
  });
}

let out: SideOutput[] = [];
/** Set when this side's emulated process has died: nothing it does reaches anyone any more. */
let dead = false;

export function note(n: HandlerNote): void {
  if (!dead) out.push({ kind: 'note', note: n });
}

/** Writes a frame to the wire (the coordinator decides when it arrives). */
export function send(frame: WireFrame): void {
  if (!dead) out.push({ kind: 'send', ...frame });
}

function timers(): { callAt: number; id: number }[] {
  return clock.timers ? [...clock.timers.entries()].map(([id, t]) => ({ id, callAt: t.callAt })) : [];
}

function nextTimerAt(): number | null {
  let min: number | null = null;
  for (const t of timers()) if (min === null || t.callAt < min) min = t.callAt;
  return min;
}

/** Changes whenever the side writes, notes, or sets or clears a timer. */
function activity(): string {
  return `${out.length}/${timers()
    .map((t) => t.id)
    .join(',')}`;
}

/**
 * Everything the SDK does in response to one event is promise work; it has all run once a
 * macrotask finds nothing new. Two quiet turns in a row guard against work that re-queues
 * itself through a macrotask (none does today, and this costs two MessageChannel hops).
 */
async function untilQuiet(): Promise<void> {
  let quietTurns = 0;
  let last = activity();
  while (quietTurns < 2) {
    await macrotask();
    const now = activity();
    if (now === last) quietTurns++;
    else {
      quietTurns = 0;
      last = now;
    }
  }
}

/** Moves the clock to `t`. The coordinator runs earlier timers first, so this fires nothing. */
function moveClockTo(t: number): void {
  if (t < clock.now) throw new Error(`virtual time ran backwards: ${clock.now} → ${t}`);
  const due = nextTimerAt();
  if (due !== null && due <= t) throw new Error(`timer due at ${due} would be skipped by a move to ${t}`);
  clock.tick(t - clock.now);
}

async function collect(work: () => void): Promise<StepResult> {
  out = [];
  work();
  await untilQuiet();
  const result: StepResult = { out, nextTimerAt: nextTimerAt() };
  out = [];
  return result;
}

/** Runs `work` at virtual time `t`, waits until the side is quiet, and hands back its output. */
export function runAt(t: number, work: () => void): Promise<StepResult> {
  moveClockTo(t);
  return collect(work);
}

/** Fires exactly one timer: the earliest, which the coordinator says is due at `t`. */
export function fireTimerAt(t: number): Promise<StepResult> {
  const due = nextTimerAt();
  if (due !== t) return Promise.reject(new Error(`asked to fire a timer at ${t}, earliest is ${due}`));
  // `next()` moves the clock to the timer's instant and fires that one timer only.
  return collect(() => clock.next());
}

/** The event of a batch's next step: the earliest timer, else the next frame (a timer first at a tie). */
function nextOfBatch(plan: BatchPlan, delivered: number): { kind: 'timer'; t: number } | { kind: 'frame'; t: number; frame: number; wire: WireFrame } | null {
  const timer = nextTimerAt();
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

/** A side that also answers `batch` (the entries expose this). */
export function withBatches<A>(side: SideApi<A>): SideApi<A> {
  return { ...side, batch: (plan) => runBatch(side, plan) };
}

/**
 * Starts a new run in this worker: no pending timers, virtual time 0. Objects of an earlier
 * run are dropped by the side; their timers are gone with the reset, so none can fire later.
 */
export function resetRun(t: number): void {
  clock.reset();
  clock.tick(t);
  seed = 1;
  out = [];
  dead = false;
}

/** The emulated process exits: its pending timers go with it, and whatever it still does is lost. */
export function kill(): void {
  const now = clock.now;
  clock.reset();
  clock.tick(now);
  dead = true;
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
      message = this.codec.deserializeMessage(raw.replace(/\n$/, ''));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }
}
