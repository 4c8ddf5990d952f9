/**
 * The simulated wire between the two sides: frames in flight, each direction's latency, the
 * user's standing faults (drop, delay, duplicate) and holds. It decides when a frame arrives;
 * the coordinator decides what happens then.
 */
import type { Scenario, WireFault } from '../scenario/index.ts';
import type { Direction, FrameEvent, JsonRpcMessage, WireFrame } from '../trace/index.ts';

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

function matches(fault: WireFault, msg: JsonRpcMessage | null): boolean {
  if (fault.match === undefined) return true;
  if (!msg) return false;
  if (fault.match === 'response') return msg.method === undefined && msg.id !== undefined;
  return msg.method === fault.match;
}

export class Wire {
  private readonly latency: Scenario['latency'];
  private readonly faults: readonly WireFault[];
  private readonly faultHits: number[];
  private readonly held = new Set<Direction>();
  private inFlight: InFlight[] = [];
  private nextFrameNo = 0;

  constructor(scenario: Scenario) {
    this.latency = scenario.latency;
    this.faults = scenario.faults ?? [];
    this.faultHits = this.faults.map(() => 0);
  }

  private latencyOf(dir: Direction): number {
    return dir === 'c2s' ? this.latency.c2s : this.latency.s2c;
  }

  /**
   * Puts a frame on the wire at `now`. The user's faults and holds apply to what the sides
   * write, not to frames the user forges (those go exactly as asked).
   */
  write(now: number, dir: Direction, wire: WireFrame, msg: JsonRpcMessage | null, connection: number, forged: boolean): InFlight & Placement {
    const frame = this.nextFrameNo++;
    let placement: Placement = { deliverAt: now + this.latencyOf(dir), duplicate: false };
    if (!forged) placement = this.place(now, dir, msg, placement);
    const entry: InFlight = { frame, dir, wire, deliverAt: placement.deliverAt, connection };
    if (placement.deliverAt !== null || placement.fault === 'held') this.inFlight.push(entry);
    return { ...entry, ...placement };
  }

  private place(now: number, dir: Direction, msg: JsonRpcMessage | null, normal: Placement): Placement {
    if (this.held.has(dir)) return { deliverAt: null, fault: 'held', duplicate: false };
    for (const [i, fault] of this.faults.entries()) {
      if (fault.dir !== dir || !matches(fault, msg)) continue;
      const hit = (this.faultHits[i] ?? 0) + 1;
      this.faultHits[i] = hit;
      if (fault.nth !== undefined && fault.nth !== hit) continue;
      switch (fault.action) {
        case 'drop':
          return { deliverAt: null, fault: 'dropped', duplicate: false };
        case 'delay':
          return { deliverAt: now + this.latencyOf(dir) + (fault.ms ?? 0), fault: 'delayed', duplicate: false };
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
    for (const f of this.inFlight) if (f.dir === dir && f.deliverAt === null) f.deliverAt = now + this.latencyOf(dir);
  }

  /** The frame due first (ties: the one written first). */
  next(): InFlight | null {
    let best: InFlight | null = null;
    for (const f of this.inFlight) {
      if (f.deliverAt === null) continue;
      if (!best || f.deliverAt < (best.deliverAt ?? Infinity) || (f.deliverAt === best.deliverAt && f.frame < best.frame)) best = f;
    }
    return best;
  }

  /** Frames in flight in `dir` that are due (not held), in delivery order. */
  due(dir: Direction): InFlight[] {
    return this.inFlight.filter((f) => f.dir === dir && f.deliverAt !== null).sort((a, b) => (a.deliverAt ?? 0) - (b.deliverAt ?? 0) || a.frame - b.frame);
  }

  take(frame: InFlight): void {
    this.inFlight = this.inFlight.filter((f) => f !== frame);
  }
}
