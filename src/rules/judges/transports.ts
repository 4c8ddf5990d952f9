/**
 * The judges of §10.2, transport behaviour: stdio framing, how a Stop reaches the wire on each
 * binding, what closing an HTTP stream means, and the HTTP answers around a cancel.
 */
import {
  deliveryOf,
  idKey,
  isNotification,
  isObject,
  isResponse,
  messagesOf,
  type ClientStateEvent,
  type FrameEvent,
  type HandlerEvent,
  type IndexedCall as CallInfo,
  type IndexedRequest as Req,
  type RequestId as Id,
  type TraceIndex as Index,
  type UserActionEvent,
} from '../../trace/index.ts';
import type { Severity } from './helpers.ts';
import { frameName, latestRequest, permittedRefusal, show, sideOf, type Draft, type Judge } from './helpers.ts';

/** Did the server answer the stream with an SSE stream (a text/event-stream head)? */
function isSseHead(head: FrameEvent | undefined): boolean {
  return /^text\/event-stream/i.test(head?.http?.headers?.['content-type'] ?? '');
}

/** Server notes for a request id, of the given types. */
function notes(idx: Index, id: Id, ...types: HandlerEvent['note']['type'][]): HandlerEvent[] {
  return (idx.serverNotes.get(idKey(id)) ?? []).filter((e) => types.includes(e.note.type));
}

/** The client state of the call just before `seq`. */
function stateBefore(info: CallInfo, seq: number): ClientStateEvent | undefined {
  let found: ClientStateEvent | undefined;
  for (const s of info.states) if (s.seq < seq) found = s;
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

export const TRANSPORT_JUDGES = {
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
    inside: "the user's Stop, which only the lab's client sees",
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
    inside: "the user's Stop, which only the lab's client sees",
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
    inside: "the server handler's state, which only the lab's server sees",
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
            // A forged frame stands for a misbehaving peer, never for what the client SDK did.
            why: `${c.frame.injected ? 'The user forged a notifications/cancelled' : 'The client sent notifications/cancelled'} (${frameName(c.frame)}) over 2026 HTTP anyway: not required or expected, but not prohibited either (U-3).`,
          }),
        );
    },
  },

  'XPORT-HTTP-DISCONNECT-NOT-CANCEL': {
    inside: "the server handler's state, which only the lab's server sees",
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
        // The abort that happened is the cancel's only if that cancel explains it: it arrived after
        // the disconnect, or the signal aborted with its reason (the SDK aborts with the
        // notification's reason). A cancel that reached the server before the disconnect without
        // aborting the handler was lost (a stateless server gives each POST a fresh instance).
        const reason = seen?.note.type === 'handler-cancel-seen' ? seen.note.reason : undefined;
        const cancelled =
          seen &&
          req.cancels.some((c) => {
            const cd = deliveryOf(idx, c.frame);
            return cd !== undefined && cd.seq < seen.seq && (cd.seq > d.seq || (isObject(c.msg.params) && c.msg.params.reason === reason));
          });
        const lost = req.cancels.find((c) => (deliveryOf(idx, c.frame)?.seq ?? Infinity) < d.seq);
        out.push(
          seen && !cancelled
            ? {
                verdict: 'violated',
                witnesses: [lost?.frame.seq, a.frame.seq, d.seq, seen.seq],
                why: `The server cancelled the handler for request ${show(req.id)} when the client dropped the stream (${frameName(a.frame)}): its signal aborted with "${reason ?? ''}"${lost ? `, and the earlier cancel (${frameName(lost.frame)}) had reached the server without aborting it` : ', with no notifications/cancelled'}.`,
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
        // The rule is about an SSE stream: a request refused with an HTTP error (a 400 for a missing
        // session, say) or answered with application/json never had one to close.
        if (!isSseHead(s.head)) continue;
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
    judge(ctx) {
      const { idx } = ctx;
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
        else if (status !== undefined && status >= 400) {
          const refusal = permittedRefusal(ctx, open.http?.stream);
          out.push({
            verdict: 'satisfied',
            witnesses: [open.seq, head.seq, refusal?.body.seq],
            why: refusal
              ? `The server refused the POST of ${what} with HTTP ${status} and a JSON-RPC error response without id (${frameName(refusal.body)}), as it may.`
              : `The server refused the POST of ${what} with HTTP ${status}, as it may.`,
          });
        }
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
} satisfies Record<string, Judge>;
