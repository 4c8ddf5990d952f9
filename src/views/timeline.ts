/**
 * The timeline of a run, as data: one lane per lifeline (client and server; on HTTP one client
 * lane per HTTP stream), each frame an arrow from its send time on the sender's lane to its
 * delivery time on the receiver's, and marks for what is not a frame (Stop, crashes,
 * disconnects, reconnects, late responses, findings). Pure: a renderer turns it into pixels.
 *
 * Geometry is given in virtual time and "reach" (how far across from the sender's lane to the
 * receiver's, 0 to 1), so a frame in flight, held or dropped is drawn from the trace alone.
 */
import type { ClientStateEvent, ConnectionEvent, DeliveryEvent, Direction, FrameEvent, TraceEvent } from '../trace/index.ts';
import { createTraceIndex, dirKey, type IndexedRequest, type IndexedResponse, type TraceIndex } from '../trace/index.ts';
import { wireRows, type WireRow } from './wire-rows.ts';
import { plural } from '../trace/index.ts';

export type LaneSide = 'client' | 'server';

export interface TimelineLane {
  /** 'client', 'server', or `stream-N` for the client's end of HTTP stream N. */
  id: string;
  side: LaneSide;
  stream: number | null;
  /** Short, for the lane's gutter: "client", "server", "#4". */
  label: string;
  /** Longer, for a tooltip: "stream 4: POST tools/call". */
  title: string;
}

export type ArrowState = 'delivered' | 'in-flight' | 'dropped' | 'held';
export type ArrowKind = 'request' | 'response' | 'notification' | 'framing';

export interface TimelineArrow {
  frame: number;
  /** The trace seq of the frame's write. */
  seq: number;
  dir: Direction;
  fromLane: string;
  toLane: string;
  sentAt: number;
  deliveredAt: number | null;
  /** A held frame waits on the sender's lane from sentAt until it is let go (null while still held). */
  releasedAt: number | null;
  state: ArrowState;
  /** Where the drawn arrow ends: at `t`, `reach` of the way across (1 on the receiver's lane). */
  end: { t: number; reach: number };
  kind: ArrowKind;
  /** Method, what a response answers, or the HTTP framing, with the id: "tools/call id 1". */
  label: string;
  injected: boolean;
  /** A cancel: notifications/cancelled, or on HTTP the client closing a stream (how 2026-07-28 cancels). */
  cancel: boolean;
  /** A response that reached the client after Stop (the client ignored it). */
  late: boolean;
  fault: string | null;
  /** Why a dropped frame reached nobody. */
  droppedBecause: string | null;
  /** For a response: the frame of the cancel (or stream abort) it crossed on the wire. */
  crossesCancel?: number;
  /** For that cancel (or abort): the response it crossed. */
  crossesResponse?: number;
}

export type MarkKind = 'stop' | 'crash' | 'disconnect' | 'reconnect' | 'finding' | 'late';
export type FindingSeverity = 'error' | 'warning' | 'info';

export interface TimelineMark {
  t: number;
  lane: string;
  kind: MarkKind;
  label: string;
  seq: number;
  /** For a finding. */
  severity?: FindingSeverity;
}

export interface TimelineFinding {
  witnesses: readonly number[];
  severity: FindingSeverity;
  /** The rule's id, for the mark's label. */
  rule?: string;
}

export interface TimelineOptions {
  /** Findings to mark, each at its latest witness. */
  findings?: readonly TimelineFinding[];
  /** Only the events up to this trace position (seq, inclusive): the page's trace slider. */
  until?: number | null;
  /** Leave out frames that carry no JSON-RPC message (HTTP heads, ends, aborts, EOF). */
  messagesOnly?: boolean;
}

export interface TimelineModel {
  lanes: TimelineLane[];
  arrows: TimelineArrow[];
  marks: TimelineMark[];
  /** "Now": the time of the last event shown. Frames in flight end here. */
  tEnd: number;
}

const CLIENT: TimelineLane = { id: 'client', side: 'client', stream: null, label: 'client', title: 'client' };
const SERVER: TimelineLane = { id: 'server', side: 'server', stream: null, label: 'server', title: 'server' };

const streamLane = (stream: number): string => `stream-${stream}`;

/** The whole timeline of a trace (or of its first events, `until`), in one pass. */
export function timelineModel(trace: readonly TraceEvent[], options: TimelineOptions = {}): TimelineModel {
  const until = options.until ?? null;
  const n = until === null ? trace.length : Math.min(trace.length, Math.max(0, until + 1));
  const builder = createTimelineBuilder();
  for (let i = 0; i < n; i++) builder.add(trace[i] as TraceEvent);
  return builder.model(options);
}

/**
 * A timeline that grows with the trace, for a live page: `add` each event as it is appended,
 * `model` once per paint. An arrow that did not change since the last `model` is the same
 * object, so a renderer can tell what to redraw by identity.
 */
export interface TimelineBuilder {
  /** How many events it has read. */
  readonly length: number;
  add(e: TraceEvent): void;
  model(options?: Omit<TimelineOptions, 'until'>): TimelineModel;
}

/** A frame not yet delivered: when it left the sender (or was let go) and when it is due. */
interface Pending {
  departs: number;
  due: number | null;
}

export function createTimelineBuilder(): TimelineBuilder {
  const index = createTraceIndex();
  const idx = index.index;
  const events: TraceEvent[] = [];
  const arrows = new Map<number, TimelineArrow>();
  const pending = new Map<number, Pending>();
  /** Each direction's latency as the trace shows it: the quickest frame delivered unfaulted. */
  const latency: Record<Direction, number> = { c2s: Infinity, s2c: Infinity };
  const marks: TimelineMark[] = [];
  const streams = new Set<number>();
  let plainClient = false;
  let lanes: TimelineLane[] = [CLIENT, SERVER];

  const put = (a: TimelineArrow): void => {
    arrows.set(a.frame, a);
  };
  const noteLane = (stream: number | null): void => {
    if (stream === null ? plainClient : streams.has(stream)) return;
    if (stream === null) plainClient = true;
    else streams.add(stream);
    lanes = lanesOf(idx, plainClient, streams);
  };

  const onFrame = (e: FrameEvent): void => {
    const a = arrowOf(e, idx);
    noteLane(e.http?.stream ?? null);
    // A frame the wire dropped as it was written never leaves the sender: a stub ending in a cross.
    if (a.state !== 'dropped') pending.set(e.frame, { departs: e.t, due: e.deliverAt });
    put(a);
  };

  const onDelivery = (e: DeliveryEvent): void => {
    const a = arrows.get(e.frame);
    if (!a || !pending.delete(e.frame)) return;
    if (e.dropped !== undefined) {
      // It crossed the wire and reached nobody: the cross sits on the receiver's lane.
      put({ ...a, state: 'dropped', end: { t: e.t, reach: 1 }, droppedBecause: e.dropped });
      return;
    }
    if (a.fault === null) latency[a.dir] = Math.min(latency[a.dir], e.t - a.sentAt);
    put({ ...a, state: 'delivered', deliveredAt: e.t, end: { t: e.t, reach: 1 } });
  };

  const onRelease = (dir: Direction, t: number): void => {
    for (const [frame, p] of pending) {
      const a = arrows.get(frame);
      if (a?.state !== 'held' || a.dir !== dir) continue;
      // Its due time is not in the trace: it moves at the direction's latency from the release.
      pending.set(frame, { departs: t, due: Number.isFinite(latency[dir]) ? t + latency[dir] : p.due });
      put({ ...a, state: 'in-flight', releasedAt: t });
    }
  };

  const onLate = (e: ClientStateEvent): void => {
    const answer = lateAnswer(idx, e);
    const a = answer ? arrows.get(answer.frame.frame) : undefined;
    if (!a) return;
    put({ ...a, late: true });
    marks.push({ t: a.end.t, lane: a.toLane, kind: 'late', label: `${a.label}: arrived after Stop, ignored`, seq: e.seq });
  };

  const add = (e: TraceEvent): void => {
    events.push(e);
    index.add(e);
    if (e.kind === 'frame') onFrame(e);
    else if (e.kind === 'delivery') onDelivery(e);
    else if (e.kind === 'user-action' && e.action.type === 'release') onRelease(e.action.dir, e.t);
    else if (e.kind === 'user-action' && e.action.type === 'stop') marks.push({ t: e.t, lane: callLane(idx, e.action.call), kind: 'stop', label: `Stop ${e.action.call}`, seq: e.seq });
    else if (e.kind === 'client-state' && e.on === 'late-response') onLate(e);
    else if (e.kind === 'connection') marks.push(...connectionMarks(e));
  };

  const model = (options: Omit<TimelineOptions, 'until'> = {}): TimelineModel => {
    const now = events.at(-1)?.t ?? 0;
    advance(pending, arrows, now, put);
    markCrossings(idx, arrows, put);
    const all = [...arrows.values()];
    const shown = options.messagesOnly ? all.filter((a) => a.kind !== 'framing') : all;
    const shownLanes = options.messagesOnly ? lanesOf(idx, shown.some((a) => a.fromLane === CLIENT.id || a.toLane === CLIENT.id), streamsOf(shown)) : lanes;
    const known = new Set(shownLanes.map((l) => l.id));
    const first = (shownLanes[0] as TimelineLane).id;
    const placed = [...marks, ...findingMarks(events, arrows, options.findings ?? [])].map((m) => (known.has(m.lane) ? m : { ...m, lane: first }));
    return { lanes: shownLanes, arrows: shown, marks: placed.sort((a, b) => a.seq - b.seq), tEnd: now };
  };

  return {
    get length() {
      return events.length;
    },
    add,
    model,
  };
}

/** A frame as it is written: on its way (or held, or dropped by the wire), from its sender's lane. */
function arrowOf(e: FrameEvent, idx: TraceIndex): TimelineArrow {
  // The frame's own row, read against the builder's index, which has the frame already (a row
  // read against an index of its own would build a whole empty index for every frame).
  const row = wireRows([e], idx)[0] as WireRow;
  const clientLane = row.stream === null ? CLIENT.id : streamLane(row.stream);
  const msg = e.msg;
  const kind: ArrowKind = msg === null ? 'framing' : msg.method === undefined ? 'response' : msg.id === undefined ? 'notification' : 'request';
  // What a response answers comes from the index, as in the wire log.
  const what = row.what || row.framing || '(empty)';
  const state: ArrowState = e.fault === 'dropped' ? 'dropped' : e.fault === 'held' ? 'held' : 'in-flight';
  return {
    frame: e.frame,
    seq: e.seq,
    dir: e.dir,
    fromLane: e.dir === 'c2s' ? clientLane : SERVER.id,
    toLane: e.dir === 'c2s' ? SERVER.id : clientLane,
    sentAt: e.t,
    deliveredAt: null,
    releasedAt: null,
    state,
    end: { t: e.t, reach: state === 'dropped' ? 0.15 : 0 },
    kind,
    label: row.id ? `${what} id ${row.id}` : what,
    injected: row.injected,
    cancel: msg?.method === 'notifications/cancelled' || e.http?.part === 'abort',
    late: false,
    fault: row.fault,
    droppedBecause: null,
  };
}

/** Frames still on the wire move on to `now`: a held one waits, one in flight is that far across. */
function advance(pending: ReadonlyMap<number, Pending>, arrows: ReadonlyMap<number, TimelineArrow>, now: number, put: (a: TimelineArrow) => void): void {
  for (const [frame, p] of pending) {
    const a = arrows.get(frame);
    if (!a) continue;
    const reach = a.state === 'held' ? 0 : p.due === null || p.due <= p.departs ? 1 : Math.min(1, Math.max(0, (now - p.departs) / (p.due - p.departs)));
    if (a.end.t !== now || a.end.reach !== reach) put({ ...a, end: { t: now, reach } });
  }
}

/** The response a late-response step ignored: the last one delivered for the call's request, after Stop only. */
function lateAnswer(idx: TraceIndex, e: ClientStateEvent): IndexedResponse | undefined {
  // As the calls panel counts them: not a duplicate that arrived after the call settled.
  if (e.requestId === null || (e.from !== 'CANCEL_REQUESTED' && e.from !== 'STOPPED_LOCALLY')) return undefined;
  const req = idx.requestsByKey.get(dirKey('c2s', e.requestId, e.connection))?.at(-1);
  return req?.responses.findLast((r) => idx.delivery.has(r.frame.frame));
}

function connectionMarks(e: ConnectionEvent): TimelineMark[] {
  const kind = e.event === 'crashed' ? 'crash' : e.event === 'disconnected' ? 'disconnect' : e.event === 'reconnecting' ? 'reconnect' : null;
  if (kind === null) return [];
  // 'client' stands for the first client lane, whichever it is when the model is read.
  const lane = kind === 'crash' || e.by === 'server' ? SERVER.id : CLIENT.id;
  return [{ t: e.t, lane, kind, label: `${e.event}: ${e.detail}`, seq: e.seq }];
}

/**
 * A response crosses a cancel of its request when each was written before the other arrived:
 * the cancel left before the response landed, and the response left before the cancel landed.
 */
function markCrossings(idx: TraceIndex, arrows: ReadonlyMap<number, TimelineArrow>, put: (a: TimelineArrow) => void): void {
  const arrival = (a: TimelineArrow): number => (a.state === 'delivered' || a.state === 'dropped' ? a.end.t : Infinity);
  const cancels = [...idx.cancels.map((c) => ({ frame: c.frame.frame, req: c.target })), ...idx.aborts.map((a) => ({ frame: a.frame.frame, req: a.target }))];
  for (const { frame, req } of cancels) {
    for (const response of req?.responses ?? []) {
      const c = arrows.get(frame);
      const r = arrows.get(response.frame.frame);
      if (!r || !c || (r.crossesCancel !== undefined && r.crossesCancel !== frame)) continue;
      const crosses = c.sentAt < arrival(r) && r.sentAt < arrival(c);
      if (crosses && r.crossesCancel === undefined) {
        put({ ...r, crossesCancel: frame });
        if (c.crossesResponse === undefined) put({ ...c, crossesResponse: r.frame });
      } else if (!crosses && r.crossesCancel === frame) {
        put(without(r, 'crossesCancel'));
        if (c.crossesResponse === r.frame) put(without(c, 'crossesResponse'));
      }
    }
  }
}

function without(a: TimelineArrow, key: 'crossesCancel' | 'crossesResponse'): TimelineArrow {
  const copy = { ...a };
  if (key === 'crossesCancel') delete copy.crossesCancel;
  else delete copy.crossesResponse;
  return copy;
}

function streamsOf(arrows: readonly TimelineArrow[]): Set<number> {
  const streams = new Set<number>();
  for (const a of arrows) {
    const lane = a.dir === 'c2s' ? a.fromLane : a.toLane;
    if (lane !== CLIENT.id) streams.add(Number(lane.slice('stream-'.length)));
  }
  return streams;
}

function lanesOf(idx: TraceIndex, plainClient: boolean, streams: ReadonlySet<number>): TimelineLane[] {
  // With no frames yet, the two lifelines still stand.
  const lanes: TimelineLane[] = plainClient || streams.size === 0 ? [CLIENT] : [];
  for (const stream of [...streams].sort((a, b) => a - b)) {
    const open = idx.streams.get(stream)?.open;
    const what = [open?.http?.method, open?.msg?.method].filter((x) => x !== undefined).join(' ');
    lanes.push({ id: streamLane(stream), side: 'client', stream, label: `#${stream}`, title: what ? `stream ${stream}: ${what}` : `stream ${stream}` });
  }
  lanes.push(SERVER);
  return lanes;
}

/** Each finding at its latest witness: a frame's write on the sender's lane, a delivery on the receiver's. */
function findingMarks(events: readonly TraceEvent[], arrows: ReadonlyMap<number, TimelineArrow>, findings: readonly TimelineFinding[]): TimelineMark[] {
  const marks: TimelineMark[] = [];
  for (const f of findings) {
    const seq = f.witnesses.filter((w) => w < events.length).at(-1);
    const e = seq === undefined ? undefined : events[seq];
    if (seq === undefined || !e) continue;
    const arrow = e.kind === 'delivery' || e.kind === 'frame' ? arrows.get(e.frame) : undefined;
    const lane = arrow ? (e.kind === 'delivery' ? arrow.toLane : arrow.fromLane) : e.kind === 'handler' && e.side === 'server' ? SERVER.id : CLIENT.id;
    marks.push({ t: e.t, lane, kind: 'finding', label: `${f.severity}${f.rule ? ` ${f.rule}` : ''}`, seq, severity: f.severity });
  }
  return marks;
}

/** The lane of a call's request: its HTTP stream, or the client's lifeline on stdio. */
function callLane(idx: TraceIndex, call: string): string {
  const c = idx.calls.get(call);
  const first = c?.states[0];
  const req: IndexedRequest | undefined = c && c.requestId !== null && first ? idx.requestsByKey.get(dirKey('c2s', c.requestId, first.connection))?.at(-1) : undefined;
  return req?.stream === undefined ? CLIENT.id : streamLane(req.stream);
}

/** One sentence for a screen reader: what the timeline shows (the wire log lists every frame). */
export function describeTimeline(model: TimelineModel): string {
  const count = (kind: MarkKind): number => model.marks.filter((m) => m.kind === kind).length;
  const streams = model.lanes.filter((l) => l.stream !== null).length;
  const parts = [
    `Timeline of ${plural(model.arrows.length, 'frame')} over ${model.tEnd} ms between client and server${streams > 0 ? ` on ${plural(streams, 'HTTP stream')}` : ''}`,
  ];
  const extras = [
    [model.arrows.filter((a) => a.state === 'in-flight').length, 'frame in flight', 'frames in flight'],
    [model.arrows.filter((a) => a.state === 'held').length, 'frame held', 'frames held'],
    [model.arrows.filter((a) => a.state === 'dropped').length, 'frame dropped', 'frames dropped'],
    [model.arrows.filter((a) => a.injected).length, 'injected frame', 'injected frames'],
    [model.arrows.filter((a) => a.crossesCancel !== undefined).length, 'response crossing a cancel', 'responses crossing a cancel'],
    [count('stop'), 'Stop press', 'Stop presses'],
    [count('late'), 'late response', 'late responses'],
    [count('crash'), 'crash', 'crashes'],
    [count('disconnect'), 'disconnect', 'disconnects'],
    [count('reconnect'), 'reconnect', 'reconnects'],
    [count('finding'), 'finding', 'findings'],
  ] as const;
  const listed = extras.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return `${parts.join('')}${listed.length > 0 ? `: ${listed.join(', ')}` : ''}. The wire log lists every frame.`;
}
