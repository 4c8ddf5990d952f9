/**
 * The judges of the id rules (catalog/ids.ts): which request a response names, on which HTTP
 * stream it travels, notifications that carry an id, and responses a 2026 client writes.
 */
import { OPPOSITE, deliveryOf, dirKey, idKey, isNotification, type IndexedResponse as Resp, type TraceIndex as Index } from '../../trace/index.ts';
import { frameName, latestRequest, receiverOf, show, sideOf, type Ctx, type Draft, type Judge } from './helpers.ts';

/** A response that pairs with no request: why, in one sentence. */
function orphanDraft(idx: Index, resp: Resp, revision: Ctx['revision']): Draft {
  const who = sideOf(resp.dir);
  const issuer = receiverOf(resp.dir);
  const f = resp.frame;
  if (resp.id === null && 'error' in resp.msg) {
    const allowed = revision === '2025-11-25' || revision === '2026-07-28';
    return {
      verdict: allowed ? 'satisfied' : 'violated',
      severity: 'info',
      witnesses: [f.seq],
      why: allowed
        ? `The ${who}'s error response in ${frameName(f)} has id null, as an error for a request whose id could not be read may.`
        : `The ${who}'s error response in ${frameName(f)} has id null; JSON-RPC allows that for a request whose id could not be read, which ${revision} does not say.`,
    };
  }
  // A cancel "notification" that carried an id was, to JSON-RPC, a request with that id: an
  // answer naming it answers something the other side did issue (NOTIFICATION-NO-ID blames the id).
  const idCancel = idx.cancels.find(
    (c) => c.dir === OPPOSITE[resp.dir] && c.frame.seq < f.seq && c.frame.connection === f.connection && 'id' in c.msg && resp.id !== null && idKey(c.msg.id) === idKey(resp.id),
  );
  if (idCancel) {
    return {
      verdict: 'satisfied',
      severity: 'info',
      witnesses: [idCancel.frame.seq, f.seq],
      why: `The ${who}'s response in ${frameName(f)} answers id ${show(resp.id)}, the id the ${issuer}'s cancel in ${frameName(idCancel.frame)} carried, which made that cancel a request.`,
    };
  }
  const later = (idx.requestsByKey.get(dirKey(OPPOSITE[resp.dir], resp.id, f.connection)) ?? []).find((r) => r.frame.seq > f.seq);
  const mine = latestRequest(idx, resp.dir, resp.id, f.seq);
  const own = mine?.frame.connection === f.connection ? mine : undefined;
  let why: string;
  if (later) why = `The ${who}'s response in ${frameName(f)} names id ${show(resp.id)} before the ${issuer} issued that request (${frameName(later.frame)}).`;
  else if (own)
    why = `The ${who}'s response in ${frameName(f)} names id ${show(resp.id)}, a request the ${who} issued itself, not the ${issuer}.`;
  else why = `The ${who}'s response in ${frameName(f)} names id ${show(resp.id)}, and the ${issuer} issued no request with that id on this connection.`;
  return { verdict: 'violated', witnesses: [f.seq, later?.frame.seq, own?.frame.seq], why };
}

export const ID_JUDGES = {
  'RESPONSE-SAME-ID': {
    nothing: 'Every response names a request the other side issued, once, on that request\'s stream.',
    judge({ idx, revision, transport }) {
      const out: Draft[] = [];
      for (const resp of idx.responses) {
        const req = resp.req;
        if (!req) {
          out.push(orphanDraft(idx, resp, revision));
          continue;
        }
        const first = req.responses[0];
        // Two requests with one id (a reused id, ID-UNIQUE's to judge): one answer for each is not a second answer.
        const sameId = idx.requestsByKey.get(dirKey(req.dir, req.id, req.frame.connection)) ?? [];
        const answers = sameId.flatMap((r) => r.responses).filter((r) => r.frame.seq <= resp.frame.seq);
        if (first && first !== resp && sameId.length > 1 && answers.length <= sameId.filter((r) => r.frame.seq < resp.frame.seq).length) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [...sameId.map((r) => r.frame.seq), first.frame.seq, resp.frame.seq],
            why: `The ${sideOf(resp.dir)} answered id ${show(req.id)} again (${frameName(resp.frame)} after ${frameName(first.frame)}), but ${sameId.length} requests carried that id (${sameId.map((r) => frameName(r.frame)).join(', ')}): one answer for each; ID-UNIQUE judges the reused id.`,
          });
          continue;
        }
        if (first && first !== resp && req.ownResponses[0] === resp) {
          // The answers before this one were forged (they stand for another peer): this is the SDK's first.
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [first.frame.seq, resp.frame.seq],
            why: `The ${sideOf(resp.dir)} answered request ${show(req.id)} once (${frameName(resp.frame)}); the answer before it (${frameName(first.frame)}) was forged by the user.`,
          });
          continue;
        }
        if (first && first !== resp) {
          // A second answer to a cancel that came after the first answer: what a duplicate cancel asks for is open (U-9).
          const repeat = req.cancels.find((c) => {
            const d = deliveryOf(idx, c.frame);
            return d !== undefined && d.seq > first.frame.seq && d.seq < resp.frame.seq;
          });
          out.push({
            verdict: 'violated',
            severity: repeat ? 'info' : undefined,
            witnesses: [first.frame.seq, repeat?.frame.seq, resp.frame.seq],
            why: repeat
              ? `The ${sideOf(resp.dir)} answered request ${show(req.id)} a second time (${frameName(resp.frame)} after ${frameName(first.frame)}), for a repeated cancel (${frameName(repeat.frame)}); the spec does not say what a duplicate cancel asks for (U-9).`
              : `The ${sideOf(resp.dir)} answered request ${show(req.id)} a second time (${frameName(resp.frame)} after ${frameName(first.frame)}).`,
          });
          continue;
        }
        // Streamable HTTP: a response on the POST stream of another request answers that stream's request by its place.
        const on = resp.frame.http?.stream;
        const host = on === undefined || transport !== 'streamable-http' ? undefined : idx.streams.get(on);
        if (host?.req && host.open?.http?.method === 'POST' && req.stream !== on) {
          out.push({
            verdict: 'violated',
            witnesses: [host.req.frame.seq, req.frame.seq, resp.frame.seq],
            why: `The server wrote the response to request ${show(req.id)} (${frameName(resp.frame)}) on stream ${on}, the stream of request ${show(host.req.id)}.`,
          });
        }
      }
      return out;
    },
  },

  'NOTIFICATION-NO-ID': {
    nothing: 'No notification carries an id.',
    judge({ idx }) {
      return idx.messages
        .filter(({ msg }) => isNotification(msg) && 'id' in msg)
        .map(
          ({ frame, msg }): Draft => ({
            verdict: 'violated',
            witnesses: [frame.seq],
            why: `The ${sideOf(frame.dir)}'s ${String(msg.method)} in ${frameName(frame)} carries the id ${show(msg.id)}.`,
          }),
        );
    },
  },

  'CLIENT-NO-RESPONSES': {
    nothing: 'The client wrote no response.',
    judge({ idx }) {
      return idx.responses
        .filter((r) => r.dir === 'c2s')
        .map(
          (r): Draft => ({
            verdict: 'violated',
            witnesses: [r.frame.seq],
            why: `The client wrote a JSON-RPC response (${frameName(r.frame)}, id ${show(r.id)}).`,
          }),
        );
    },
  },
} satisfies Record<string, Judge>;
