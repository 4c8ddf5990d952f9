/**
 * The judges of the cancellation races (§9, R1–R4): what the canceller does with a response
 * that arrives after its cancel (CANCEL-IGNORE-LATE-RESPONSE), and whether the party a race
 * lands on comes through it (CANCEL-RACE-GRACEFUL).
 *
 * A party breaks down when, in the very step a race event reached it (the late response's
 * delivery, the cancel's delivery, the handler's return after the cancel), it takes its
 * connection down: the server's process dies (its handlers go `crashed`), or the client closes
 * the connection (it opens a new one, or the calls it had in flight fail). The same step is
 * what ties the failure to the race: in virtual time a side's reaction to what it received is
 * recorded in the step it received it, and a kill, a disconnect, a reconnect or a session expiry the user asks for
 * in that same millisecond is read off the trace and takes the blame instead. The calls in
 * flight that the breakdown fails are part of it.
 */
import {
  callKey,
  deliveryOf,
  idKey,
  isObject,
  nextDelivery,
  type ClientStateEvent,
  type DeliveryEvent,
  type FrameEvent,
  type HandlerEvent,
  type IndexedCall as CallInfo,
  type IndexedRequest as Req,
  type IndexedResponse as Resp,
  type RequestId as Id,
  type ServerStateEvent,
  type SettledEvent,
  type TraceIndex as Index,
} from '../../trace/index.ts';
import { frameName, show, sideOf, type Ctx, type Draft, type Judge } from './helpers.ts';
import { signalName, signalsOf, type Signal } from './signals.ts';

type Party = 'client' | 'server';

/** A point in the trace: an event's `seq` and its virtual time. */
interface At {
  seq: number;
  t: number;
}

/** A party taking its connection down in the step of a race event. */
interface Breakdown {
  /** The events that show it, in order. */
  events: number[];
  /** What happened, as a clause ("the server process died …"). */
  text: string;
}

/** A call that was in flight and failed with the breakdown: its settling and its FAILED state. */
interface Lost {
  name: string;
  settled: SettledEvent;
  state: ClientStateEvent | undefined;
}

/** The calls on `connection` in flight at `at` (not `except`) whose first settling after `from` is an error, not one of their own Stop. */
function lostCalls(idx: Index, connection: number, at: number, from: number, sameStep: number | undefined, except: string | undefined): Lost[] {
  const out: Lost[] = [];
  for (const [name, c] of idx.calls) {
    if (name === except || c.connection !== connection || !c.request || c.request.frame.seq > at) continue;
    if (c.settled.some((n) => n.seq < at)) continue;
    const settled = c.settled.find((n) => n.seq > from);
    if (!settled || settled.note.outcome !== 'error' || (sameStep !== undefined && settled.t !== sameStep)) continue;
    if (idx.stops.some((s) => s.action.call === name && s.seq < settled.seq)) continue;
    out.push({ name, settled, state: c.states.find((s) => s.seq > settled.seq && s.to === 'FAILED') });
  }
  return out.sort((a, b) => a.settled.seq - b.settled.seq);
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** The error a lost call failed with, quoted, if it has one. */
function because(l: Lost): string {
  return l.settled.note.message ? ` ("${l.settled.note.message}")` : '';
}

function lostText(lost: Lost[]): string {
  const calls = lost.map((l) => `call ${l.name}, still in flight, failed${because(l)}`);
  return calls.length === 0 ? '' : `; ${listed(calls)}`;
}

/**
 * The first end of the server's stdout the client received after `from`: the delivery of a
 * frame the index leaves out that is no wire fault's copy (the index keeps every other frame).
 */
function serverEnd(idx: Index, from: number): DeliveryEvent | undefined {
  let d = nextDelivery(idx, 's2c', from);
  while (d && (idx.byFrame.has(d.frame) || idx.copyOf.has(d.frame))) d = nextDelivery(idx, 's2c', d.seq);
  return d;
}

/** The server's process died in the step of `at`: its handlers on `connection` went crashed. */
function serverBreakdown(idx: Index, connection: number, at: At, except: string | undefined): Breakdown | undefined {
  const crashed: ServerStateEvent[] = [];
  for (const [key, states] of idx.serverStates) {
    if (!key.startsWith(`${connection}:`)) continue;
    for (const s of states) if (s.to === 'crashed' && s.seq > at.seq && s.t === at.t) crashed.push(s);
  }
  const first = crashed.sort((a, b) => a.seq - b.seq)[0];
  if (!first) return undefined;
  const eof = serverEnd(idx, first.seq);
  const lost = lostCalls(idx, connection, at.seq, first.seq, undefined, except);
  const requests = crashed.map((s) => show(s.requestId));
  return {
    events: [...crashed.map((s) => s.seq), eof?.seq, ...lost.flatMap((l) => [l.settled.seq, l.state?.seq])].filter((s): s is number => s !== undefined),
    text: `the server process died (${requests.length === 1 ? 'request' : 'requests'} ${listed(requests)} crashed)${lostText(lost)}`,
  };
}

/** The client broke down in the step of `at`: it opened a new connection, or its calls in flight failed. */
function clientBreakdown(idx: Index, connection: number, at: At, except: string | undefined): Breakdown | undefined {
  let reopened: FrameEvent | undefined;
  for (const f of idx.frames) {
    if (f.seq <= at.seq) continue;
    if (f.t > at.t) break;
    if (f.dir === 'c2s' && f.connection > connection) {
      reopened = f;
      break;
    }
  }
  // Calls that failed because the server's end of stream arrived are the server's doing, not the client's.
  const ended = serverEnd(idx, at.seq);
  const lost = lostCalls(idx, connection, at.seq, at.seq, at.t, except).filter((l) => !ended || ended.seq > l.settled.seq);
  if (!reopened && lost.length === 0) return undefined;
  return {
    events: [reopened?.seq, ...lost.flatMap((l) => [l.settled.seq, l.state?.seq])].filter((s): s is number => s !== undefined),
    // Without a new connection nothing says the old one closed: the client may fail calls and keep it (rmcp's cancelled waiter).
    text: reopened
      ? `the client closed the connection and opened a new one (${frameName(reopened)} on connection ${reopened.connection})${lostText(lost)}`
      : `the client failed ${listed(lost.map((l) => `call ${l.name}, still in flight${because(l)}`))}`,
  };
}

/**
 * What the user does to the connection: a breakdown after one of these in the same step is
 * theirs. A session the user makes the server forget (`expire-session`) ends the session's
 * streams and aborts its handlers as a disconnect does, so what fails with it is the user's doing.
 */
const USER_TEARDOWNS: ReadonlySet<string> = new Set(['crash-server', 'disconnect', 'reconnect', 'expire-session']);

/**
 * The party's breakdown in the step of `at`, unless the user took the connection down in that
 * step first (a kill, a disconnect, a restart or a session expiry at the very millisecond of
 * the race event).
 */
function breakdown(ctx: Ctx, party: Party, connection: number, at: At, except: string | undefined): Breakdown | undefined {
  const down = party === 'server' ? serverBreakdown(ctx.idx, connection, at, except) : clientBreakdown(ctx.idx, connection, at, except);
  if (!down) return undefined;
  const first = Math.min(...down.events);
  const byUser = ctx.trace.some((e) => e.kind === 'user-action' && e.seq > at.seq && e.seq < first && USER_TEARDOWNS.has(e.action.type));
  return byUser ? undefined : down;
}

/** The signals the side that sent `req` wrote itself: a forged cancel is never the SDK's. */
function ownSignals(ctx: Ctx, req: Req): Signal[] {
  return signalsOf(ctx, req).filter((s) => s.own);
}

/** The SDK's "unknown message ID" report of a response to `id`, after `afterSeq`, among one side's onerror notes. */
function findOnerrorFor(reports: readonly HandlerEvent[], id: Id, afterSeq: number): HandlerEvent | undefined {
  const prefix = 'Received a response for an unknown message ID: ';
  for (const e of reports) {
    if (e.seq <= afterSeq || (e.note.type !== 'client-onerror' && e.note.type !== 'server-onerror') || !e.note.message.startsWith(prefix)) continue;
    try {
      const msg: unknown = JSON.parse(e.note.message.slice(prefix.length));
      if (isObject(msg) && idKey(msg.id) === idKey(id)) return e;
    } catch {
      // not JSON: not a response report
    }
  }
  return undefined;
}

/** The client call of `req`, on the connection it went out on. */
function callOf(idx: Index, req: Req): [string, CallInfo] | undefined {
  const name = idx.callByRequestId.get(callKey(req.frame.connection, req.id));
  const info = name === undefined ? undefined : idx.calls.get(name);
  return name !== undefined && info ? [name, info] : undefined;
}

/**
 * The call took the response: in the step it arrived (`at`), before the next delivery (`to`),
 * the call settled, or its state moved to SUCCEEDED or FAILED.
 */
function takenBy(call: CallInfo, at: At, to: number): { seq: number; what: string } | undefined {
  const from = at.seq;
  const settled = call.settled.find((n) => n.seq > from && n.seq < to && n.t === at.t);
  if (settled) {
    const n = settled.note;
    return { seq: settled.seq, what: n.outcome === 'result' ? 'the call settled with its result' : `the call settled with the error${n.message ? ` "${n.message}"` : ''}` };
  }
  const state = call.states.find((s) => s.seq > from && s.seq < to && s.t === at.t && s.from !== s.to && (s.to === 'SUCCEEDED' || s.to === 'FAILED'));
  return state && { seq: state.seq, what: `the call went to ${state.to}` };
}

/**
 * The server's tool took the client's answer to its own request (`req`, sent mid-call): in the
 * step the answer arrived, the tool noted the request settled with a result.
 */
function takenByTool(idx: Index, req: Req, at: At, to: number): { seq: number; what: string } | undefined {
  const parent = req.parent;
  if (!parent) return undefined;
  const answered = (idx.serverNotes.get(idKey(parent.id)) ?? []).find(
    (e) => e.seq > at.seq && e.seq < to && e.t === at.t && e.note.type === 'client-answered' && e.note.outcome === 'result' && e.note.method === req.method,
  );
  return answered && { seq: answered.seq, what: `the handler of request ${show(parent.id)} took it as the client's answer` };
}

function lateResponse(ctx: Ctx, req: Req, first: Signal, resp: Resp): Draft | undefined {
  const { idx } = ctx;
  const d = deliveryOf(idx, resp.frame);
  if (!d || d.seq < first.frame.seq) return undefined;
  const who = sideOf(req.dir);
  const entry = callOf(idx, req);
  const severity = first.strong ? undefined : 'info';
  const arrived = `the response to request ${show(req.id)} (${frameName(resp.frame)}, arrived at ${d.t} ms) after ${signalName(first)}`;
  const down = breakdown(ctx, req.dir === 'c2s' ? 'client' : 'server', req.frame.connection, d, entry?.[0]);
  if (down) {
    return { verdict: 'violated', severity, witnesses: [first.frame.seq, d.seq, ...down.events], why: `The ${who} did not ignore ${arrived}: in that step ${down.text}.` };
  }
  const until = nextDelivery(idx, resp.dir, d.seq)?.seq ?? Number.POSITIVE_INFINITY;
  const taken = req.dir === 's2c' ? takenByTool(idx, req, d, until) : entry && takenBy(entry[1], d, until);
  if (taken) return { verdict: 'violated', severity, witnesses: [first.frame.seq, d.seq, taken.seq], why: `The ${who} took ${arrived}: ${taken.what}.` };
  const ignored =
    entry?.[1].states.find((s) => s.seq > d.seq && s.seq < until && s.on === 'late-response') ??
    findOnerrorFor(req.dir === 'c2s' ? idx.clientOnerror : idx.serverOnerror, req.id, d.seq);
  return ignored
    ? { verdict: 'satisfied', witnesses: [first.frame.seq, d.seq, ignored.seq], why: `The ${who} ignored the response to request ${show(req.id)} (${frameName(resp.frame)}) that arrived after its cancel.` }
    : {
        verdict: 'cannot-tell',
        witnesses: [first.frame.seq, d.seq],
        why: `The trace has no ${req.dir === 'c2s' ? 'client state' : 'handler note'} or SDK report for request ${show(req.id)}, so what the ${who} made of the late response (${frameName(resp.frame)}) is not visible.`,
      };
}

/** A race the trace shows, the party it lands on, and the events where that party may break down. */
interface Race {
  party: Party;
  connection: number;
  /** The events of the race that reached the party, in order: a breakdown in the step of one is the party's. */
  at: At[];
  witnesses: number[];
  /** The race, as a clause ("the cancel (frame 7) reached it for request 1, which it had already answered"). */
  text: string;
  /** The call the race is about, whose own end is no breakdown. */
  call: string | undefined;
}

/** The races on the receiving end of each cancel: for a finished (R1), unknown (R4) or already cancelled (R3) request, or crossing the request's answer (R2). */
function cancelRaces(idx: Index): Race[] {
  const out: Race[] = [];
  for (const c of idx.cancels) {
    const d = deliveryOf(idx, c.frame);
    if (!d) continue;
    const party: Party = c.dir === 'c2s' ? 'server' : 'client';
    const base = { party, connection: c.frame.connection, call: c.target?.call };
    const req = c.target;
    const cancel = `the cancel in ${frameName(c.frame)}`;
    if (!req) {
      out.push({ ...base, at: [d], witnesses: [c.frame.seq, d.seq], text: `${cancel} reached it for ${c.hasRequestId ? `id ${show(c.requestId)}` : 'no id'}, which names no request of the ${sideOf(c.dir)} (R4)` });
      continue;
    }
    const answered = req.responses.find((r) => r.frame.seq < d.seq);
    if (answered) {
      out.push({ ...base, at: [d], witnesses: [answered.frame.seq, c.frame.seq, d.seq], text: `${cancel} reached it for request ${show(req.id)}, which it had already answered (${frameName(answered.frame)}) (R1)` });
      continue;
    }
    const earlier = req.cancels.find((x) => x.frame.seq < c.frame.seq && (deliveryOf(idx, x.frame)?.seq ?? Infinity) < d.seq);
    if (earlier) {
      out.push({ ...base, at: [d], witnesses: [earlier.frame.seq, c.frame.seq, d.seq], text: `${cancel} reached it for request ${show(req.id)}, which ${frameName(earlier.frame)} had already cancelled (R3)` });
      continue;
    }
    // The request's answer crossing the cancel: written after it arrived, or its handler returning a result anyway.
    const answer = req.responses.find((r) => r.frame.seq > d.seq);
    const returned =
      party === 'server' ? (idx.serverStates.get(callKey(c.frame.connection, req.id)) ?? []).find((s) => s.seq > d.seq && s.on === 'return') : undefined;
    const crossing = [answer && { seq: answer.frame.seq, t: answer.frame.t }, returned].filter((x): x is At => x !== undefined).sort((a, b) => a.seq - b.seq);
    if (crossing.length === 0) continue;
    const what = [answer && `it answered the request anyway (${frameName(answer.frame)})`, returned && 'its handler still returned a result'].filter((x) => x !== undefined);
    out.push({
      ...base,
      at: [d, ...crossing],
      witnesses: [c.frame.seq, d.seq, ...crossing.map((x) => x.seq)],
      text: `${cancel} reached it while request ${show(req.id)} was still running; ${listed(what)} (R2)`,
    });
  }
  return out;
}

/** The races on the canceller's end: a response to a request it cancelled arriving after its own cancel (R1 or R2). */
function lateResponseRaces(ctx: Ctx): Race[] {
  const out: Race[] = [];
  for (const req of ctx.idx.requests) {
    const first = ownSignals(ctx, req)[0];
    if (!first) continue;
    for (const resp of req.responses) {
      const d = deliveryOf(ctx.idx, resp.frame);
      if (!d || d.seq < first.frame.seq) continue;
      const crossed = resp.frame.seq < first.frame.seq;
      out.push({
        party: req.dir === 'c2s' ? 'client' : 'server',
        connection: req.frame.connection,
        at: [d],
        witnesses: [first.frame.seq, resp.frame.seq, d.seq],
        text: `the response to request ${show(req.id)} (${frameName(resp.frame)}) reached it after ${signalName(first)}${crossed ? ', the two crossing on the wire (R1)' : ' (R2)'}`,
        call: req.call,
      });
    }
  }
  return out;
}

export const RACE_JUDGES = {
  'CANCEL-IGNORE-LATE-RESPONSE': {
    inside: "what the client did with the late response (its call's state), which only the lab's client sees",
    nothing: 'No response arrived after a cancel in this trace.',
    judge(ctx) {
      const out: Draft[] = [];
      // Both ways: the client's calls, and the requests the server sent the client mid-call.
      for (const req of ctx.idx.requests) {
        const first = ownSignals(ctx, req)[0];
        if (!first) continue;
        for (const resp of req.responses) {
          const draft = lateResponse(ctx, req, first, resp);
          if (draft) out.push(draft);
        }
      }
      return out;
    },
  },

  'CANCEL-RACE-GRACEFUL': {
    inside: "how each side took the race (its call and handler states, a process exit), which only the lab's sides see",
    nothing: 'No cancellation race in this trace: no cancel met a finished, unknown or cancelled request or crossed an answer, and no response came after a cancel.',
    judge(ctx) {
      const out: Draft[] = [];
      const seen = new Set<number>();
      for (const race of [...cancelRaces(ctx.idx), ...lateResponseRaces(ctx)]) {
        let down: Breakdown | undefined;
        for (const at of race.at) {
          down = breakdown(ctx, race.party, race.connection, at, race.call);
          if (down) break;
        }
        const key = down?.events[0];
        if (down && key !== undefined && !seen.has(key)) {
          seen.add(key);
          out.push({
            verdict: 'violated',
            witnesses: [...race.witnesses, ...down.events],
            why: `The ${race.party} did not handle a cancellation race gracefully: ${race.text}, and in that same step ${down.text}.`,
          });
        } else if (!down) {
          out.push({
            verdict: 'satisfied',
            witnesses: race.witnesses,
            why: `The ${race.party} came through a cancellation race: ${race.text}, and ${race.party === 'server' ? 'it stayed up' : 'it did not close the connection or fail another call over it'}.`,
          });
        }
      }
      return out;
    },
  },
} satisfies Record<string, Judge>;

