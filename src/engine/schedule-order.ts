/**
 * Which event the run takes next: the earliest, and among events due at the same virtual
 * millisecond the tie rule's first — unless the scenario's schedule space lets same-instant
 * events go in another order, when the schedule chooses.
 *
 * Tie rule (several events due at the same virtual millisecond), in this order:
 *   1. timers: the client's before the server's (one timer per step, earliest first);
 *   2. frame arrivals, in the order the frames were written;
 *   3. user actions, in the order they were scheduled.
 * Timers come first because a side cannot be moved to an instant without firing the timers
 * due at it; user actions come last so that "Stop at t" sees everything the wire brought at t.
 *
 * Timers are never reordered: a side cannot be moved to an instant without firing the timers
 * due at it. Among the frames and actions due together, only events that touch the same request
 * (or the whole connection) are offered out of order; moving an event past others it does not
 * touch gives the same run (partial-order reduction), so it is no choice at all. Nor does a frame
 * overtake one written before it on its byte stream (wire.ts).
 */
import type { JsonRpcMessage, RequestId, WireFrame } from '../trace/index.ts';
import type { Actions, PendingAction } from './actions.ts';
import type { SideName } from './lookahead.ts';
import type { Schedule } from './schedule.ts';
import { channelOf, type InFlight, type Wire } from './wire.ts';

export type NextEvent =
  | { kind: 'timer'; t: number; side: SideName }
  | { kind: 'frame'; t: number; frame: InFlight }
  | { kind: 'action'; t: number; action: PendingAction };

const EVENT_CLASS = { timer: 0, frame: 1, action: 2 } as const;

/** What the order reads off the run: its sides' next timers, the wire, the actions due, and what names a request. */
export interface Agenda {
  timers: Record<SideName, number | null>;
  wire: Pick<Wire, 'next' | 'dueAt'>;
  actions: Pick<Actions, 'due'>;
  messageOf(wire: WireFrame): JsonRpcMessage | null;
  requestIdOf(call: string): RequestId | null;
}

/** Does the tie rule run `a` before `b`? */
function before(a: NextEvent, b: NextEvent): boolean {
  if (a.t !== b.t) return a.t < b.t;
  if (a.kind !== b.kind) return EVENT_CLASS[a.kind] < EVENT_CLASS[b.kind];
  if (a.kind === 'timer' && b.kind === 'timer') return a.side === 'client' && b.side === 'server';
  if (a.kind === 'frame' && b.kind === 'frame') return a.frame.frame < b.frame.frame;
  if (a.kind === 'action' && b.kind === 'action') return a.action.order < b.action.order;
  return false;
}

function idOf(e: NextEvent): string {
  return e.kind === 'timer' ? `timer ${e.side}` : e.kind === 'frame' ? `frame ${e.frame.frame}` : `action ${e.action.order}`;
}

function conflict(a: string[] | null, b: string[] | null): boolean {
  return a === null || b === null || a.some((k) => b.includes(k));
}

export class EventOrder {
  private readonly schedule: Schedule;
  private readonly agenda: Agenda;
  /** The last tie decided: asked again for the same events, the run gets the same answer. */
  private decided: { key: string; pick: string } | null = null;

  constructor(schedule: Schedule, agenda: Agenda) {
    this.schedule = schedule;
    this.agenda = agenda;
  }

  next(): NextEvent | null {
    const { timers, wire, actions } = this.agenda;
    // The tie rule's first, each kind offered in the rule's order so that a later one wins only
    // by being earlier (or, among actions, scheduled before): an event is built only when it
    // leads, since this runs once per step.
    let first: NextEvent | null = null;
    if (timers.client !== null) first = { kind: 'timer', t: timers.client, side: 'client' };
    if (timers.server !== null && (first === null || timers.server < first.t)) first = { kind: 'timer', t: timers.server, side: 'server' };
    const frame = wire.next();
    if (frame !== null && frame.deliverAt !== null && (first === null || frame.deliverAt < first.t)) first = { kind: 'frame', t: frame.deliverAt, frame };
    for (const action of actions.due) {
      const t = action.step.at;
      if (first === null || t < first.t || (t === first.t && first.kind === 'action' && action.order < first.action.order)) first = { kind: 'action', t, action };
    }
    if (first === null || first.kind === 'timer' || !this.schedule.ties) return first;
    return this.tie(first);
  }

  /** Among the frames and actions due with `first`, the one the schedule runs first. */
  private tie(first: NextEvent): NextEvent {
    const agenda = this.agenda;
    const t = first.t;
    const due: NextEvent[] = [
      ...agenda.wire.dueAt(t).map((f): NextEvent => ({ kind: 'frame', t, frame: f })),
      ...agenda.actions.due.filter((a) => a.step.at === t).map((a): NextEvent => ({ kind: 'action', t, action: a })),
    ].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    if (due.length < 2) return first;
    const touched = due.map((e) => touchesOf(e, agenda.messageOf, agenda.requestIdOf));
    // Event j may go first only if it touches one of the events the tie rule runs before it, and,
    // for a frame, if none of them was written before it on its byte stream (which delivers in order).
    const options = due.filter((e, j) => j === 0 || (!behindOnItsStream(due.slice(0, j), e) && touched.slice(0, j).some((k) => conflict(k, touched[j] ?? null))));
    if (options.length < 2) return first;
    const key = `${t}|${due.map(idOf).join(',')}`;
    if (this.decided?.key === key) return options.find((e) => idOf(e) === this.decided?.pick) ?? first;
    const choice = this.schedule.choose('tie', options.length, () => `which of ${options.map(idOf).join(', ')} runs first at ${t} ms`);
    const pick = options[choice] ?? first;
    this.decided = { key, pick: idOf(pick) };
    return pick;
  }
}

/** Is `e` a frame that one of `earlier` precedes on the same byte stream (wire.ts's channelOf)? */
function behindOnItsStream(earlier: readonly NextEvent[], e: NextEvent): boolean {
  if (e.kind !== 'frame') return false;
  const channel = channelOf(e.frame.dir, e.frame.connection, e.frame.wire);
  return earlier.some((x) => x.kind === 'frame' && channelOf(x.frame.dir, x.frame.connection, x.frame.wire) === channel);
}

/** Ids a message names: its own, the one it cancels, the progress token it reports on. */
function idsOf(msg: JsonRpcMessage | null): string[] | null {
  if (!msg) return null;
  const params = msg.params ?? {};
  const ids = [msg.id, params.requestId, params.progressToken].filter((id) => typeof id === 'string' || typeof id === 'number').map((id) => `id ${JSON.stringify(id)}`);
  return ids.length > 0 ? ids : null;
}

/**
 * The requests an event touches, or null when it may touch the whole connection (a frame that
 * names no request, a hold, a crash, a forged message). A new call touches only itself.
 */
function touchesOf(event: NextEvent, messageOf: (wire: WireFrame) => JsonRpcMessage | null, requestIdOf: (call: string) => RequestId | null): string[] | null {
  if (event.kind === 'timer') return null;
  if (event.kind === 'frame') return idsOf(messageOf(event.frame.wire));
  const action = event.action.step.action;
  switch (action.type) {
    case 'call':
      return [`call ${action.call}`];
    case 'ping':
      return ['ping'];
    case 'stop':
    case 'cancel-task':
    case 'inject-progress': {
      const id = requestIdOf(action.call);
      return [id === null ? `call ${action.call}` : `id ${JSON.stringify(id)}`];
    }
    default:
      return null;
  }
}
