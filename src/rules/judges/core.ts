/**
 * The judges of §10.1, the cancellation core: the cancel's shape and what it may name, and
 * what its receiver does after it (what its sender does with a late response, and the races:
 * races.ts).
 */
import {
  OPPOSITE,
  deliveryOf,
  dirKey,
  idKey,
  isId,
  isObject,
  nextDelivery,
  type DeliveryEvent,
  type IndexedRequest as Req,
  type IndexedResponse as Resp,
  type TraceIndex as Index,
} from '../../trace/index.ts';
import { createdTask, frameName, latestRequest, permittedRefusal, receiverOf, show, sideOf, type Draft, type Judge } from './helpers.ts';
import { doubtText, firstDelivered, messagesFor, signalName, signalsOf } from './signals.ts';

/** The first response to `req` its sender had received before `seq`, with its delivery. */
function receivedBefore(idx: Index, req: Req, seq: number): [Resp, DeliveryEvent] | undefined {
  for (const r of req.responses) {
    const d = deliveryOf(idx, r.frame);
    if (d !== undefined && d.seq < seq) return [r, d];
  }
  return undefined;
}

export const CORE_JUDGES = {
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
        const answered = receivedBefore(idx, req, c.frame.seq);
        if (answered) {
          const [resp, d] = answered;
          out.push({
            verdict: 'violated',
            witnesses: [resp.frame.seq, d.seq, c.frame.seq],
            why: `The ${who} cancelled request ${show(req.id)} in ${frameName(c.frame)} after it had received the response (${frameName(resp.frame)}, at ${d.t} ms).`,
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
        const firstSent = signals[0];
        if (!firstSent) continue;
        const receiver = receiverOf(req.dir);
        const strong = firstDelivered(signals, true);
        const any = firstDelivered(signals, false);
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
        const firstSent = signals[0];
        if (!firstSent) continue;
        const strong = firstDelivered(signals, true);
        const s = strong ?? firstDelivered(signals, false);
        if (!s) {
          out.push({
            verdict: 'cannot-tell',
            witnesses: [firstSent.frame.seq],
            why: `${signalName(firstSent).replace(/^t/, 'T')} has not reached the server yet.`,
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

  'NOTIFICATION-NO-RESPONSE': {
    nothing: 'No notifications/cancelled in this trace.',
    judge(ctx) {
      const { idx } = ctx;
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
        const refusal = answer && permittedRefusal(ctx, stream);
        if (answer && refusal?.body === answer.frame) {
          out.push({
            verdict: 'satisfied',
            witnesses: [c.frame.seq, d.seq, refusal.head.seq, answer.frame.seq],
            why: `The ${receiver} refused the POST of the cancel notification in ${frameName(c.frame)} with HTTP ${refusal.status} and an error response without id (${frameName(answer.frame)}), which the transport allows as the body of a refusal.`,
          });
          continue;
        }
        // A "notification" that carries an id is, to JSON-RPC, a request, and a request is answered:
        // the sender broke NOTIFICATION-NO-ID, and the receiver that answered that id did not break this.
        if (answer && 'id' in c.msg && answer.id !== null && idKey(answer.id) === idKey(c.msg.id)) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [c.frame.seq, d.seq, answer.frame.seq],
            why: `The cancel in ${frameName(c.frame)} carries an id, which makes it a JSON-RPC request; the ${receiver} answered that id (${frameName(answer.frame)}), as JSON-RPC has it answer a request.`,
          });
          continue;
        }
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
        for (const [i, cur] of list.entries()) {
          const prev = list[i - 1];
          if (!prev) continue;
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
} satisfies Record<string, Judge>;
