/**
 * What a run came to, in one line the explorer counts schedules by: how each call ended (and
 * whether its response and its cancel crossed on the wire), whether the client never got
 * through the handshake, whether the server survived, and whether the ledger committed. Read
 * off the trace index and the call views, as the panels are.
 */
import { indexTrace, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import { callViews, ledger, negotiated } from '../views/index.ts';

/** Where in the trace a frame reached the other side (its delivery's seq); never, for one dropped or still in flight. */
function arrival(index: TraceIndex, frame: number): number {
  const d = index.delivery.get(frame);
  return d === undefined || d.dropped !== undefined ? Number.POSITIVE_INFINITY : d.seq;
}

/**
 * Did a response to the call's request and a cancel of it cross: each written before the other
 * arrived (race R2: the server answered while the cancel was on its way, and the answer was
 * still on its way when the client cancelled)? "Before" is the trace's order, which also orders
 * what happened at one virtual millisecond.
 */
export function crossed(index: TraceIndex, call: string): boolean {
  const request = index.calls.get(call)?.request;
  if (request === undefined) return false;
  return request.responses.some((r) => request.cancels.some((c) => r.frame.seq < arrival(index, c.frame.frame) && c.frame.seq < arrival(index, r.frame.frame)));
}

/** The run's outcome class: "A STOPPED_LOCALLY crossed · B SUCCEEDED · server up", "never connected · server up". */
export function outcomeClass(trace: readonly TraceEvent[], index: TraceIndex = indexTrace(trace)): string {
  const parts = callViews(trace, index).map((c) => [c.call, c.clientState, ...(c.lost ? ['lost'] : []), ...(crossed(index, c.call) ? ['crossed'] : [])].join(' '));
  if (negotiated(trace) === null) parts.push('never connected');
  const exited = trace.some((e) => e.kind === 'connection' && e.event === 'crashed');
  parts.push(exited ? 'server exited' : 'server up');
  const commits = ledger(trace, index).length;
  if (commits > 0) parts.push(`ledger committed ${commits}`);
  return parts.join(' · ');
}
