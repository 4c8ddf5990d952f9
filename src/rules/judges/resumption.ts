/**
 * The judges of what happens after a Streamable HTTP stream or session ends: the client's
 * reconnect after the server ends an SSE stream (HTTP-SSE-POLLING: its timing against `retry`;
 * HTTP-RESUME: its `Last-Event-ID`, and what the resumed stream carries), and the client's next
 * request after a 404 for its session (HTTP-SESSION).
 */
import {
  deliveryOf,
  frameEntry,
  sseFieldsOf,
  type FrameEvent,
  type IndexedRequest as Req,
  type IndexedStream,
  type TraceIndex as Index,
} from '../../trace/index.ts';
import { frameName, show, type Ctx, type Draft, type Judge } from './helpers.ts';
import { continues } from './streams.ts';

/** When the receiver had a frame: its delivery, or the frame itself on a trace without deliveries (an import). */
function arrival(idx: Index, f: FrameEvent): { seq: number; t: number } {
  const d = deliveryOf(idx, f);
  return d ? { seq: d.seq, t: d.t } : { seq: f.seq, t: f.t };
}

/**
 * A stream the server ended before the response to its request (its own POST's, or the
 * request of the stream it resumes): an SSE answer with a success status, an `end`, and a
 * request still unanswered. A stream that ended after its response is terminated, not left to
 * be polled or resumed.
 */
interface Ended {
  n: number;
  s: IndexedStream;
  end: FrameEvent;
  /** The end's arrival at the client. */
  at: { seq: number; t: number };
  /** This stream, then the streams it resumes, nearest first. */
  chain: number[];
  /** The chain's requests without a response when the stream ended. */
  pending: Req[];
}

function endedSseStreams({ idx, trace }: Ctx): Ended[] {
  const out: Ended[] = [];
  for (const [n, s] of idx.streams) {
    const status = s.head?.http?.status;
    const end = s.end;
    if (!end || !s.open || status === undefined || status < 200 || status >= 300) continue;
    if (!/^text\/event-stream/i.test(s.head?.http?.headers?.['content-type'] ?? '')) continue;
    // A stream the server ends with its session is terminated, not left to be resumed (2025-11-25 transports.mdx:122-123).
    if (idx.sessionExpired.some((seq) => seq < end.seq && trace[seq]?.t === end.t)) continue;
    const chain = [n, ...continues(idx, n)];
    const pending = requestsOf(idx, chain).filter((r) => !r.responses.some((x) => x.frame.seq < end.seq));
    if (pending.length > 0) out.push({ n, s, end, at: arrival(idx, end), chain, pending });
  }
  return out;
}

/** The last SSE field `read` finds that the client had received on the chain before `before`, nearest stream first. */
function lastField<T>(idx: Index, chain: readonly number[], before: number, read: (raw: string) => T | undefined): { value: T; frame: FrameEvent } | undefined {
  for (const n of chain) {
    for (const f of [...(idx.streams.get(n)?.s2c ?? [])].reverse()) {
      if (f.http?.part !== 'chunk' || arrival(idx, f).seq > before) continue;
      const value = read(f.raw);
      if (value !== undefined) return { value, frame: f };
    }
  }
  return undefined;
}

const eventId = (raw: string): string | undefined => sseFieldsOf(raw).id;
const retryMs = (raw: string): number | undefined => sseFieldsOf(raw).retry;

const lastEventIdOf = (f: FrameEvent): string | undefined => f.http?.headers?.['last-event-id'];

/**
 * The client's reconnect after `e` ended: its first GET on the same connection after the end
 * arrived, unless that GET resumes another stream (its Last-Event-ID names an event not on the chain).
 */
function reconnectAfter(idx: Index, e: Ended): FrameEvent | undefined {
  const onChain = (id: string): boolean => e.chain.some((n) => (idx.streams.get(n)?.s2c ?? []).some((f) => f.http?.part === 'chunk' && eventId(f.raw) === id));
  for (const f of idx.frames) {
    if (f.seq <= e.at.seq || f.dir !== 'c2s' || f.connection !== e.end.connection || f.http?.part !== 'request' || f.http.method !== 'GET') continue;
    const last = lastEventIdOf(f);
    return last === undefined || onChain(last) ? f : undefined;
  }
  return undefined;
}

/** The client's requests whose POST opened a stream of the chain. */
function requestsOf(idx: Index, chain: readonly number[]): Req[] {
  return idx.requests.filter((r) => r.dir === 'c2s' && r.stream !== undefined && chain.includes(r.stream));
}

/** The request a frame's message belongs to: the one a response answers or a progress notification reports on. */
function ownerOf(idx: Index, f: FrameEvent): { req: Req; what: string } | undefined {
  const entry = frameEntry(idx, f.frame);
  const answered = entry?.responses.find((r) => r.req)?.req;
  if (answered) return { req: answered, what: `the response to request ${show(answered.id)}` };
  const reported = entry?.progress.find((p) => p.owner)?.owner;
  return reported && { req: reported, what: `progress for request ${show(reported.id)}` };
}

/** "a ×2, b" for the things listed, in order of first mention. */
function tally(items: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, n]) => (n > 1 ? `${item} ×${n}` : item)).join(', ');
}

/** A resumed stream's messages that belong to a request of another stream (MUST NOT be replayed there). */
function resumedStreamDrafts(idx: Index): Draft[] {
  const out: Draft[] = [];
  for (const [n, s] of idx.streams) {
    const open = s.open;
    const last = open?.http?.method === 'GET' ? lastEventIdOf(open) : undefined;
    if (!open || last === undefined) continue;
    const chain = continues(idx, n);
    if (chain.size === 0) continue; // the id names no event of this trace: nothing to compare
    const carried = s.s2c.flatMap((f) => {
      const owner = ownerOf(idx, f);
      return owner ? [{ f, ...owner }] : [];
    });
    const foreign = carried.find(({ req }) => req.stream === undefined || !chain.has(req.stream));
    const resumed = chain.size === 1 ? `stream ${[...chain].join('')}` : `streams ${[...chain].join(', ')}`;
    if (foreign) {
      out.push({
        verdict: 'violated',
        severity: 'error',
        witnesses: [open.seq, foreign.req.frame.seq, foreign.f.seq],
        why: `Stream ${n} resumes ${resumed} (Last-Event-ID ${last}), but the server sent ${foreign.what} on it (${frameName(foreign.f)}), a message of stream ${foreign.req.stream ?? '?'}.`,
      });
    } else if (carried.length > 0) {
      out.push({
        verdict: 'satisfied',
        severity: 'error',
        witnesses: [open.seq, ...carried.map(({ f }) => f.seq)],
        why: `Stream ${n} resumes ${resumed} after event ${last} and carries only its messages (${tally(carried.map(({ what }) => what))}).`,
      });
    }
  }
  return out;
}

export const RESUMPTION_JUDGES = {
  'HTTP-SSE-POLLING': {
    nothing: 'The server ended no request\'s SSE stream before its response after sending it a retry field, so there is no reconnect to time.',
    judge(ctx) {
      const { idx } = ctx;
      const out: Draft[] = [];
      for (const e of endedSseStreams(ctx)) {
        const retry = lastField(idx, e.chain, e.at.seq, retryMs);
        if (!retry) continue;
        const again = reconnectAfter(idx, e);
        const what = `The server ended stream ${e.n} before the response to request ${show(e.pending[0]?.id)} (${frameName(e.end)}, at the client at ${e.at.t} ms) after retry ${retry.value} ms (${frameName(retry.frame)})`;
        if (!again) {
          out.push({ verdict: 'cannot-tell', severity: 'error', witnesses: [retry.frame.seq, e.end.seq], why: `${what}; the client has not reconnected since.` });
          continue;
        }
        const waited = again.t - e.at.t;
        out.push({
          verdict: waited >= retry.value ? 'satisfied' : 'violated',
          severity: 'error',
          witnesses: [retry.frame.seq, e.end.seq, e.at.seq, again.seq],
          why: `${what}; the client reconnected ${waited} ms later (${frameName(again)})${waited >= retry.value ? '' : `, before the ${retry.value} ms it was asked to wait`}.`,
        });
      }
      return out;
    },
  },

  'HTTP-RESUME': {
    nothing: 'No SSE stream with event ids ended before its response, and no stream was resumed with Last-Event-ID.',
    judge(ctx) {
      const { idx } = ctx;
      const out: Draft[] = [];
      for (const e of endedSseStreams(ctx)) {
        const last = lastField(idx, e.chain, e.at.seq, eventId);
        const again = last && reconnectAfter(idx, e);
        if (!last || !again) continue;
        const named = lastEventIdOf(again);
        const what = `After the server ended stream ${e.n} before the response to request ${show(e.pending[0]?.id)} (${frameName(e.end)}), the client's reconnect (${frameName(again)})`;
        const witnesses = [last.frame.seq, e.end.seq, again.seq];
        if (named === last.value) out.push({ verdict: 'satisfied', severity: 'warning', witnesses, why: `${what} names the last event id it received, ${last.value}.` });
        else
          out.push({
            verdict: 'violated',
            severity: 'warning',
            witnesses,
            why: `${what} ${named === undefined ? 'carries no Last-Event-ID' : `names Last-Event-ID ${named}`}, though the last event id it received was ${last.value} (${frameName(last.frame)}): the stream cannot resume from there.`,
          });
      }
      return [...out, ...resumedStreamDrafts(idx)];
    },
  },

  'HTTP-SESSION': {
    nothing: 'No request that carried a session id was answered 404.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const [, s] of idx.streams) {
        const open = s.open;
        const session = open?.http?.headers?.['mcp-session-id'];
        const head = s.head;
        if (!open || session === undefined || head?.http?.status !== 404) continue;
        const at = arrival(idx, head);
        const next = idx.frames.find((f) => f.seq > at.seq && f.dir === 'c2s' && f.http?.part === 'request');
        const what = `After the 404 for session ${session} (${frameName(head)}, the answer to ${open.msg?.method ?? open.http?.method ?? 'a request'} in ${frameName(open)})`;
        if (!next) {
          out.push({ verdict: 'cannot-tell', witnesses: [open.seq, head.seq], why: `${what}, the client has sent no request yet.` });
          continue;
        }
        const nextSession = next.http?.headers?.['mcp-session-id'];
        const isInitialize = next.msg?.method === 'initialize';
        const problem = !isInitialize
          ? `is ${next.msg?.method ?? `a ${next.http?.method ?? 'HTTP'} request`}${nextSession === undefined ? '' : ` on session ${nextSession}`}, not a new initialize`
          : nextSession !== undefined
            ? `is an initialize that still carries session ${nextSession}`
            : undefined;
        out.push(
          problem
            ? { verdict: 'violated', witnesses: [open.seq, head.seq, at.seq, next.seq], why: `${what}, the client's next request (${frameName(next)}) ${problem}.` }
            : { verdict: 'satisfied', witnesses: [open.seq, head.seq, next.seq], why: `${what}, the client started a new session: its next request (${frameName(next)}) is an initialize without a session id.` },
        );
      }
      return out;
    },
  },
} satisfies Record<string, Judge>;
