/**
 * What a Streamable HTTP POST stream carries: the answer's content type and body
 * (HTTP-RESPONSE-CONTENT-TYPE), the request's response (HTTP-RESPONSE-ON-POST-STREAM), the
 * progress that rides on it (HTTP-RELATED-MESSAGES), and what the POST body itself may hold
 * (BATCH-HTTP).
 */
import { frameEntry, holdsSseEvent, isResponse, sseFieldsOf, type IndexedRequest as Req, type IndexedStream, type TraceIndex as Index } from '../../trace/index.ts';
import { frameName, show, type Draft, type Judge } from './helpers.ts';

/** The client's POST streams that carry requests, with those requests (a batch may carry several). */
function requestStreams(idx: Index): { n: number; s: IndexedStream; reqs: Req[] }[] {
  const byStream = new Map<number, Req[]>();
  for (const r of idx.requests) {
    if (r.dir !== 'c2s' || r.stream === undefined || r.frame.http?.part !== 'request') continue;
    byStream.set(r.stream, [...(byStream.get(r.stream) ?? []), r]);
  }
  const out: { n: number; s: IndexedStream; reqs: Req[] }[] = [];
  for (const [n, reqs] of byStream) {
    const s = idx.streams.get(n);
    if (s?.open?.http?.method === 'POST') out.push({ n, s, reqs });
  }
  return out;
}

/**
 * The streams a resumed stream continues: a GET whose Last-Event-ID names an event another
 * stream carried continues that stream (and what that one continued), so an answer on it is
 * on the stream of the request (2025-11-25 transports.mdx:169-187).
 */
export function continues(idx: Index, n: number): Set<number> {
  const out = new Set<number>();
  for (let at = idx.streams.get(n), seen = 0; at !== undefined && seen < idx.streams.size; seen++) {
    const last = at.open?.http?.method === 'GET' ? at.open.http.headers?.['last-event-id'] : undefined;
    if (last === undefined) break;
    const from = [...idx.streams].find(([, s]) => s.s2c.some((f) => f.http?.part === 'chunk' && sseFieldsOf(f.raw).id === last));
    if (from === undefined || out.has(from[0])) break;
    out.add(from[0]);
    at = from[1];
  }
  return out;
}

const contentType = (s: IndexedStream): string => s.head?.http?.headers?.['content-type'] ?? '';

const JSON_TYPE = /^application\/json\s*(;|$)/i;
const SSE_TYPE = /^text\/event-stream\s*(;|$)/i;

/**
 * What is wrong with an ended answer's body for its label, or undefined: a JSON answer is one
 * JSON object (2025-03-26 answers a batch with an array), an SSE answer holds SSE events.
 */
function answerBodyProblem(s: IndexedStream, revision: string): string | undefined {
  const body = s.s2c
    .filter((f) => f.http?.part === 'chunk')
    .map((f) => f.raw)
    .join('')
    .trim();
  if (SSE_TYPE.test(contentType(s))) return body !== '' && !holdsSseEvent(body) ? 'but its body holds no SSE event' : undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body === '' ? 'but its body is empty' : 'but its body is not JSON';
  }
  const object = value !== null && typeof value === 'object' && (!Array.isArray(value) || revision === '2025-03-26');
  return object ? undefined : 'but its body is not one JSON object';
}

/** The sentence a finding adds when a wire fault put the label on the head, or ''. */
function relabelled(head: IndexedStream['head']): string {
  if (head?.retypedFrom === undefined) return '';
  return ` A wire fault relabelled the server's ${head.retypedFrom === '' ? 'unlabelled answer' : head.retypedFrom}: it stands for a server that labels its answer so.`;
}

/** What is wrong with a POST body as this revision's clause words it, or undefined. */
function bodyProblem(revision: string, msgIsResponse: boolean, batch: readonly unknown[] | undefined): string | undefined {
  if (batch === undefined) return revision === '2026-07-28' && msgIsResponse ? 'is a JSON-RPC response, which the client must not send' : undefined;
  if (revision !== '2025-03-26') return `is a JSON-RPC batch of ${batch.length}, and ${revision} allows a single message only`;
  if (batch.length === 0) return 'is an empty batch';
  const kinds = new Set(batch.map((m) => (m !== null && typeof m === 'object' && !Array.isArray(m) ? ('method' in m ? 'call' : 'response') : 'junk')));
  if (kinds.has('junk')) return 'is a batch with an element that is no JSON-RPC message';
  if (kinds.size > 1) return 'is a batch that mixes responses with requests or notifications';
  return undefined;
}

export const STREAM_JUDGES = {
  'HTTP-RESPONSE-CONTENT-TYPE': {
    nothing: 'No POSTed request has been answered with a success status yet.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const { s, reqs } of requestStreams(idx)) {
        const { open, head } = s;
        const status = head?.http?.status;
        // The clause is about the answer to an accepted request; an HTTP error status answers nothing.
        if (!open || !head || status === undefined || status < 200 || status >= 300) continue;
        const type = contentType(s);
        const what = `The server answered the POST of request ${show(reqs[0]?.id)} (${frameName(open)}) with ${type === '' ? 'no Content-Type' : `Content-Type ${type}`}`;
        const fault = relabelled(head);
        if (!JSON_TYPE.test(type) && !SSE_TYPE.test(type)) {
          out.push({ verdict: 'violated', witnesses: [open.seq, head.seq], why: `${what}, neither application/json nor text/event-stream.${fault}` });
          continue;
        }
        // The body is judged once the server has written all of it.
        const problem = s.end ? answerBodyProblem(s, revision) : undefined;
        if (problem) out.push({ verdict: 'violated', witnesses: [open.seq, head.seq, s.end?.seq], why: `${what}, ${problem}.${fault}` });
        else out.push({ verdict: 'satisfied', witnesses: [open.seq, head.seq], why: `${what}.${fault}` });
      }
      return out;
    },
  },

  'HTTP-RESPONSE-ON-POST-STREAM': {
    nothing: 'No request was POSTed in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const { n, s, reqs } of requestStreams(idx)) {
        if (!/^text\/event-stream/i.test(contentType(s))) continue; // the clause is about the SSE stream
        for (const req of reqs) {
          const here = req.responses.find((r) => r.frame.http?.stream === n || continues(idx, r.frame.http?.stream ?? -1).has(n));
          const elsewhere = req.responses.find((r) => r.frame.http?.stream !== n);
          if (here) {
            const resumed = here.frame.http?.stream !== n ? ` (resumed as stream ${here.frame.http?.stream ?? '?'})` : '';
            out.push({ verdict: 'satisfied', witnesses: [req.frame.seq, here.frame.seq], why: `Stream ${n}${resumed} carried the response to request ${show(req.id)}.` });
          }
          else if (elsewhere)
            out.push({
              verdict: 'violated',
              witnesses: [req.frame.seq, elsewhere.frame.seq],
              why: `The response to request ${show(req.id)} went on ${elsewhere.frame.http ? `stream ${elsewhere.frame.http.stream}` : 'another channel'} (${frameName(elsewhere.frame)}), not on its POST's stream ${n}.`,
            });
          else
            out.push({
              verdict: 'cannot-tell',
              witnesses: [req.frame.seq],
              why: `Stream ${n} has not carried the response to request ${show(req.id)}; "eventually" has no bound in a finite trace (HTTP-NO-EARLY-CLOSE judges a stream closed without it).`,
            });
        }
      }
      return out;
    },
  },

  'HTTP-RELATED-MESSAGES': {
    nothing: 'Every progress notification on a request\'s stream is for that request (other notifications name no request to compare).',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const { n, s, reqs } of requestStreams(idx)) {
        for (const f of s.s2c) {
          for (const p of frameEntry(idx, f.frame)?.progress ?? []) {
            if (p.owner && reqs.includes(p.owner)) continue;
            out.push({
              verdict: 'violated',
              witnesses: [reqs[0]?.frame.seq, p.owner?.frame.seq, p.frame.seq],
              why: p.owner
                ? `The server sent progress for request ${show(p.owner.id)} (${frameName(p.frame)}) on stream ${n}, the stream of request ${show(reqs[0]?.id)}.`
                : `The server sent progress for token ${show(p.token)} (${frameName(p.frame)}) on stream ${n}, a token request ${show(reqs[0]?.id)} did not provide.`,
            });
          }
        }
      }
      return out;
    },
  },

  'BATCH-HTTP': {
    nothing: 'Every POST body is one JSON-RPC message this revision allows.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const s of idx.streams.values()) {
        const open = s.open;
        if (open?.http?.method !== 'POST') continue;
        const batch = frameEntry(idx, open.frame)?.batch;
        const problem = bodyProblem(revision, open.msg !== null && isResponse(open.msg), batch);
        if (problem) out.push({ verdict: 'violated', witnesses: [open.seq], why: `The client's POST body in ${frameName(open)} ${problem}.` });
        else if (batch) out.push({ verdict: 'satisfied', witnesses: [open.seq], why: `The client's POST body in ${frameName(open)} is a batch of ${batch.length}, as 2025-03-26 allows.` });
      }
      return out;
    },
  },
} satisfies Record<string, Judge>;
