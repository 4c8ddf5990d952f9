/**
 * The simulated wire between the two sides: frames in flight, each direction's latency, the
 * user's standing faults (drop, delay, duplicate, and relabelling a response head's
 * Content-Type) and holds. It decides when a frame arrives and, for a relabelled head, what
 * arrives; the coordinator decides what happens then.
 */
import type { Scenario, WireFault } from '../scenario/index.ts';
import type { Schedule } from './schedule.ts';
import { retypedHead, type Direction, type FrameEvent, type JsonRpcMessage, type WireFrame } from '../trace/index.ts';

export interface InFlight {
  frame: number;
  dir: Direction;
  wire: WireFrame;
  /** Null while held. */
  deliverAt: number | null;
  connection: number;
}

/** What the wire did to a frame when it was written: its delivery time and any fault. */
interface Placement {
  deliverAt: number | null;
  fault?: FrameEvent['fault'];
  /** A duplicate to write right after it (the 'duplicate' fault). */
  duplicate: boolean;
}

/** A response head a 'content-type' fault relabelled: what the wire carries, and the server's own Content-Type. */
interface Retyped {
  wire: WireFrame;
  retypedFrom: string;
}

function matches(fault: WireFault, msg: JsonRpcMessage | null): boolean {
  if (fault.match === undefined) return true;
  if (!msg) return false;
  if (fault.match === 'response') return msg.method === undefined && msg.id !== undefined;
  return msg.method === fault.match;
}

/** Is `a` delivered after `b`: later, or at the same instant and written after it? */
function later(a: InFlight, b: InFlight): boolean {
  return (a.deliverAt ?? 0) > (b.deliverAt ?? 0) || (a.deliverAt === b.deliverAt && a.frame > b.frame);
}

/**
 * The ordered byte stream a frame travels: on stdio the pipe of its direction, on HTTP its
 * request's or response's own stream (separate POSTs, and the responses to them, may overtake
 * one another; the parts of one may not).
 */
export function channelOf(dir: Direction, connection: number, wire: WireFrame): string {
  return `${connection} ${dir} ${wire.http?.stream ?? 'pipe'}`;
}

/** A 'content-type' fault matches a response head by the method of the request POSTed on its stream. */
function matchesHead(fault: WireFault, wire: WireFrame, posted: string | undefined): boolean {
  return wire.http?.part === 'response-head' && (fault.match === undefined || fault.match === posted);
}

export class Wire {
  private readonly latency: Scenario['latency'];
  private readonly faults: readonly WireFault[];
  private readonly faultHits: number[];
  private readonly held = new Set<Direction>();
  /**
   * The frames in flight each way, in delivery order (the next one first), and those held: a
   * run may have thousands in flight, and the next is asked for at every step.
   */
  private readonly queues: Record<Direction, InFlight[]> = { c2s: [], s2c: [] };
  private readonly heldFrames: Record<Direction, InFlight[]> = { c2s: [], s2c: [] };
  private nextFrameNo = 0;
  /** The latest delivery time given to a frame on each ordered channel (channelOf). */
  private readonly channelLast = new Map<string, number>();
  /** The schedule's choices of a frame's latency and fate, where the scenario's space has them. */
  private readonly choices: Schedule | null;

  constructor(scenario: Scenario, choices: Schedule | null = null) {
    this.choices = choices;
    this.latency = scenario.latency;
    this.faults = scenario.faults ?? [];
    this.faultHits = this.faults.map(() => 0);
  }

  private latencyOf(dir: Direction): number {
    return dir === 'c2s' ? this.latency.c2s : this.latency.s2c;
  }

  /**
   * Puts a frame on the wire at `now`. The user's faults and holds apply to what the sides
   * write, not to frames the user forges (those go exactly as asked). `posted` is the method
   * of the request POSTed on the frame's HTTP stream, for a response head.
   */
  write(
    now: number,
    dir: Direction,
    wire: WireFrame,
    msg: JsonRpcMessage | null,
    connection: number,
    forged: boolean,
    posted?: string,
  ): InFlight & Placement & { marks: Pick<FrameEvent, 'fault' | 'retypedFrom'> } {
    const frame = this.nextFrameNo++;
    const chosen = this.choices?.frame(frame, dir, msg, this.latencyOf(dir), forged) ?? { latency: this.latencyOf(dir), fate: 'deliver' };
    let placement: Placement = { deliverAt: now + chosen.latency, duplicate: false };
    const retyped = forged ? undefined : this.retype(dir, wire, posted);
    if (!forged) placement = this.place(now, dir, msg, placement);
    // A drop or a duplicate the schedule chose, where no hold or fault already decided the frame's fate.
    if (placement.fault === undefined && !placement.duplicate) {
      if (chosen.fate === 'drop') placement = { deliverAt: null, fault: 'dropped', duplicate: false };
      else if (chosen.fate === 'duplicate') placement = { ...placement, duplicate: true };
    }
    if (placement.deliverAt !== null) placement = { ...placement, deliverAt: this.inOrder(channelOf(dir, connection, wire), placement.deliverAt) };
    const entry: InFlight = { frame, dir, wire: retyped?.wire ?? wire, deliverAt: placement.deliverAt, connection };
    if (placement.deliverAt !== null) this.enqueue(entry);
    else if (placement.fault === 'held') this.heldFrames[dir].push(entry);
    // A relabelled head that is also held, dropped or delayed is marked so: its timing is the larger fact.
    const fault = placement.fault ?? (retyped && 'retyped');
    const marks = { ...(fault && { fault }), ...(retyped && { retypedFrom: retyped.retypedFrom }) };
    return { ...entry, ...placement, marks };
  }

  /**
   * A frame arrives no sooner than the one written before it on its channel: a byte stream
   * delivers in order, whatever latency each frame drew (the explorer's ranges give each frame
   * its own) or a delay fault gave it, which then holds back what follows, as a slow pipe does.
   */
  private inOrder(channel: string, deliverAt: number): number {
    const at = Math.max(deliverAt, this.channelLast.get(channel) ?? deliverAt);
    this.channelLast.set(channel, at);
    return at;
  }

  /** The head as the first matching 'content-type' fault relabels it, or undefined. */
  private retype(dir: Direction, wire: WireFrame, posted: string | undefined): Retyped | undefined {
    for (const [i, fault] of this.faults.entries()) {
      if (fault.action !== 'content-type' || fault.dir !== dir || !matchesHead(fault, wire, posted)) continue;
      const hit = (this.faultHits[i] ?? 0) + 1;
      this.faultHits[i] = hit;
      if (fault.nth !== undefined && fault.nth !== hit) continue;
      const from = wire.http?.headers?.['content-type'] ?? '';
      const to = fault.contentType ?? '';
      // The label the server wrote already: nothing is relabelled, nothing to mark.
      return from === to ? undefined : { wire: retypedHead(wire, to), retypedFrom: from };
    }
    return undefined;
  }

  private place(now: number, dir: Direction, msg: JsonRpcMessage | null, normal: Placement): Placement {
    if (this.held.has(dir)) return { deliverAt: null, fault: 'held', duplicate: false };
    for (const [i, fault] of this.faults.entries()) {
      if (fault.action === 'content-type' || fault.dir !== dir || !matches(fault, msg)) continue;
      const hit = (this.faultHits[i] ?? 0) + 1;
      this.faultHits[i] = hit;
      if (fault.nth !== undefined && fault.nth !== hit) continue;
      switch (fault.action) {
        case 'drop':
          return { deliverAt: null, fault: 'dropped', duplicate: false };
        case 'delay':
          return { deliverAt: (normal.deliverAt ?? now) + (fault.ms ?? 0), fault: 'delayed', duplicate: false };
        case 'duplicate':
          return { ...normal, duplicate: true };
      }
    }
    return normal;
  }

  hold(dir: Direction): void {
    this.held.add(dir);
  }

  /** Lets held frames go, in the order written, each arriving one latency after the release. */
  release(now: number, dir: Direction): void {
    this.held.delete(dir);
    for (const f of this.heldFrames[dir]) {
      f.deliverAt = now + this.latencyOf(dir);
      this.enqueue(f);
    }
    this.heldFrames[dir] = [];
  }

  /** Puts a frame in its direction's queue, in delivery order (almost always at the end). */
  private enqueue(f: InFlight): void {
    const queue = this.queues[f.dir];
    let i = queue.length;
    while (i > 0 && later(queue[i - 1] as InFlight, f)) i--;
    queue.splice(i, 0, f);
  }

  /** The frame due first (ties: the one written first). */
  next(): InFlight | null {
    const c2s = this.queues.c2s[0];
    const s2c = this.queues.s2c[0];
    if (!c2s || !s2c) return c2s ?? s2c ?? null;
    return later(c2s, s2c) ? s2c : c2s;
  }

  /** Every frame due exactly at `t` (not held), both ways, in the order written. */
  dueAt(t: number): InFlight[] {
    const at = [...this.queues.c2s, ...this.queues.s2c].filter((f) => f.deliverAt === t);
    return at.sort((a, b) => a.frame - b.frame);
  }

  /** The first `most` frames due in `dir` (not held) that `keep` accepts, in delivery order. */
  due(dir: Direction, most: number, keep: (f: InFlight) => boolean = () => true): InFlight[] {
    const first: InFlight[] = [];
    for (const f of this.queues[dir]) {
      if (first.length >= most) break;
      if (keep(f)) first.push(f);
    }
    return first;
  }

  take(frame: InFlight): void {
    const queue = this.queues[frame.dir];
    const i = queue.indexOf(frame);
    if (i >= 0) queue.splice(i, 1);
  }
}
