/**
 * The trace checker: a pure function from (catalog, revision, transport, trace) to findings.
 *
 * It is re-run on the growing trace, so it keeps no state: one pass builds an index of the
 * trace (requests, responses, cancels, stream closes, progress, task statuses, handler notes,
 * client states), then each judged rule walks the index, looking things up through maps.
 * That is linear in the trace for the lab's traces (about 25 ms for 6,000 events in Node).
 *
 * What a side "wrote" is judged, so the index leaves out a wire fault's copy of a frame
 * (`fault: 'duplicated'`) and a stdio end-of-stream; a delivery that reached nobody (`dropped`)
 * is no delivery. Forged frames (`injected`) are judged like the side's own, since they stand
 * for a misbehaving peer, and every sentence that names one says "forged"; a forged response
 * does not complete a request on the side that did not write it. Ids match within a
 * connection (a reconnect starts a new session).
 *
 * Findings. Every rule of the catalog yields at least one finding:
 * - not on this revision or transport: `not-applicable` (severity info);
 * - not judged (the catalog says why): `cannot-tell`;
 * - judged: one finding per subject (a cancel, a late response, a Stop, a progress
 *   notification that breaks a rule…). A rule with nothing to judge in the trace gives one
 *   `satisfied` finding with no witnesses (TIMEOUT-CANCEL gives `cannot-tell`: no timeout seen).
 *   Rules over many messages (ids, framing, progress) report only departures, and one
 *   `satisfied` summary when there are none.
 *
 * Severity. MUST / MUST NOT → error, SHOULD / SHOULD NOT → warning, MAY / descriptive → info,
 * taken from the clause that governs the revision and transport. A finding that rests on a
 * race the spec allows (R1, R2 with the response already on the wire, R3, R11) or on one of
 * the digest's §8 ambiguities (U-1 … U-14) is always `info`, never an error.
 *
 * Verdict. `violated` means the trace goes against the words of the rule; with severity info
 * that is a point the spec leaves open (a duplicate cancel, U-9). `satisfied` means the trace
 * keeps the rule, or departs from its letter only in a way the spec allows (a race: info).
 *
 * Witnesses are the `seq` numbers, ascending, of the fewest events that show the finding:
 * usually the frames (wire-log rows) involved plus the delivery event that proves what one
 * side had received and when. For example, a response after a cancel: [the cancel frame, its
 * delivery to the receiver, the response frame].
 *
 * Time. Order is by `seq` (the trace is appended in time order, ties broken by the
 * coordinator). "The server answered after it received the cancel" means the response frame
 * comes after the cancel's delivery event; one written before that delivery was already
 * decided when the cancel arrived (a race).
 */
import type { Revision } from '../scenario/index.ts';
import type {
  ClientStateEvent,
  DeliveryEvent,
  Direction,
  FrameEvent,
  HandlerEvent,
  TraceEvent,
  UserActionEvent,
} from '../trace/index.ts';
import {
  OPPOSITE,
  deliveryOf,
  dirKey,
  idKey,
  indexTrace,
  isId,
  isNotification,
  isObject,
  isResponse,
  meta,
  messagesOf,
  nextDelivery,
  taskOf,
  type IndexedCall as CallInfo,
  type IndexedProgress as Progress,
  type IndexedRequest as Req,
  type IndexedResponse as Resp,
  type RequestId as Id,
  type TraceIndex as Index,
} from '../trace/index.ts';
import { clauseFor, severityOf, type Clause, type Rule, type Severity, type TransportKind } from './catalog.ts';

export type Verdict = 'violated' | 'satisfied' | 'not-applicable' | 'cannot-tell';

export interface Finding {
  /** The rule's id in the catalog. */
  rule: string;
  severity: Severity;
  verdict: Verdict;
  /** `seq` of the trace events that show it, ascending. */
  witnesses: number[];
  /** One sentence. */
  why: string;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A CreateTaskResult: 2025-11-25 `{task: Task}`; the 2026 extension `resultType: "task"`. */
function createdTask(resp: Resp, revision: Revision): string | undefined {
  const result = resp.msg.result;
  if (!isObject(result)) return undefined;
  if (revision === '2026-07-28') return result.resultType === 'task' && typeof result.taskId === 'string' ? result.taskId : undefined;
  return isObject(result.task) && typeof result.task.taskId === 'string' ? result.task.taskId : undefined;
}

// ---------------------------------------------------------------------------------------------
// Helpers for judging

interface Ctx {
  revision: Revision;
  transport: TransportKind;
  idx: Index;
}

interface Draft {
  verdict: 'violated' | 'satisfied' | 'cannot-tell';
  /** Defaults to the clause's severity. */
  severity?: Severity;
  witnesses: (number | undefined)[];
  why: string;
}

interface Judge {
  judge(ctx: Ctx): Draft[];
  /** The finding when the trace has nothing this rule looks at. */
  nothing: string;
  nothingVerdict?: 'satisfied' | 'cannot-tell';
}

const show = (id: unknown): string => idKey(id);
const frameName = (f: FrameEvent): string => `${f.injected ? 'forged ' : ''}frame ${f.frame}`;
const sideOf = (dir: Direction): string => (dir === 'c2s' ? 'client' : 'server');
const receiverOf = (dir: Direction): string => (dir === 'c2s' ? 'server' : 'client');

function isModernHttp(ctx: Ctx): boolean {
  return ctx.revision === '2026-07-28' && ctx.transport === 'streamable-http';
}

/**
 * How the sender of `req` told the receiver to stop: its cancel notifications and, on 2026
 * Streamable HTTP, the close of the request's stream. On legacy HTTP a close is not a cancel
 * at all (XPORT-HTTP-DISCONNECT-NOT-CANCEL), so it is left out. `doubt` names the ambiguity
 * that keeps a signal from being the revision's plain cancel: a notification on 2026 HTTP,
 * where the close is the signal (U-3), or the close of a request answered with
 * application/json rather than an SSE stream (U-4). A signal without doubt is `strong`.
 */
interface Signal {
  frame: FrameEvent;
  delivery: DeliveryEvent | undefined;
  strong: boolean;
  doubt: 'U-3' | 'U-4' | undefined;
  kind: 'notification' | 'close';
}

function signalsOf(ctx: Ctx, req: Req): Signal[] {
  const modern = isModernHttp(ctx);
  const out: Signal[] = req.cancels.map((c) => {
    const doubt = modern ? ('U-3' as const) : undefined;
    return { frame: c.frame, delivery: deliveryOf(ctx.idx, c.frame), strong: !doubt, doubt, kind: 'notification' as const };
  });
  if (modern) {
    for (const a of req.aborts) {
      const json = /^application\/json/i.test(ctx.idx.streams.get(a.stream)?.head?.http?.headers?.['content-type'] ?? '');
      const doubt = json ? ('U-4' as const) : undefined;
      out.push({ frame: a.frame, delivery: deliveryOf(ctx.idx, a.frame), strong: !doubt, doubt, kind: 'close' });
    }
  }
  return out.sort((a, b) => a.frame.seq - b.frame.seq);
}

/** Why a doubtful signal counts for little, as a clause. */
function doubtText(s: Signal): string {
  return s.doubt === 'U-4'
    ? 'the request was answered with application/json, where closing is not clearly a cancel (U-4)'
    : '2026 HTTP neither requires nor expects a notifications/cancelled; the stream close is the signal (U-3)';
}

/** The signal that reached the receiver first (by delivery), among `strong` ones if asked. */
function firstDelivered(signals: Signal[], strongOnly: boolean): (Signal & { delivery: DeliveryEvent }) | undefined {
  let best: (Signal & { delivery: DeliveryEvent }) | undefined;
  for (const s of signals) {
    if (!s.delivery || (strongOnly && !s.strong)) continue;
    if (!best || s.delivery.seq < best.delivery.seq) best = s as Signal & { delivery: DeliveryEvent };
  }
  return best;
}

function signalName(s: Signal): string {
  return s.kind === 'close' ? `the stream close (${frameName(s.frame)})` : `the cancel (${frameName(s.frame)})`;
}

/** Server notes for a request id, of the given types. */
function notes(idx: Index, id: Id, ...types: HandlerEvent['note']['type'][]): HandlerEvent[] {
  return (idx.serverNotes.get(idKey(id)) ?? []).filter((e) => types.includes(e.note.type));
}

/** The call a request id belongs to on the client, on the connection the request went out on. */
function callOf(idx: Index, id: Id, connection: number): [string, CallInfo] | undefined {
  const name = idx.callByRequestId.get(`${connection}:${idKey(id)}`);
  const info = name === undefined ? undefined : idx.calls.get(name);
  return name !== undefined && info ? [name, info] : undefined;
}

function stateBefore(info: CallInfo, seq: number): ClientStateEvent | undefined {
  let found: ClientStateEvent | undefined;
  for (const s of info.states) if (s.seq < seq) found = s;
  return found;
}

/** The latest request from `dir` with this id written before `beforeSeq`, on any connection. */
function latestRequest(idx: Index, dir: Direction, id: unknown, beforeSeq: number): Req | undefined {
  const list = idx.requestsById.get(dirKey(dir, id)) ?? [];
  let found: Req | undefined;
  for (const r of list) if (r.frame.seq < beforeSeq) found = r;
  return found;
}

/** The Stops pressed while the call was still RUNNING, with its request. */
function stopsOfRunningCalls(idx: Index): { stop: UserActionEvent; req: Req }[] {
  const out: { stop: UserActionEvent; req: Req }[] = [];
  for (const stop of idx.stops) {
    const info = idx.calls.get(stop.action.call);
    if (!info || info.requestId === null) continue;
    if (stateBefore(info, stop.seq)?.to !== 'RUNNING') continue;
    const req = latestRequest(idx, 'c2s', info.requestId, stop.seq);
    if (req) out.push({ stop, req });
  }
  return out;
}

/** The s2c frames that carry a message for `req`: its responses, its progress, its subscription's notifications, anything on its stream. */
function messagesFor(ctx: Ctx, req: Req): FrameEvent[] {
  const seen = new Set<number>();
  const out: FrameEvent[] = [];
  const add = (f: FrameEvent): void => {
    if (f.dir !== 's2c' || seen.has(f.seq)) return;
    seen.add(f.seq);
    out.push(f);
  };
  for (const r of req.responses) add(r.frame);
  for (const p of ctx.idx.progressByOwner.get(req) ?? []) add(p.frame);
  if (req.method === 'subscriptions/listen') {
    for (const m of ctx.idx.messages) if (m.frame.dir === 's2c' && idKey(meta(m.msg)?.['io.modelcontextprotocol/subscriptionId']) === idKey(req.id)) add(m.frame);
  }
  if (req.stream !== undefined) for (const f of ctx.idx.streams.get(req.stream)?.s2c ?? []) if (f.msg) add(f);
  return out.sort((a, b) => a.seq - b.seq);
}

// ---------------------------------------------------------------------------------------------
// The judges, one per judged rule

const JUDGES: Record<string, Judge> = {
  'CANCEL-NOTIFY-SHAPE': {
    nothing: 'No notifications/cancelled in this trace.',
    judge({ idx, revision }) {
      return idx.cancels.map((c): Draft => {
        const problems: string[] = [];
        if ('id' in c.msg) problems.push('it carries a JSON-RPC id, which makes it a request rather than a notification');
        if (!isObject(c.msg.params)) problems.push('it has no params object');
        else if (!c.hasRequestId)
          problems.push(
            revision === '2025-11-25'
              ? 'it has no requestId (the 2025-11-25 schema makes it optional, its comment requires it for non-task requests: U-5)'
              : 'it has no requestId, which the schema requires',
          );
        else if (!isId(c.requestId) || (typeof c.requestId === 'number' && !Number.isInteger(c.requestId)))
          problems.push('its requestId is not a string or an integer');
        if (isObject(c.msg.params) && 'reason' in c.msg.params && typeof c.msg.params.reason !== 'string') problems.push('its reason is not a string');
        return problems.length === 0
          ? { verdict: 'satisfied', witnesses: [c.frame.seq], why: `The cancel in ${frameName(c.frame)} names request ${show(c.requestId)} and has the notification's shape.` }
          : { verdict: 'violated', witnesses: [c.frame.seq], why: `The cancel in ${frameName(c.frame)} is malformed: ${problems.join('; ')}.` };
      });
    },
  },

  'CANCEL-SERVER-LISTEN-ONLY': {
    nothing: 'The server sent no notifications/cancelled and ended no subscription.',
    judge(ctx) {
      const { idx, transport } = ctx;
      const out: Draft[] = [];
      for (const c of idx.cancels) {
        if (c.dir !== 's2c') continue;
        const named = latestRequest(idx, 'c2s', c.requestId, c.frame.seq);
        if (named?.method === 'subscriptions/listen') {
          out.push({
            verdict: 'satisfied',
            witnesses: [named.frame.seq, c.frame.seq],
            why: `The server's cancel in ${frameName(c.frame)} ends the subscriptions/listen request ${show(c.requestId)}.`,
          });
        } else {
          out.push({
            verdict: 'violated',
            witnesses: [named?.frame.seq, c.frame.seq],
            why: named
              ? `The server's cancel in ${frameName(c.frame)} names request ${show(c.requestId)}, a ${named.method}, not a subscriptions/listen.`
              : `The server's cancel in ${frameName(c.frame)} names ${show(c.requestId)}, which is no subscriptions/listen request of the client.`,
          });
        }
      }
      // U-1: a subscription the server ended with a response and no notifications/cancelled.
      for (const req of idx.requests) {
        if (req.dir !== 'c2s' || req.method !== 'subscriptions/listen') continue;
        const end = req.responses.find((r) => 'result' in r.msg);
        if (!end) continue;
        const clientEnded = req.cancels.some((c) => c.frame.seq < end.frame.seq) || req.aborts.some((a) => a.frame.seq < end.frame.seq);
        const serverCancel = idx.cancels.some((c) => c.dir === 's2c' && idKey(c.requestId) === idKey(req.id));
        if (clientEnded || serverCancel) continue;
        out.push({
          verdict: transport === 'stdio' ? 'violated' : 'satisfied',
          severity: 'info',
          witnesses: [req.frame.seq, end.frame.seq],
          why:
            transport === 'stdio'
              ? `The server ended subscription ${show(req.id)} with a response (${frameName(end.frame)}) and no notifications/cancelled; the subscriptions page asks for exactly that, the cancellation page for the notification (U-1).`
              : `The server ended subscription ${show(req.id)} with a response (${frameName(end.frame)}); on HTTP closing the stream ends it, and the pages disagree on the notification (U-1).`,
        });
      }
      return out;
    },
  },

  'CANCEL-REF-ISSUED': {
    nothing: 'No cancel names a request in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const c of idx.cancels) {
        if (!c.hasRequestId) continue;
        if (revision === '2026-07-28' && c.dir === 's2c') continue; // CANCEL-SERVER-LISTEN-ONLY
        const who = sideOf(c.dir);
        if (c.target) {
          out.push({
            verdict: 'satisfied',
            witnesses: [c.target.frame.seq, c.frame.seq],
            why: `The ${who}'s cancel in ${frameName(c.frame)} names request ${show(c.requestId)}, which the ${who} issued in ${frameName(c.target.frame)}.`,
          });
          continue;
        }
        const other = latestRequest(idx, OPPOSITE[c.dir], c.requestId, c.frame.seq);
        const later = (idx.requestsById.get(dirKey(c.dir, c.requestId)) ?? []).find((r) => r.frame.seq > c.frame.seq);
        const loose = idx.requests.find((r) => r.dir === c.dir && r.frame.seq < c.frame.seq && String(r.id) === String(c.requestId));
        let why: string;
        if (other) why = `The ${who}'s cancel in ${frameName(c.frame)} names request ${show(c.requestId)}, which the ${receiverOf(c.dir)} issued, not the ${who}.`;
        else if (later) why = `The ${who}'s cancel in ${frameName(c.frame)} names request ${show(c.requestId)} before the ${who} issued it (${frameName(later.frame)}).`;
        else if (loose) why = `The ${who}'s cancel in ${frameName(c.frame)} names ${show(c.requestId)}, but the request the ${who} issued has id ${show(loose.id)} (ids keep their type).`;
        else why = `The ${who}'s cancel in ${frameName(c.frame)} names ${show(c.requestId)}, and no request with that id was issued by the ${who}.`;
        out.push({ verdict: 'violated', witnesses: [other?.frame.seq, c.frame.seq, later?.frame.seq, loose?.frame.seq], why });
      }
      return out;
    },
  },

  'CANCEL-REF-INPROGRESS': {
    nothing: 'No cancel names an issued request in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const c of idx.cancels) {
        const req = c.target;
        if (!req) continue;
        const who = sideOf(c.dir);
        const answered = req.responses.find((r) => {
          const d = deliveryOf(idx, r.frame);
          return d !== undefined && d.seq < c.frame.seq;
        });
        if (answered) {
          const d = deliveryOf(idx, answered.frame) as DeliveryEvent;
          out.push({
            verdict: 'violated',
            witnesses: [answered.frame.seq, d.seq, c.frame.seq],
            why: `The ${who} cancelled request ${show(req.id)} in ${frameName(c.frame)} after it had received the response (${frameName(answered.frame)}, at ${d.t} ms).`,
          });
          continue;
        }
        const earlier = req.cancels.find((x) => x.frame.seq < c.frame.seq);
        if (earlier) {
          out.push({
            verdict: 'violated',
            severity: 'info',
            witnesses: [earlier.frame.seq, c.frame.seq],
            why: `The ${who} cancelled request ${show(req.id)} a second time (${frameName(c.frame)} after ${frameName(earlier.frame)}); the spec does not address duplicate cancels (R3, U-9).`,
          });
          continue;
        }
        const inFlight = req.responses.find((r) => r.frame.seq < c.frame.seq);
        if (inFlight) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [inFlight.frame.seq, c.frame.seq],
            why: `The response to request ${show(req.id)} (${frameName(inFlight.frame)}) was still on the wire when the ${who} wrote the cancel, so the ${who} rightly believed it in progress (race R1).`,
          });
          continue;
        }
        out.push({
          verdict: 'satisfied',
          witnesses: [req.frame.seq, c.frame.seq],
          why: `When the ${who} wrote the cancel in ${frameName(c.frame)}, request ${show(req.id)} had no response yet.`,
        });
      }
      return out;
    },
  },

  'CANCEL-NO-INITIALIZE': {
    nothing: 'The client sent no cancel in this trace.',
    judge({ idx }) {
      return idx.cancels
        .filter((c) => c.dir === 'c2s' && c.hasRequestId)
        .map((c): Draft =>
          c.target?.method === 'initialize'
            ? {
                verdict: 'violated',
                witnesses: [c.target.frame.seq, c.frame.seq],
                why: `The client's cancel in ${frameName(c.frame)} names its initialize request ${show(c.requestId)} (${frameName(c.target.frame)}).`,
              }
            : { verdict: 'satisfied', witnesses: [c.frame.seq], why: `The client's cancel in ${frameName(c.frame)} does not name the initialize request.` },
        );
    },
  },

  'CANCEL-TASK-USE-TASKS-CANCEL': {
    nothing: 'No task was cancelled in this trace.',
    judge(ctx) {
      const { idx, revision } = ctx;
      const out: Draft[] = [];
      // A task cancelled the right way: tasks/cancel naming a task a CreateTaskResult announced.
      for (const req of idx.requests) {
        const taskId = req.method === 'tasks/cancel' ? req.msg.params?.taskId : undefined;
        if (typeof taskId !== 'string') continue;
        const created = idx.responses.find((r) => r.frame.seq < req.frame.seq && r.dir === OPPOSITE[req.dir] && createdTask(r, revision) === taskId);
        if (created)
          out.push({
            verdict: 'satisfied',
            witnesses: [created.frame.seq, req.frame.seq],
            why: `The ${sideOf(req.dir)} cancelled task ${show(taskId)} with tasks/cancel (${frameName(req.frame)}).`,
          });
      }
      for (const c of idx.cancels) {
        const req = c.target;
        if (!req) continue;
        const created = req.responses.find((r) => createdTask(r, revision) !== undefined);
        if (!req.taskAugmented && !created) continue;
        const d = created && deliveryOf(idx, created.frame);
        if (created && d && d.seq < c.frame.seq) {
          out.push({
            verdict: 'violated',
            witnesses: [created.frame.seq, d.seq, c.frame.seq],
            why: `The ${sideOf(c.dir)} used notifications/cancelled (${frameName(c.frame)}) for request ${show(req.id)} after its CreateTaskResult gave it task ${show(createdTask(created, revision))}; tasks/cancel was due.`,
          });
        } else {
          out.push({
            verdict: 'violated',
            severity: 'info',
            witnesses: [req.frame.seq, c.frame.seq],
            why: `The ${sideOf(c.dir)} cancelled task-augmented request ${show(req.id)} with notifications/cancelled before any CreateTaskResult reached it, when it had no taskId for tasks/cancel (U-12).`,
          });
        }
      }
      return out;
    },
  },

  'CANCEL-NO-RESPONSE': {
    nothing: 'No request was cancelled in this trace.',
    judge(ctx) {
      const out: Draft[] = [];
      for (const req of ctx.idx.requests) {
        const signals = signalsOf(ctx, req);
        if (signals.length === 0) continue;
        const receiver = receiverOf(req.dir);
        const strong = firstDelivered(signals, true);
        const any = firstDelivered(signals, false);
        const firstSent = signals[0] as Signal;
        for (const resp of req.responses) {
          if (resp.frame.seq < firstSent.frame.seq) continue; // answered before any cancel: nothing to judge
          if (strong && resp.frame.seq > strong.delivery.seq) {
            out.push({
              verdict: 'violated',
              witnesses: [strong.frame.seq, strong.delivery.seq, resp.frame.seq],
              why: `The ${receiver} wrote a response to request ${show(req.id)} (${frameName(resp.frame)}) after ${signalName(strong)} reached it at ${strong.delivery.t} ms.`,
            });
          } else if (any && resp.frame.seq > any.delivery.seq) {
            out.push({
              verdict: 'violated',
              severity: 'info',
              witnesses: [any.frame.seq, any.delivery.seq, resp.frame.seq],
              why: `The server answered request ${show(req.id)} (${frameName(resp.frame)}) after ${signalName(any)} reached it, but ${doubtText(any)}.`,
            });
          } else {
            const s = any ?? firstSent;
            out.push({
              verdict: 'satisfied',
              severity: 'info',
              witnesses: [s.frame.seq, resp.frame.seq],
              why: `The response to request ${show(req.id)} (${frameName(resp.frame)}) was written before ${signalName(s)} reached the ${receiver}: a race the spec allows (R2).`,
            });
          }
        }
        if (req.responses.some((r) => r.frame.seq > firstSent.frame.seq)) continue;
        const s = strong ?? any;
        out.push(
          s
            ? {
                verdict: 'satisfied',
                severity: s.strong ? undefined : 'info',
                witnesses: [s.frame.seq, s.delivery.seq],
                why: `The ${receiver} sent no response to request ${show(req.id)} after ${signalName(s)} reached it.`,
              }
            : {
                verdict: 'cannot-tell',
                witnesses: [firstSent.frame.seq],
                why: `${signalName(firstSent).replace(/^t/, 'T')} has not reached the ${receiver} yet.`,
              },
        );
      }
      return out;
    },
  },

  'CANCEL-NO-FURTHER-MESSAGES': {
    nothing: 'No request was cancelled in this trace.',
    judge(ctx) {
      const out: Draft[] = [];
      for (const req of ctx.idx.requests) {
        if (req.dir !== 'c2s') continue;
        const signals = signalsOf(ctx, req);
        if (signals.length === 0) continue;
        const strong = firstDelivered(signals, true);
        const s = strong ?? firstDelivered(signals, false);
        if (!s) {
          out.push({
            verdict: 'cannot-tell',
            witnesses: [(signals[0] as Signal).frame.seq],
            why: `${signalName(signals[0] as Signal).replace(/^t/, 'T')} has not reached the server yet.`,
          });
          continue;
        }
        const weak = !s.strong;
        const messages = messagesFor(ctx, req);
        const after = messages.filter((f) => f.seq > s.delivery.seq);
        for (const f of after) {
          out.push({
            verdict: 'violated',
            severity: weak ? 'info' : undefined,
            witnesses: [s.frame.seq, s.delivery.seq, f.seq],
            why: weak
              ? `The server sent ${frameName(f)} for request ${show(req.id)} after ${signalName(s)} reached it, but ${doubtText(s)}.`
              : `The server sent ${frameName(f)} for request ${show(req.id)} after ${signalName(s)} reached it at ${s.delivery.t} ms.`,
          });
        }
        for (const f of messages.filter((m) => m.seq > s.frame.seq && m.seq < s.delivery.seq)) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [s.frame.seq, f.seq],
            why: `The server wrote ${frameName(f)} for request ${show(req.id)} before ${signalName(s)} reached it: a race the spec allows (R2).`,
          });
        }
        if (after.length === 0) {
          out.push({
            verdict: 'satisfied',
            severity: weak ? 'info' : undefined,
            witnesses: [s.frame.seq, s.delivery.seq],
            why: `The server sent nothing more for request ${show(req.id)} after ${signalName(s)} reached it.`,
          });
        }
      }
      return out;
    },
  },

  'CANCEL-IGNORE-LATE-RESPONSE': {
    nothing: 'No response arrived after a cancel in this trace.',
    judge(ctx) {
      const { idx } = ctx;
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.dir !== 'c2s') continue;
        const signals = signalsOf(ctx, req);
        const first = signals[0];
        if (!first) continue;
        const entry = callOf(idx, req.id, req.frame.connection ?? 0);
        for (const resp of req.responses) {
          const d = deliveryOf(idx, resp.frame);
          if (!d || d.seq < first.frame.seq) continue;
          const taken =
            entry?.[1].states.find((s) => s.seq > d.seq && (s.from === 'CANCEL_REQUESTED' || s.from === 'STOPPED_LOCALLY') && (s.to === 'SUCCEEDED' || s.to === 'FAILED')) ??
            (entry && entry[1].settled.every((n) => n.seq > d.seq) ? entry[1].settled.find((n) => n.note.outcome === 'result') : undefined);
          if (taken) {
            out.push({
              verdict: 'violated',
              witnesses: [first.frame.seq, d.seq, taken.seq],
              why: `The client took the response to request ${show(req.id)} (${frameName(resp.frame)}, arrived at ${d.t} ms) after it had cancelled the request: the call ${taken.kind === 'client-state' ? `went to ${taken.to}` : 'settled with its result'}.`,
            });
            continue;
          }
          const ignored =
            entry?.[1].states.find((s) => s.seq > d.seq && s.from === s.to && (s.to === 'CANCEL_REQUESTED' || s.to === 'STOPPED_LOCALLY')) ??
            findOnerrorFor(ctx, req.id, d.seq);
          out.push(
            entry || ignored
              ? {
                  verdict: 'satisfied',
                  witnesses: [first.frame.seq, d.seq, ignored?.seq],
                  why: `The client ignored the response to request ${show(req.id)} (${frameName(resp.frame)}) that arrived after its cancel.`,
                }
              : {
                  verdict: 'cannot-tell',
                  witnesses: [first.frame.seq, d.seq],
                  why: `The trace has no client state or SDK report for request ${show(req.id)}, so what the client made of the late response (${frameName(resp.frame)}) is not visible.`,
                },
          );
        }
      }
      return out;
    },
  },

  'NOTIFICATION-NO-RESPONSE': {
    nothing: 'No notifications/cancelled in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const c of idx.cancels) {
        const d = deliveryOf(idx, c.frame);
        const receiver = receiverOf(c.dir);
        if (!d) {
          out.push({ verdict: 'cannot-tell', witnesses: [c.frame.seq], why: `The cancel in ${frameName(c.frame)} has not reached the ${receiver} yet.` });
          continue;
        }
        // An answer names the notification's (forbidden) id, or has id null. On HTTP it comes on the
        // notification's own POST stream; on stdio, before the receiver got anything else.
        const stream = c.frame.http?.stream;
        const bound = stream === undefined ? (nextDelivery(idx, c.dir, d.seq)?.seq ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
        const answer = idx.orphans.find(
          (r) =>
            r.dir === OPPOSITE[c.dir] &&
            r.frame.seq > d.seq &&
            r.frame.seq < bound &&
            (stream === undefined || r.frame.http?.stream === stream) &&
            (('id' in c.msg && idKey(r.id) === idKey(c.msg.id)) || r.id === null),
        );
        out.push(
          answer
            ? {
                verdict: 'violated',
                witnesses: [c.frame.seq, d.seq, answer.frame.seq],
                why: `The ${receiver} answered the cancel notification in ${frameName(c.frame)} with a response (${frameName(answer.frame)}).`,
              }
            : { verdict: 'satisfied', witnesses: [c.frame.seq, d.seq], why: `The ${receiver} sent no response to the cancel notification in ${frameName(c.frame)}.` },
        );
      }
      return out;
    },
  },

  'ID-UNIQUE': {
    nothing: 'No request id was reused in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const list of idx.requestsByKey.values()) {
        for (let i = 1; i < list.length; i++) {
          const prev = list[i - 1] as Req;
          const cur = list[i] as Req;
          const who = sideOf(cur.dir);
          if (revision !== '2026-07-28') {
            out.push({
              verdict: 'violated',
              witnesses: [prev.frame.seq, cur.frame.seq],
              why: `The ${who} used id ${show(cur.id)} again (${frameName(cur.frame)}) after ${frameName(prev.frame)} in the same session.`,
            });
            continue;
          }
          const answered = prev.responses.some((r) => (deliveryOf(idx, r.frame)?.seq ?? Infinity) < cur.frame.seq);
          if (answered) continue;
          const abandoned = prev.cancels.some((c) => c.frame.seq < cur.frame.seq) || prev.aborts.some((a) => a.frame.seq < cur.frame.seq);
          out.push(
            abandoned
              ? {
                  verdict: 'violated',
                  severity: 'info',
                  witnesses: [prev.frame.seq, cur.frame.seq],
                  why: `The client reused id ${show(cur.id)} of a request it had cancelled and never got an answer for; whether that id is free again is unclear (U-7).`,
                }
              : {
                  verdict: 'violated',
                  witnesses: [prev.frame.seq, cur.frame.seq],
                  why: `The client reused id ${show(cur.id)} (${frameName(cur.frame)}) while ${frameName(prev.frame)} with that id still awaited its response.`,
                },
          );
        }
      }
      return out;
    },
  },

  'STDIO-FRAMING': {
    nothing: 'Every frame is one newline-terminated JSON-RPC message.',
    judge({ idx, revision }) {
      const batchesAllowed = revision === '2024-11-05' || revision === '2025-03-26';
      const out: Draft[] = [];
      for (const f of idx.frames) {
        const nl = f.raw.indexOf('\n');
        let problem: string | undefined;
        if (nl === -1) problem = 'does not end with a newline';
        else if (nl !== f.raw.length - 1) problem = 'contains a newline inside the message';
        else if (!f.msg) {
          const elements = messagesOf(f);
          if (elements.length === 0) problem = 'is not a JSON-RPC message';
          else if (!batchesAllowed) problem = `is a JSON-RPC batch, which ${revision} does not allow`;
        } else if (f.msg.jsonrpc !== '2.0' || (typeof f.msg.method !== 'string' && !isResponse(f.msg))) problem = 'is JSON but not a JSON-RPC message';
        if (problem) out.push({ verdict: 'violated', witnesses: [f.seq], why: `The ${sideOf(f.dir)}'s ${frameName(f)} ${problem}.` });
      }
      return out;
    },
  },

  'XPORT-STDIO-CANCEL-NOTIFY': {
    nothing: 'No running call was stopped in this trace.',
    judge({ idx }) {
      return stopsOfRunningCalls(idx).map(({ stop, req }): Draft => {
        const cancel = idx.cancels.find((c) => c.dir === 'c2s' && c.frame.seq > stop.seq && idKey(c.requestId) === idKey(req.id));
        return cancel
          ? {
              verdict: 'satisfied',
              witnesses: [stop.seq, cancel.frame.seq],
              why: `Stop at ${stop.t} ms was followed by notifications/cancelled for request ${show(req.id)} (${frameName(cancel.frame)}).`,
            }
          : {
              verdict: 'violated',
              witnesses: [req.frame.seq, stop.seq],
              why: `The client abandoned request ${show(req.id)} (Stop at ${stop.t} ms) without sending notifications/cancelled for it.`,
            };
      });
    },
  },

  'XPORT-HTTP-CANCEL-EXPLICIT': {
    nothing: 'No running call was stopped in this trace.',
    judge({ idx }) {
      return stopsOfRunningCalls(idx).map(({ stop, req }): Draft => {
        const cancel = idx.cancels.find((c) => c.dir === 'c2s' && c.frame.seq > stop.seq && idKey(c.requestId) === idKey(req.id));
        if (cancel)
          return {
            verdict: 'satisfied',
            witnesses: [stop.seq, cancel.frame.seq],
            why: `Stop at ${stop.t} ms was followed by an explicit notifications/cancelled for request ${show(req.id)} (${frameName(cancel.frame)}).`,
          };
        const close = req.aborts.find((a) => a.frame.seq > stop.seq);
        return {
          verdict: 'violated',
          witnesses: [req.frame.seq, stop.seq, close?.frame.seq],
          why: close
            ? `The client abandoned request ${show(req.id)} by closing its stream (${frameName(close.frame)}) without an explicit notifications/cancelled.`
            : `The client abandoned request ${show(req.id)} (Stop at ${stop.t} ms) without sending notifications/cancelled.`,
        };
      });
    },
  },

  'XPORT-HTTP-CLOSE-IS-CANCEL': {
    nothing: 'The client closed no request stream in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const a of idx.aborts) {
        const req = a.target;
        const d = deliveryOf(idx, a.frame);
        if (!req || !d) continue;
        const answered = req.responses.find((r) => r.frame.seq < d.seq);
        if (answered) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [answered.frame.seq, a.frame.seq],
            why: `Request ${show(req.id)} was already answered (${frameName(answered.frame)}) when the close reached the server, so there was nothing left to cancel (R1).`,
          });
          continue;
        }
        const unclear = /^application\/json/i.test(idx.streams.get(a.stream)?.head?.http?.headers?.['content-type'] ?? '');
        const sev: Severity | undefined = unclear ? 'info' : undefined;
        const started = notes(idx, req.id, 'handler-started').filter((e) => e.seq < d.seq).at(-1);
        if (!started) {
          out.push({
            verdict: 'cannot-tell',
            witnesses: [a.frame.seq, d.seq],
            why: `The trace has no handler notes for request ${show(req.id)}, so how the server took the close is not visible.`,
          });
          continue;
        }
        const finished = notes(idx, req.id, 'handler-returned', 'handler-threw').find((e) => e.seq > started.seq && e.seq < d.seq);
        if (finished) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [finished.seq, a.frame.seq],
            why: `The handler for request ${show(req.id)} had already finished when the close reached the server (R1).`,
          });
          continue;
        }
        const seen = notes(idx, req.id, 'handler-cancel-seen').find((e) => e.seq > d.seq);
        const ended = notes(idx, req.id, 'handler-returned', 'handler-threw').find((e) => e.seq > d.seq);
        if (seen && (!ended || seen.seq < ended.seq)) {
          out.push({
            verdict: 'satisfied',
            witnesses: [a.frame.seq, d.seq, seen.seq],
            why: `The server took the close of request ${show(req.id)}'s stream as its cancellation: the handler's signal aborted at ${seen.t} ms.`,
          });
          continue;
        }
        out.push({
          verdict: 'violated',
          severity: sev,
          witnesses: [a.frame.seq, d.seq, (ended ?? started).seq],
          why: `${ended ? `The handler for request ${show(req.id)} ran on and returned` : `The handler for request ${show(req.id)} kept running`} without being cancelled after the client closed the stream (${frameName(a.frame)})${unclear ? '; the response was application/json, where the close is not clearly a cancel (U-4)' : ''}.`,
        });
      }
      return out;
    },
  },

  'XPORT-HTTP-NO-CANCEL-NOTIFICATION': {
    nothing: 'The client sent no notifications/cancelled: on this binding the stream close is the signal.',
    judge({ idx }) {
      return idx.cancels
        .filter((c) => c.dir === 'c2s')
        .map(
          (c): Draft => ({
            verdict: 'violated',
            witnesses: [c.frame.seq],
            why: `The client sent notifications/cancelled (${frameName(c.frame)}) over 2026 HTTP anyway: not required or expected, but not prohibited either (U-3).`,
          }),
        );
    },
  },

  'XPORT-HTTP-DISCONNECT-NOT-CANCEL': {
    nothing: 'The client dropped no request stream in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const a of idx.aborts) {
        const req = a.target;
        const d = deliveryOf(idx, a.frame);
        if (!req || !d || req.responses.some((r) => r.frame.seq < d.seq)) continue;
        const started = notes(idx, req.id, 'handler-started').filter((e) => e.seq < d.seq).at(-1);
        if (!started) {
          out.push({
            verdict: 'cannot-tell',
            witnesses: [a.frame.seq, d.seq],
            why: `The trace has no handler notes for request ${show(req.id)}, so how the server took the disconnect is not visible.`,
          });
          continue;
        }
        if (notes(idx, req.id, 'handler-returned', 'handler-threw').some((e) => e.seq > started.seq && e.seq < d.seq)) continue;
        const seen = notes(idx, req.id, 'handler-cancel-seen').find((e) => e.seq > d.seq);
        const cancelled =
          seen &&
          req.cancels.some((c) => {
            const cd = deliveryOf(idx, c.frame);
            return cd !== undefined && cd.seq < seen.seq;
          });
        out.push(
          seen && !cancelled
            ? {
                verdict: 'violated',
                witnesses: [a.frame.seq, d.seq, seen.seq],
                why: `The server cancelled the handler for request ${show(req.id)} when the client dropped the stream (${frameName(a.frame)}), with no notifications/cancelled.`,
              }
            : {
                verdict: 'satisfied',
                witnesses: [a.frame.seq, d.seq],
                why: `The server kept request ${show(req.id)} running after the client dropped its stream.`,
              },
        );
      }
      return out;
    },
  },

  'HTTP-NO-EARLY-CLOSE': {
    nothing: 'The server closed no request stream before its response.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const s of idx.streams.values()) {
        const req = s.req;
        const end = s.end;
        if (!req || !end || !s.open) continue;
        if (s.s2c.some((f) => f.seq < end.seq && f.msg && isResponse(f.msg) && idKey(f.msg.id) === idKey(req.id))) continue;
        if (s.aborts.some((a) => (deliveryOf(idx, a.frame)?.seq ?? Infinity) < end.seq)) continue;
        if (idx.sessionExpired.some((seq) => seq < end.seq)) {
          out.push({ verdict: 'satisfied', witnesses: [req.frame.seq, end.seq], why: `The server closed ${show(req.id)}'s stream after the session expired.` });
          continue;
        }
        const cancel = req.cancels.find((c) => (deliveryOf(idx, c.frame)?.seq ?? Infinity) < end.seq);
        if (cancel) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [cancel.frame.seq, end.seq],
            why: `The server closed ${show(req.id)}'s stream without a response after the cancel reached it, which is how it can also keep CANCEL-NO-RESPONSE.`,
          });
        } else if (revision === '2025-11-25') {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [req.frame.seq, end.seq],
            why: `The server closed ${show(req.id)}'s stream before its response; in 2025-11-25 that may be a polling close, which is not a cancel (R11).`,
          });
        } else {
          out.push({
            verdict: 'violated',
            witnesses: [req.frame.seq, end.seq],
            why: `The server closed ${show(req.id)}'s stream (${frameName(end)}) before sending its response.`,
          });
        }
      }
      return out;
    },
  },

  'HTTP-NOTIFICATION-202': {
    nothing: 'The client POSTed no notification in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const s of idx.streams.values()) {
        const open = s.open;
        if (!open?.msg || !(isNotification(open.msg) || isResponse(open.msg))) continue;
        const what = open.msg.method ?? 'response';
        const head = s.head;
        if (!head) {
          out.push({ verdict: 'cannot-tell', witnesses: [open.seq], why: `The POST of ${what} (${frameName(open)}) has no HTTP answer yet.` });
          continue;
        }
        const status = head.http?.status;
        const body = s.s2c.find((f) => f.http?.part === 'chunk' && f.raw.trim() !== '');
        if (status === 202 && body)
          out.push({ verdict: 'violated', witnesses: [open.seq, head.seq, body.seq], why: `The server answered the POST of ${what} with 202 but also a body (${frameName(body)}).` });
        else if (status === 202)
          out.push({ verdict: 'satisfied', witnesses: [open.seq, head.seq], why: `The server answered the POST of ${what} with 202 Accepted and no body.` });
        else if (status !== undefined && status >= 400)
          out.push({ verdict: 'satisfied', witnesses: [open.seq, head.seq], why: `The server refused the POST of ${what} with HTTP ${status}, as it may.` });
        else
          out.push({ verdict: 'violated', witnesses: [open.seq, head.seq], why: `The server answered the POST of ${what} with HTTP ${status ?? '(no status)'} instead of 202.` });
      }
      return out;
    },
  },

  'HTTP-GET-STREAM': {
    nothing: 'No response travelled on a GET stream.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const s of idx.streams.values()) {
        const open = s.open;
        // Only a GET the server answered with an SSE stream (405 with a JSON error is the other allowed answer).
        if (open?.http?.method !== 'GET' || s.head?.http?.status !== 200) continue;
        for (const f of s.s2c) {
          if (!f.msg || !isResponse(f.msg)) continue;
          const headers = open.http.headers;
          if (!headers)
            out.push({ verdict: 'cannot-tell', witnesses: [open.seq, f.seq], why: `The GET (${frameName(open)}) has no recorded headers, so whether it resumes a stream is not visible.` });
          else if (headers['last-event-id'] !== undefined)
            out.push({ verdict: 'satisfied', witnesses: [open.seq, f.seq], why: `The response in ${frameName(f)} is replayed on a GET that resumes a stream (Last-Event-ID).` });
          else
            out.push({ verdict: 'violated', witnesses: [open.seq, f.seq], why: `The server sent a response (${frameName(f)}) on the standalone GET stream, which resumes nothing.` });
        }
      }
      return out;
    },
  },

  'SERVER-NO-REQUESTS': {
    nothing: 'The server sent no request.',
    judge({ idx }) {
      return idx.requests
        .filter((r) => r.dir === 's2c')
        .map((r): Draft => ({ verdict: 'violated', witnesses: [r.frame.seq], why: `The server sent a ${r.method} request (${frameName(r.frame)}).` }));
    },
  },

  'PROGRESS-TOKEN-UNIQUE': {
    nothing: 'No two active requests shared a progress token.',
    judge({ idx }) {
      const out: Draft[] = [];
      const byToken = new Map<string, Req[]>();
      for (const req of idx.requests) {
        if (req.token === undefined) continue;
        const k = dirKey(req.dir, req.token, req.frame.connection);
        // Requests answered by now stay answered: drop them, so a token reused in turn costs nothing.
        const earlier = (byToken.get(k) ?? []).filter((prev) => !prev.responses.some((r) => (deliveryOf(idx, r.frame)?.seq ?? Infinity) < req.frame.seq));
        for (const prev of earlier) {
          const abandoned = prev.cancels.some((c) => c.frame.seq < req.frame.seq) || prev.aborts.some((a) => a.frame.seq < req.frame.seq);
          out.push({
            verdict: 'violated',
            severity: abandoned ? 'info' : undefined,
            witnesses: [prev.frame.seq, req.frame.seq],
            why: abandoned
              ? `Request ${show(req.id)} reuses progress token ${show(req.token)} of cancelled request ${show(prev.id)}, which never answered; whether it is still active is unclear.`
              : `Requests ${show(prev.id)} and ${show(req.id)} are active at the same time with the same progress token ${show(req.token)}.`,
          });
        }
        byToken.set(k, [...earlier, req]);
      }
      return out;
    },
  },

  'PROGRESS-MONOTONIC': {
    nothing: 'Every progress notification is higher than the one before for its request.',
    judge({ idx }) {
      const out: Draft[] = [];
      const lastByOwner = new Map<Req | string, Progress>();
      for (const p of idx.progress) {
        const key = p.owner ?? dirKey(p.dir, p.token);
        const prev = lastByOwner.get(key);
        if (typeof p.value !== 'number') {
          out.push({ verdict: 'violated', witnesses: [p.frame.seq], why: `The progress in ${frameName(p.frame)} has no numeric progress value.` });
        } else if (prev && typeof prev.value === 'number' && p.value <= prev.value) {
          out.push({
            verdict: 'violated',
            witnesses: [prev.frame.seq, p.frame.seq],
            why: `Progress for token ${show(p.token)} went from ${prev.value} (${frameName(prev.frame)}) to ${p.value} (${frameName(p.frame)}).`,
          });
        }
        if (typeof p.value === 'number') lastByOwner.set(key, p);
      }
      return out;
    },
  },

  'PROGRESS-ACTIVE-ONLY': {
    nothing: 'Every progress notification names the token of an active request.',
    judge(ctx) {
      const { idx, revision } = ctx;
      const out: Draft[] = [];
      for (const p of idx.progress) {
        const owner = p.owner;
        if (!owner) {
          out.push({
            verdict: 'violated',
            witnesses: [p.frame.seq],
            why: `The ${sideOf(p.dir)}'s progress in ${frameName(p.frame)} names token ${show(p.token)}, which no request of the ${receiverOf(p.dir)} provided.`,
          });
          continue;
        }
        if (owner.responses.some((r) => r.frame.seq < p.frame.seq && !r.frame.injected)) continue; // PROGRESS-STOP-AFTER-COMPLETION
        const s = firstDelivered(signalsOf(ctx, owner), true);
        if (s && s.delivery.seq < p.frame.seq) {
          out.push({
            verdict: 'violated',
            severity: 'info',
            witnesses: [s.frame.seq, s.delivery.seq, p.frame.seq],
            why:
              revision === '2026-07-28'
                ? `Progress for request ${show(owner.id)} (${frameName(p.frame)}) came after ${signalName(s)} reached the ${sideOf(p.dir)}; 2026-07-28 judges that under CANCEL-NO-FURTHER-MESSAGES.`
                : `Progress for request ${show(owner.id)} (${frameName(p.frame)}) came after ${signalName(s)} reached the ${sideOf(p.dir)}; before 2026 the spec only implies a cancelled request is no longer in progress (U-6).`,
          });
        }
      }
      return out;
    },
  },

  'PROGRESS-STOP-AFTER-COMPLETION': {
    nothing: 'No progress notification came after its request\'s response.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const p of idx.progress) {
        // A forged response completes nothing on the side that sends the progress.
        const done = p.owner?.responses.find((r) => r.frame.seq < p.frame.seq && !r.frame.injected);
        if (!done || createdTask(done, revision) !== undefined) continue; // tasks: PROGRESS-TASK-LIFETIME / TASKX-NO-PROGRESS
        out.push({
          verdict: 'violated',
          witnesses: [done.frame.seq, p.frame.seq],
          why: `The ${sideOf(p.dir)} sent progress for request ${show(p.owner?.id)} (${frameName(p.frame)}) after its response (${frameName(done.frame)}).`,
        });
      }
      return out;
    },
  },

  'PROGRESS-TASK-LIFETIME': {
    nothing: 'No progress for a task in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const p of idx.progress) {
        const created = p.owner?.responses.find((r) => r.frame.seq < p.frame.seq && createdTask(r, revision) !== undefined);
        if (!created) continue;
        const taskId = createdTask(created, revision) as string;
        const terminal = (idx.tasks.get(taskId) ?? []).find((r) => r.frame.seq < p.frame.seq && TERMINAL.has(r.status));
        out.push(
          terminal
            ? {
                verdict: 'violated',
                witnesses: [terminal.frame.seq, p.frame.seq],
                why: `Progress for task ${show(taskId)} (${frameName(p.frame)}) came after the task was reported ${terminal.status} (${frameName(terminal.frame)}).`,
              }
            : {
                verdict: 'satisfied',
                witnesses: [created.frame.seq, p.frame.seq],
                why: `Progress for task ${show(taskId)} (${frameName(p.frame)}) uses its request's token while the task is not yet finished.`,
              },
        );
      }
      return out;
    },
  },

  'TIMEOUT-CANCEL': {
    nothing: 'No timeout is visible in this trace (it has no timeout event; only a client call settling with a timeout error shows one).',
    nothingVerdict: 'cannot-tell',
    judge(ctx) {
      const { idx } = ctx;
      const out: Draft[] = [];
      const stopsByCall = new Map<string, number[]>();
      for (const stop of idx.stops) stopsByCall.set(stop.action.call, [...(stopsByCall.get(stop.action.call) ?? []), stop.seq]);
      for (const [name, info] of idx.calls) {
        if (info.requestId === null) continue;
        for (const settled of info.settled) {
          const message = settled.note.message ?? '';
          if (settled.note.outcome !== 'error' || !/timed out|timeout/i.test(message)) continue;
          if ((stopsByCall.get(name) ?? []).some((seq) => seq < settled.seq)) continue;
          const req = latestRequest(idx, 'c2s', info.requestId, settled.seq);
          if (!req || req.responses.some((r) => (deliveryOf(idx, r.frame)?.seq ?? Infinity) < settled.seq)) continue;
          const signal = signalsOf(ctx, req).find((s) => s.strong);
          out.push(
            signal
              ? {
                  verdict: 'satisfied',
                  witnesses: [settled.seq, signal.frame.seq],
                  why: `Request ${show(req.id)} timed out ("${message}") and the client cancelled it (${frameName(signal.frame)}).`,
                }
              : {
                  verdict: 'violated',
                  witnesses: [req.frame.seq, settled.seq],
                  why: `Request ${show(req.id)} timed out ("${message}") and the client stopped waiting without cancelling it.`,
                },
          );
        }
      }
      return out;
    },
  },

  'TASK-CANCEL-TERMINAL-REJECT': {
    nothing: 'No tasks/cancel for a finished task in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.method !== 'tasks/cancel') continue;
        const taskId = req.msg.params?.taskId;
        if (typeof taskId !== 'string') continue;
        const arrived = deliveryOf(idx, req.frame)?.seq ?? req.frame.seq;
        const known = (idx.tasks.get(taskId) ?? []).filter((r) => r.frame.dir === OPPOSITE[req.dir] && r.frame.seq < arrived).at(-1);
        if (!known || !TERMINAL.has(known.status)) continue;
        const resp = req.responses[0];
        if (!resp) {
          out.push({ verdict: 'cannot-tell', witnesses: [known.frame.seq, req.frame.seq], why: `The tasks/cancel for finished task ${show(taskId)} has no answer yet.` });
          continue;
        }
        const code = resp.msg.error?.code;
        out.push(
          code === -32602
            ? {
                verdict: 'satisfied',
                witnesses: [known.frame.seq, req.frame.seq, resp.frame.seq],
                why: `The tasks/cancel for task ${show(taskId)}, already ${known.status}, was rejected with -32602.`,
              }
            : {
                verdict: 'violated',
                witnesses: [known.frame.seq, req.frame.seq, resp.frame.seq],
                why: `The tasks/cancel for task ${show(taskId)}, already ${known.status} (${frameName(known.frame)}), was answered with ${code === undefined ? 'a result' : `error ${code}`} instead of -32602.`,
              },
        );
      }
      return out;
    },
  },

  'TASK-CANCEL-TRANSITION': {
    nothing: 'No tasks/cancel was answered with a result in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.method !== 'tasks/cancel') continue;
        const resp = req.responses.find((r) => 'result' in r.msg);
        const taskId = req.msg.params?.taskId;
        if (!resp || typeof taskId !== 'string') continue;
        const arrived = deliveryOf(idx, req.frame)?.seq ?? req.frame.seq;
        const known = (idx.tasks.get(taskId) ?? []).filter((r) => r.frame.dir === OPPOSITE[req.dir] && r.frame.seq < arrived).at(-1);
        if (known && TERMINAL.has(known.status)) continue; // not a valid cancel: TASK-CANCEL-TERMINAL-REJECT
        const status = taskOf(resp.msg.result)?.status;
        out.push(
          status === 'cancelled'
            ? { verdict: 'satisfied', witnesses: [req.frame.seq, resp.frame.seq], why: `The answer to tasks/cancel for ${show(taskId)} shows the task cancelled.` }
            : {
                verdict: 'violated',
                witnesses: [req.frame.seq, resp.frame.seq],
                why: `The answer to tasks/cancel for ${show(taskId)} (${frameName(resp.frame)}) shows status ${show(status)}, not cancelled.`,
              },
        );
      }
      return out;
    },
  },

  'TASK-CANCEL-STICKY': {
    nothing: 'No task was reported cancelled in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const [taskId, reports] of idx.tasks) {
        const cancelled = reports.find((r) => r.status === 'cancelled');
        if (!cancelled) continue;
        const later = reports.filter((r) => r.frame.seq > cancelled.frame.seq && r.status !== 'cancelled');
        for (const r of later)
          out.push({
            verdict: 'violated',
            witnesses: [cancelled.frame.seq, r.frame.seq],
            why: `Task ${show(taskId)} was reported cancelled (${frameName(cancelled.frame)}) and later ${r.status} (${frameName(r.frame)}).`,
          });
        if (later.length === 0)
          out.push({ verdict: 'satisfied', witnesses: [cancelled.frame.seq], why: `Task ${show(taskId)} stays cancelled after ${frameName(cancelled.frame)}.` });
      }
      return out;
    },
  },

  'TASKX-NO-NOTIF-CANCEL': {
    nothing: 'No notifications/cancelled names a request that became a task.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const c of idx.cancels) {
        const req = c.target;
        const created = req?.responses.find((r) => createdTask(r, revision) !== undefined);
        if (!req || !created) continue;
        const d = deliveryOf(idx, created.frame);
        out.push(
          d && d.seq < c.frame.seq
            ? {
                verdict: 'violated',
                witnesses: [created.frame.seq, d.seq, c.frame.seq],
                why: `The client used notifications/cancelled (${frameName(c.frame)}) for request ${show(req.id)} after it had become task ${show(createdTask(created, revision))}; tasks/cancel was due.`,
              }
            : {
                verdict: 'satisfied',
                severity: 'info',
                witnesses: [created.frame.seq, c.frame.seq],
                why: `The client cancelled request ${show(req.id)} before it learned the request had become a task (R9).`,
              },
        );
      }
      return out;
    },
  },

  'TASKX-CANCEL-ACK': {
    nothing: 'No tasks/cancel was acknowledged in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.method !== 'tasks/cancel') continue;
        const resp = req.responses.find((r) => 'result' in r.msg);
        if (!resp) continue;
        const extra = isObject(resp.msg.result) ? Object.keys(resp.msg.result).filter((k) => k !== '_meta' && k !== 'resultType') : ['(not an object)'];
        out.push(
          extra.length === 0
            ? { verdict: 'satisfied', witnesses: [req.frame.seq, resp.frame.seq], why: `tasks/cancel ${show(req.id)} was acknowledged with an empty result.` }
            : {
                verdict: 'violated',
                witnesses: [req.frame.seq, resp.frame.seq],
                why: `The acknowledgement of tasks/cancel ${show(req.id)} (${frameName(resp.frame)}) is not empty: it carries ${extra.join(', ')}.`,
              },
        );
      }
      return out;
    },
  },

  'TASKX-CANCEL-RESULTTYPE': {
    nothing: 'No tasks/cancel was acknowledged in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.method !== 'tasks/cancel') continue;
        const resp = req.responses.find((r) => 'result' in r.msg);
        if (!resp) continue;
        const resultType = isObject(resp.msg.result) ? resp.msg.result.resultType : undefined;
        out.push(
          resultType === 'complete'
            ? { verdict: 'satisfied', witnesses: [resp.frame.seq], why: `The result of tasks/cancel ${show(req.id)} has resultType "complete".` }
            : {
                verdict: 'violated',
                witnesses: [resp.frame.seq],
                why: `The result of tasks/cancel ${show(req.id)} (${frameName(resp.frame)}) has resultType ${resultType === undefined ? 'missing' : show(resultType)}, not "complete".`,
              },
        );
      }
      return out;
    },
  },

  'TASKX-NO-PROGRESS': {
    nothing: 'No progress for a task in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const p of idx.progress) {
        const created = p.owner?.responses.find((r) => r.frame.seq < p.frame.seq && createdTask(r, revision) !== undefined);
        if (!created) continue;
        out.push({
          verdict: 'violated',
          witnesses: [created.frame.seq, p.frame.seq],
          why: `The server sent progress (${frameName(p.frame)}) for request ${show(p.owner?.id)} after answering it with task ${show(createdTask(created, revision))}.`,
        });
      }
      return out;
    },
  },

  'TASKX-ROUTING-HEADER': {
    nothing: 'No tasks/get, tasks/update or tasks/cancel was POSTed in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.dir !== 'c2s' || !['tasks/get', 'tasks/update', 'tasks/cancel'].includes(req.method)) continue;
        const http = req.frame.http;
        if (!http || http.part !== 'request') continue;
        const taskId = req.msg.params?.taskId;
        const name = http.headers?.['mcp-name'];
        if (!http.headers)
          out.push({ verdict: 'cannot-tell', witnesses: [req.frame.seq], why: `The POST of ${req.method} (${frameName(req.frame)}) has no recorded headers.` });
        else if (name !== undefined && name === String(taskId))
          out.push({ verdict: 'satisfied', witnesses: [req.frame.seq], why: `The POST of ${req.method} carries Mcp-Name ${show(name)}, its taskId.` });
        else
          out.push({
            verdict: 'violated',
            witnesses: [req.frame.seq],
            why: `The POST of ${req.method} (${frameName(req.frame)}) ${name === undefined ? 'has no Mcp-Name header' : `has Mcp-Name ${show(name)}`}, not its taskId ${show(taskId)}.`,
          });
      }
      return out;
    },
  },
};

/** The client SDK's "unknown message ID" report of a response to `id`, after `afterSeq`. */
function findOnerrorFor(ctx: Ctx, id: Id, afterSeq: number): HandlerEvent | undefined {
  const prefix = 'Received a response for an unknown message ID: ';
  for (const e of ctx.idx.clientOnerror) {
    if (e.seq <= afterSeq || e.note.type !== 'client-onerror' || !e.note.message.startsWith(prefix)) continue;
    try {
      const msg: unknown = JSON.parse(e.note.message.slice(prefix.length));
      if (isObject(msg) && idKey(msg.id) === idKey(id)) return e;
    } catch {
      // not JSON: not a response report
    }
  }
  return undefined;
}

/** Rule ids the checker can judge (a catalog rule marked judged without a judge is a bug). */
export const JUDGED_RULES: readonly string[] = Object.keys(JUDGES);

// ---------------------------------------------------------------------------------------------

function tidy(witnesses: readonly (number | undefined)[]): number[] {
  return [...new Set(witnesses.filter((w): w is number => w !== undefined))].sort((a, b) => a - b);
}

/**
 * Judges `trace` against every rule of `catalog` for a run on `revision` over `transport`.
 * Pure: the same arguments give the same findings, in catalog order, each rule's findings by
 * their first witness.
 */
export function check(catalog: readonly Rule[], revision: Revision, transport: TransportKind, trace: readonly TraceEvent[]): Finding[] {
  const idx = indexTrace(trace);
  const findings: Finding[] = [];
  for (const rule of catalog) {
    const clause: Clause | undefined = clauseFor(rule, revision, transport);
    if (!clause) {
      findings.push({
        rule: rule.id,
        severity: 'info',
        verdict: 'not-applicable',
        witnesses: [],
        why: rule.revisions[revision]
          ? `The rule does not apply on ${transport} in ${revision}.`
          : `The rule is not part of revision ${revision}.`,
      });
      continue;
    }
    const severity = severityOf(clause.keyword);
    if (!rule.judged) {
      findings.push({ rule: rule.id, severity, verdict: 'cannot-tell', witnesses: [], why: `Not judged: ${rule.reason}` });
      continue;
    }
    const judge = JUDGES[rule.id];
    if (!judge) {
      findings.push({ rule: rule.id, severity, verdict: 'cannot-tell', witnesses: [], why: 'The checker has no judge for this rule yet.' });
      continue;
    }
    const drafts = judge.judge({ revision, transport, idx });
    if (drafts.length === 0) {
      findings.push({ rule: rule.id, severity, verdict: judge.nothingVerdict ?? 'satisfied', witnesses: [], why: judge.nothing });
      continue;
    }
    const mine = drafts.map(
      (d): Finding => ({ rule: rule.id, severity: d.severity ?? severity, verdict: d.verdict, witnesses: tidy(d.witnesses), why: d.why }),
    );
    mine.sort((a, b) => (a.witnesses[0] ?? -1) - (b.witnesses[0] ?? -1) || (a.witnesses.at(-1) ?? -1) - (b.witnesses.at(-1) ?? -1));
    findings.push(...mine);
  }
  return findings;
}
