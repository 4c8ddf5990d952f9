/**
 * What the receiver of a cancel did with it, read off the server handler's notes and the frames
 * it wrote after the cancel arrived: it stopped the handler of a valid cancel (CANCEL-RECV-STOP),
 * and it left an invalid one alone (CANCEL-INVALID-IGNORE).
 */
import {
  OPPOSITE,
  deliveryOf,
  idKey,
  isId,
  isObject,
  nextDelivery,
  type DeliveryEvent,
  type HandlerEvent,
  type IndexedCancel as Cancel,
  type IndexedRequest as Req,
  type RequestId as Id,
  type TraceIndex as Index,
} from '../../trace/index.ts';
import { frameName, latestRequest, receiverOf, show, type Ctx, type Draft, type Judge } from './helpers.ts';
import { arrivedFirst, firstDelivered, signalName, signalsOf, type Signal } from './signals.ts';

type Delivered = Signal & { delivery: DeliveryEvent };

type NoteType = HandlerEvent['note']['type'];

function notesOf(idx: Index, id: Id, ...types: NoteType[]): HandlerEvent[] {
  return (idx.serverNotes.get(idKey(id)) ?? []).filter((e) => types.includes(e.note.type));
}

/** A handler's steps, as its receiver notes them: the server's handler of a client request, or the client's of a server request. */
const HANDLER_NOTES = {
  c2s: { started: ['handler-started'], seen: ['handler-cancel-seen'], ended: ['handler-returned', 'handler-threw'] },
  s2c: { started: ['client-handler-started'], seen: ['client-handler-cancel-seen'], ended: ['client-handler-returned', 'client-handler-threw'] },
} as const satisfies Record<'c2s' | 's2c', Record<'started' | 'seen' | 'ended', readonly NoteType[]>>;

/** The receiver's notes of `step` for the handler of `req`. */
function stepsOf(idx: Index, req: Req, step: 'started' | 'seen' | 'ended'): HandlerEvent[] {
  const types: readonly NoteType[] = HANDLER_NOTES[req.dir][step];
  const notes = req.dir === 'c2s' ? idx.serverNotes : idx.clientHandlerNotes;
  return (notes.get(idKey(req.id)) ?? []).filter((e) => types.includes(e.note.type));
}

/** Why a delivered cancel is invalid (the clause's three cases), or undefined for a valid one. */
function invalidity(idx: Index, c: Cancel, d: DeliveryEvent): string | undefined {
  const params = c.msg.params;
  if ('id' in c.msg || !isObject(params) || !c.hasRequestId || !isId(c.requestId)) return 'malformed';
  if (!c.target) return `names ${show(c.requestId)}, an unknown request`;
  // Unknown to the receiver: the cancel overtook the request on the wire (on HTTP its own POST may, or a delay fault holds the request).
  if (arrivedFirst(idx, c.frame, c.target)) return `names request ${show(c.requestId)}, which had not reached the ${receiverOf(c.dir)} yet`;
  const done = c.target.responses.find((r) => r.frame.seq < d.seq);
  return done ? `names request ${show(c.requestId)}, already answered (${frameName(done.frame)})` : undefined;
}

/**
 * What the receiver did about the cancel, if anything: answered the notification (on stdio
 * before it read anything else, on HTTP on the notification's POST stream), answered the named
 * request again, or stopped some other handler it took the cancel for.
 */
function reaction(ctx: Ctx, c: Cancel, d: DeliveryEvent): { seq: number; what: string } | undefined {
  const { idx } = ctx;
  const stream = c.frame.http?.stream;
  // What the receiver did before it read its next frame was done about this cancel.
  const next = nextDelivery(idx, c.dir, d.seq)?.seq ?? Number.POSITIVE_INFINITY;
  const bound = stream === undefined ? next : Number.POSITIVE_INFINITY;
  const answer = idx.orphans.find(
    (r) =>
      r.dir === OPPOSITE[c.dir] &&
      r.frame.seq > d.seq &&
      r.frame.seq < bound &&
      (stream === undefined || r.frame.http?.stream === stream) &&
      r.id === null,
  );
  // (An answer naming the id a malformed cancel carried answers the request JSON-RPC takes it for:
  // that is not acting on the cancel, so it is not looked for here.)
  if (answer) return { seq: answer.frame.seq, what: `answered the notification (${frameName(answer.frame)})` };
  const answered = c.target?.responses.some((r) => r.frame.seq < d.seq) === true;
  const again = answered ? c.target?.responses.find((r) => r.frame.seq > d.seq) : undefined;
  if (again) return { seq: again.frame.seq, what: `answered request ${show(c.target?.id)} again (${frameName(again.frame)})` };
  if (c.dir !== 'c2s') return undefined;
  // A handler that saw a cancel right after this one arrived, though nothing else told it to stop.
  for (const notes of idx.serverNotes.values()) {
    for (const seen of notes) {
      if (seen.note.type !== 'handler-cancel-seen' || seen.seq < d.seq || seen.seq > next) continue;
      const req = latestRequest(idx, 'c2s', seen.note.requestId, seen.seq);
      const told = req && signalsOf(ctx, req).some((s) => s.frame !== c.frame && s.delivery !== undefined && s.delivery.seq < seen.seq);
      if (!told) return { seq: seen.seq, what: `stopped the handler of request ${show(seen.note.requestId)} at ${seen.t} ms` };
    }
  }
  return undefined;
}

/** The first sign after `from` (and before `to`) that the handler of `req` still worked: a side effect it committed, or progress it sent. */
function workAfter(idx: Index, req: Req, from: number, to: number): { seq: number; what: string } | undefined {
  const commit = notesOf(idx, req.id, 'ledger-commit').find((e) => e.seq > from && e.seq < to);
  const progress = (idx.progressByOwner.get(req) ?? []).find((p) => p.dir === 's2c' && p.frame.seq > from && p.frame.seq < to);
  if (progress && (!commit || progress.frame.seq < commit.seq)) return { seq: progress.frame.seq, what: `it sent progress (${frameName(progress.frame)})` };
  return commit && { seq: commit.seq, what: `it committed a side effect at ${commit.t} ms` };
}

/**
 * Whether the handler of `req` stopped once signal `s` reached the server: its signal aborted
 * (handler-cancel-seen) and it ended with no more work done; it worked on, or ran to its end
 * never told; or the trace ends first ("as soon as practical" has no bound).
 */
function stopDraft(idx: Index, req: Req, s: Delivered): Draft {
  const severity = s.strong ? undefined : ('info' as const);
  const receiver = receiverOf(req.dir);
  const ended = stepsOf(idx, req, 'ended').find((e) => e.seq > s.delivery.seq);
  // A signal that aborts only after the handler ended (its stream closing after the response) stopped nothing.
  const seen = stepsOf(idx, req, 'seen').find((e) => e.seq > s.delivery.seq && (!ended || e.seq <= ended.seq));
  const work =
    req.dir === 'c2s'
      ? workAfter(idx, req, (seen ?? s.delivery).seq, ended?.seq ?? Number.POSITIVE_INFINITY)
      : seen && ended?.note.type === 'client-handler-returned' && ended.t > seen.t
        ? // The client's handler has no progress or ledger: one that returns its answer later, not at once, worked on.
          { seq: ended.seq, what: `it went on and returned its answer at ${ended.t} ms` }
        : undefined;
  const id = show(req.id);
  if (work)
    return {
      verdict: 'violated',
      severity,
      witnesses: [s.frame.seq, s.delivery.seq, seen?.seq, work.seq],
      why: `The handler of request ${id} kept working after ${seen ? `its signal aborted at ${seen.t} ms` : `${signalName(s)} reached the ${receiver}`}: ${work.what}.`,
    };
  if (ended && !seen)
    return {
      verdict: 'violated',
      severity,
      witnesses: [s.frame.seq, s.delivery.seq, ended.seq],
      why: `The handler of request ${id} ran on to its end at ${ended.t} ms without being stopped, though ${signalName(s)} reached the ${receiver} at ${s.delivery.t} ms.`,
    };
  if (ended && seen)
    return {
      verdict: 'satisfied',
      severity,
      witnesses: [s.frame.seq, s.delivery.seq, seen.seq, ended.seq],
      why: `The ${receiver} stopped the handler of request ${id}: its signal aborted at ${seen.t} ms, after ${signalName(s)} arrived at ${s.delivery.t} ms, and it ended at ${ended.t} ms.`,
    };
  return {
    verdict: 'cannot-tell',
    witnesses: [s.frame.seq, s.delivery.seq, seen?.seq],
    why: `The handler of request ${id} ${seen ? `saw its signal abort at ${seen.t} ms but ` : ''}had not ended before the trace (or its ${receiver}) did; "as soon as practical" has no bound to measure.`,
  };
}

export const RECEIVER_JUDGES = {
  'CANCEL-RECV-STOP': {
    inside: "the receiving handler's state, which only the lab's sides see",
    nothing: 'No cancel reached a receiver for a request it was handling.',
    judge(ctx) {
      const { idx } = ctx;
      const out: Draft[] = [];
      // Both ways: the server's handlers of the client's calls, the client's handlers of the server's requests.
      for (const req of idx.requests) {
        const signals = signalsOf(ctx, req);
        const s = firstDelivered(signals, true) ?? firstDelivered(signals, false);
        if (!s) continue; // not cancelled, or not yet delivered (CANCEL-NO-RESPONSE says which)
        const answered = req.ownResponses.find((r) => r.frame.seq < s.delivery.seq);
        const started = stepsOf(idx, req, 'started').filter((e) => e.seq > req.frame.seq && e.seq < s.delivery.seq).at(-1);
        const finished = started && stepsOf(idx, req, 'ended').find((e) => e.seq > started.seq && e.seq < s.delivery.seq);
        // Done before the cancel arrived: nothing was left to stop (R1, judged by CANCEL-REF-INPROGRESS).
        if (answered || finished) continue;
        if (!started) {
          out.push({
            verdict: 'cannot-tell',
            witnesses: [s.frame.seq, s.delivery.seq],
            why: `The trace has no handler notes for request ${show(req.id)}, so whether the ${receiverOf(req.dir)} stopped it is not visible.`,
          });
          continue;
        }
        out.push(stopDraft(idx, req, s));
      }
      return out;
    },
  },

  'CANCEL-INVALID-IGNORE': {
    nothing: 'No invalid cancel reached its receiver.',
    judge(ctx) {
      const out: Draft[] = [];
      for (const c of ctx.idx.cancels) {
        const d = deliveryOf(ctx.idx, c.frame);
        if (!d) continue;
        const why = invalidity(ctx.idx, c, d);
        if (why === undefined) continue;
        const receiver = receiverOf(c.dir);
        const what = why === 'malformed' ? 'is malformed' : why;
        const done = reaction(ctx, c, d);
        out.push(
          done
            ? {
                verdict: 'violated',
                witnesses: [c.frame.seq, d.seq, done.seq],
                why: `The cancel in ${frameName(c.frame)} ${what}, and the ${receiver} did not ignore it: it ${done.what}.`,
              }
            : { verdict: 'satisfied', witnesses: [c.frame.seq, d.seq], why: `The cancel in ${frameName(c.frame)} ${what}, and the ${receiver} ignored it.` },
        );
      }
      return out;
    },
  },
} satisfies Record<string, Judge>;
