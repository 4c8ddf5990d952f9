/**
 * How closely a run reproduces an imported trace, frame by frame: each imported frame is
 * matched (a run frame in the same direction with the same shape — kind, method, and which
 * request it names, counted in order, so the ids themselves may differ — written within the
 * tolerance), differs (the same request's frame, but another kind, error code or time), or
 * missing; the run's frames left over are extra. A frame's time is when it was written, except a
 * server frame in a log taken at the client (the Inspector's, the probe's), stamped as it arrived: it
 * is compared with the run's arrival. Pure, and derived from the two traces alone.
 */
import { indexTrace, type FrameEvent, type IndexedRequest, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import { seenAtClient } from './from-trace-timing.ts';

export type MatchStatus = 'matched' | 'differs' | 'missing';

export interface MatchRow {
  /** The imported frame's number. */
  frame: number;
  status: MatchStatus;
  /** What the frame is, in words ("c2s tools/call request #1"). */
  what: string;
  /** The run's frame it was paired with (matched and differs). */
  runFrame?: number;
  /** How it differs. */
  how?: string;
}

export interface TraceMatch {
  rows: MatchRow[];
  extra: { frame: number; what: string }[];
  counts: { matched: number; differs: number; missing: number; extra: number };
}

export interface MatchOptions {
  /** How far apart two frames' times may be and still match (ms); 10 unless given. */
  toleranceMs?: number;
  /**
   * The imported trace does not time the frames inside an HTTP body (a HAR places them when the
   * body ends): their times are not compared.
   */
  untimedChunks?: boolean;
  /**
   * Where the imported log was taken: 'client' stamps the server's frames as they arrived, so they
   * are compared with the run's arrivals; 'wire' (a tee, a proxy) as they were written. From the
   * imported trace's source when not given.
   */
  seenAt?: 'client' | 'wire';
  /** The imported trace's index, when the caller has it: a long import is not indexed again. */
  importedIndex?: TraceIndex;
}

interface Shape {
  frame: FrameEvent;
  /** The same direction, method and request: the loose key. */
  loose: string;
  /** With the kind and error code too: the exact key. */
  exact: string;
  what: string;
  detail: string;
}

/** Each request's place among its direction's requests, in the order written. */
function ordinals(idx: TraceIndex): Map<IndexedRequest, number> {
  const count = { c2s: 0, s2c: 0 };
  const out = new Map<IndexedRequest, number>();
  for (const req of idx.requests) out.set(req, ++count[req.dir]);
  return out;
}

function shapesOf(idx: TraceIndex): Shape[] {
  const ord = ordinals(idx);
  const ref = (req: IndexedRequest | undefined): string => (req ? `${req.method} #${ord.get(req) ?? '?'}` : 'an unknown request');
  return idx.frames.map((frame) => {
    const entry = idx.byFrame.get(frame.frame);
    let kind: string;
    let about: string;
    let detail = '';
    const req = entry?.requests[0];
    const res = entry?.responses[0];
    const cancel = entry?.cancels[0];
    const progress = entry?.progress[0];
    if (entry === undefined) [kind, about] = [frame.eof ? 'end of stream' : 'copy', ''];
    else if (entry.batch !== undefined) [kind, about] = ['batch', `${entry.batch.length} messages`];
    else if (req) [kind, about] = ['request', ref(req)];
    else if (res) {
      [kind, about] = [res.msg.error !== undefined ? 'error' : 'result', `for ${ref(res.req)}`];
      detail = res.msg.error !== undefined ? `code ${res.msg.error.code}` : '';
    } else if (cancel) [kind, about] = ['notifications/cancelled', `for ${ref(cancel.target)}`];
    else if (progress) [kind, about] = ['notifications/progress', `for ${ref(progress.owner)}`];
    else if (frame.msg) [kind, about] = [frame.msg.method ?? 'message', ''];
    else if (frame.http) {
      const stream = idx.streams.get(frame.http.stream);
      [kind, about] = [`HTTP ${frame.http.part}`, `of ${stream?.req ? ref(stream.req) : (stream?.open?.http?.method ?? '?')}`];
      detail = frame.http.status !== undefined ? `status ${frame.http.status}` : '';
    } else [kind, about] = ['text', ''];
    // A result and an error for one request are the same frame told apart; a cancel is not a response.
    const loose = `${frame.dir}|${about}|${kind === 'result' || kind === 'error' ? 'response' : kind}`;
    return { frame, loose, exact: `${loose}|${kind}|${detail}`, what: `${frame.dir === 'c2s' ? 'client → server' : 'server → client'} ${kind}${about ? ` ${about}` : ''}${detail ? ` (${detail})` : ''}`, detail };
  });
}

/** Takes the first frame in `queue` not yet paired. */
function take(queue: Shape[] | undefined, used: Set<number>): Shape | undefined {
  while (queue && queue.length > 0) {
    const next = queue.shift();
    if (next && !used.has(next.frame.frame)) return next;
  }
  return undefined;
}

function group(shapes: readonly Shape[], key: (s: Shape) => string): Map<string, Shape[]> {
  const out = new Map<string, Shape[]>();
  for (const s of shapes) {
    const list = out.get(key(s));
    if (list) list.push(s);
    else out.set(key(s), [s]);
  }
  return out;
}

/** When the run's frame is compared: its arrival for a server frame the log stamped as it arrived, else when written. */
function timeOf(idx: TraceIndex, frame: FrameEvent, arrival: boolean): number {
  return arrival ? (idx.delivery.get(frame.frame)?.t ?? frame.t) : frame.t;
}

export function matchTraces(imported: readonly TraceEvent[], run: readonly TraceEvent[], options: MatchOptions = {}): TraceMatch {
  const tolerance = options.toleranceMs ?? 10;
  const atClient = (options.seenAt ?? (seenAtClient(imported) ? 'client' : 'wire')) === 'client';
  const runIndex = indexTrace(run);
  const ours = shapesOf(runIndex);
  const exact = group(ours, (s) => s.exact);
  const loose = group(ours, (s) => s.loose);
  const used = new Set<number>();
  const rows: MatchRow[] = [];
  for (const theirs of shapesOf(options.importedIndex ?? indexTrace(imported))) {
    const same = take(exact.get(theirs.exact), used);
    const near = same ?? take(loose.get(theirs.loose), used);
    if (!near) {
      rows.push({ frame: theirs.frame.frame, status: 'missing', what: theirs.what });
      continue;
    }
    used.add(near.frame.frame);
    const untimed = options.untimedChunks === true && theirs.frame.http?.part === 'chunk';
    const arrival = atClient && theirs.frame.dir === 's2c';
    const at = timeOf(runIndex, near.frame, arrival);
    const off = at - theirs.frame.t;
    const hows = [
      ...(same ? [] : [`the run wrote ${near.what}`]),
      ...(!untimed && Math.abs(off) > tolerance ? [`${arrival ? 'arrived' : 'written'} at ${at} ms in the run, ${theirs.frame.t} ms in the log (${off > 0 ? '+' : ''}${off} ms)`] : []),
    ];
    rows.push({ frame: theirs.frame.frame, status: hows.length === 0 ? 'matched' : 'differs', what: theirs.what, runFrame: near.frame.frame, ...(hows.length > 0 && { how: hows.join('; ') }) });
  }
  const extra = ours.filter((s) => !used.has(s.frame.frame)).map((s) => ({ frame: s.frame.frame, what: s.what }));
  const count = (status: MatchStatus): number => rows.filter((r) => r.status === status).length;
  return { rows, extra, counts: { matched: count('matched'), differs: count('differs'), missing: count('missing'), extra: extra.length } };
}

/** The match in one line: "9 of 10 frames match; 1 differs; 0 missing; 1 extra in the run". */
export function matchSummary(match: TraceMatch): string {
  const { matched, differs, missing, extra } = match.counts;
  const all = match.rows.length;
  return `${matched} of ${all} frames match${differs ? `; ${differs} differ` : ''}${missing ? `; ${missing} missing from the run` : ''}${extra ? `; ${extra} extra in the run` : ''}.`;
}
