/**
 * Conservative lookahead: a side is asked for several of its steps in one round trip, when the
 * coordinator can tell that nothing else can reach it before them, and the coordinator then
 * takes their results one by one, in exactly the order it would have asked for them.
 *
 * What can reach a side: a frame from the other side (one wire latency after the other side's
 * next step, or after a frame this side writes in the batch reached it), a user action (its
 * scheduled time), and, for a strict host, a server restart at any of the client's steps. Its
 * own timers and the frames already in flight to it are known. A batch ends before the first
 * instant something unknown could arrive, and after a step that reconnects or kills a side.
 *
 * Both sides run their batches at the same time, in their own workers; the trace is the one
 * the step-by-step run writes, because each side gets the same steps at the same instants.
 */
import type { Direction, HandlerNote } from '../trace/index.ts';
import type { BatchPlan, BatchStep, StepResult } from './side-protocol.ts';
import type { InFlight } from './wire.ts';
import { SideHalt } from './bounds.ts';

export type SideName = 'client' | 'server';

/** The step the coordinator is about to run on a side. */
export type SideEvent = { kind: 'timer'; t: number } | { kind: 'frame'; t: number; frame: number };

/** Frames in flight to a side go this way; the frames it writes go the other. */
export const INTO: Record<SideName, Direction> = { client: 's2c', server: 'c2s' };

/**
 * The most steps one batch runs: enough that the round trips are a small part of the time,
 * few enough that a batch past a bound or a host's deadline is little work thrown away.
 */
export const BATCH_STEPS = 64;

/** Notes after which what reaches a side changes (its connection is replaced, or it died). */
const STOP_ON: HandlerNote['type'][] = ['reconnect-requested', 'new-session-requested', 'server-exited'];

/** What the coordinator knows now, for planning one side's batch. */
export interface Outlook {
  side: SideName;
  /** The side's earliest timer, and the other side's. */
  timer: number | null;
  otherTimer: number | null;
  /** The first frames due (not held) to the side that it will be handed, and the first due to the other. */
  toSide: readonly InFlight[];
  toOther: readonly InFlight[];
  latency: Record<Direction, number>;
  /** The earliest user action scheduled, or null. */
  nextAction: number | null;
  /** Can a step of the client restart the server at that very instant (the strict host)? */
  clientRestartsServer: boolean;
  /** No step is planned after this instant (the end of the coordinator's runUntil). */
  through: number;
}

function earliest(...times: (number | null | undefined)[]): number | null {
  let min: number | null = null;
  for (const t of times) if (t !== null && t !== undefined && (min === null || t < min)) min = t;
  return min;
}

/** The batch a side may run now, or null when only its next step is known to be safe. */
export function planBatch(o: Outlook): BatchPlan | null {
  const first = earliest(o.timer, o.toSide[0]?.deliverAt);
  if (first === null || first > o.through) return null;
  const out: Direction = o.side === 'client' ? 'c2s' : 's2c';
  const into = INTO[o.side];
  const otherNext = earliest(o.otherTimer, o.toOther[0]?.deliverAt);
  const before = earliest(
    otherNext === null ? null : otherNext + o.latency[into],
    first + o.latency[out] + o.latency[into],
    o.nextAction,
    // A strict host restarts the server at the client's step itself, with no latency to wait.
    o.side === 'server' && o.clientRestartsServer ? earliest(otherNext, first + o.latency[out]) : null,
  );
  if (before === null || before <= first) return null;
  // A batch runs BATCH_STEPS steps at most, so it needs no more frames than that.
  const deliveries = o.toSide.filter((f) => f.deliverAt !== null && f.deliverAt < before && f.deliverAt <= o.through).slice(0, BATCH_STEPS);
  return {
    from: first,
    deliveries: deliveries.map((f) => ({ t: f.deliverAt ?? 0, frame: f.frame, wire: f.wire })),
    before,
    through: o.through,
    most: BATCH_STEPS,
    stopOn: STOP_ON,
  };
}

/** The steps each side ran ahead, waiting to be taken in order; and the batches still running. */
export class Lookahead {
  private readonly ready: Record<SideName, BatchStep[]> = { client: [], server: [] };
  private readonly running: Record<SideName, Promise<void> | null> = { client: null, server: null };
  private failure: Record<SideName, unknown> = { client: null, server: null };

  /** Has this side steps ran ahead or a batch running (so that a direct call would be out of turn)? */
  busy(side: SideName): boolean {
    return this.running[side] !== null || this.ready[side].length > 0;
  }

  get holding(): boolean {
    return this.busy('client') || this.busy('server');
  }

  /**
   * Starts `plan` on a side that has no batch yet (false when it has one); `run` sends it, within
   * the side's deadline for `what`. Its steps are taken with `take`.
   */
  start(side: SideName, plan: BatchPlan, run: (what: string) => Promise<BatchStep[]>): boolean {
    if (this.busy(side)) return false;
    const running = run(`the steps it ran ahead from ${plan.from} ms`).then(
      (steps) => {
        this.ready[side].push(...steps);
      },
      (error: unknown) => {
        this.failure[side] = error;
      },
    );
    this.running[side] = running;
    void running.then(() => {
      if (this.running[side] === running) this.running[side] = null;
    });
    return true;
  }

  /**
   * The result of the side's next step, which must be `event`, if the side ran it ahead; null
   * when it did not. `what` names the step in a failure, as a direct call would.
   */
  async take(side: SideName, event: SideEvent, what: string): Promise<StepResult | null> {
    const running = this.running[side];
    if (running) await running;
    const failure = this.failure[side];
    if (failure !== null) {
      this.failure[side] = null;
      throw failure;
    }
    const step = this.ready[side].shift();
    if (!step) return null;
    if (step.kind !== event.kind || step.t !== event.t || (step.kind === 'frame' && event.kind === 'frame' && step.frame !== event.frame)) {
      throw new Error(`the ${side} ran ahead out of step: it ran its ${step.kind} at ${step.t} ms where the run is at its ${event.kind} at ${event.t} ms`);
    }
    if ('error' in step) throw new SideHalt('side-failed', `the ${side} failed in ${what}: ${step.error}`);
    return step.result;
  }

  /**
   * Waits for the batches still running and drops what nobody took; returns how many steps that
   * was (none, unless the run halted: a side would otherwise be ahead of the run for good).
   */
  async settle(): Promise<number> {
    await Promise.all([this.running.client, this.running.server]);
    const dropped = this.ready.client.length + this.ready.server.length;
    this.ready.client = [];
    this.ready.server = [];
    this.failure = { client: null, server: null };
    return dropped;
  }
}
