/**
 * The timing of a scenario made from a trace observed outside the lab (from-trace.ts): the latency
 * each way, and the wire faults that give an answer its own time where one latency each way does not
 * (a server process that took its time to start, an answer that took longer than the rest).
 *
 * Where the log was taken decides what its times are. A tee or a proxy between the sides (a stdio
 * log, mcpsnoop) sees a frame as it passes, at once from its sender: its time is when it was written.
 * The MCP Inspector is the client, and stamps what it gets when it arrives, as `cancel-lab probe`
 * does at its client's transport: a server frame's time there is its arrival, and the comparison
 * (from-trace-match.ts) takes the run's arrival for it.
 */
import { PROBE_RECORDER, idKey, type FrameEvent, type IndexedCancel, type IndexedResponse, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import type { WireFault } from './schema.ts';
import { DEFAULT_LATENCY } from './from-trace-lab.ts';

/** A gap a note names (ms): the comparison's default tolerance, below which two times match. */
const WORTH_SAYING = 10;

/** The faults a scenario holds (schema.ts). */
const MAX_FAULTS = 50;

/**
 * Whether the log was taken at the client, from its source event: the Inspector's export (its
 * importer marks it `seenAt: 'client'`), or a trace `cancel-lab probe` recorded at its client's transport.
 */
export function seenAtClient(trace: readonly TraceEvent[]): boolean {
  const source = trace.find((e) => e.kind === 'observed' && e.what === 'source');
  return source?.kind === 'observed' && (source.seenAt === 'client' || source.recorder === PROBE_RECORDER);
}

export interface ObservedTiming {
  latency: { c2s: number; s2c: number };
  /** How the latency was read, in words ("from the handshake's timing"). */
  how: string;
  /** A delay of initialize when the server read it late (its process was starting), else none. */
  faults: WireFault[];
  notes: string[];
}

/** Each answered client request's time from request to answer (ms). */
function gaps(idx: TraceIndex): number[] {
  return idx.requests.flatMap((r) => (r.dir === 'c2s' && r.responses[0] ? [r.responses[0].frame.t - r.frame.t] : []));
}

/**
 * The latency a HAR shows: the server answers as a request arrives, so its response head comes that
 * long after the POST (a HAR does not time the events inside a body); back, the client writes
 * `notifications/initialized` as the initialize answer arrives.
 */
function httpTiming(idx: TraceIndex, head: FrameEvent, open: FrameEvent, connectTimeoutMs: number | undefined): ObservedTiming {
  const c2s = Math.max(0, Math.round(head.t - open.t));
  const s2c = handshakeS2c(idx, c2s, connectTimeoutMs);
  return { latency: { c2s, s2c: s2c ?? DEFAULT_LATENCY }, how: s2c !== null ? "from the handshake's timing" : 'the default where the log has no timed handshake', faults: [], notes: [] };
}

/**
 * The server → client latency from when the client wrote `notifications/initialized` after its
 * initialize request. A client that never does gave up first (a connect timeout): the answer was
 * still on its way then.
 */
function handshakeS2c(idx: TraceIndex, c2s: number, connectTimeoutMs: number | undefined): number | null {
  const init = idx.requests.find((r) => r.dir === 'c2s' && r.method === 'initialize');
  if (!init) return null;
  const initialized = idx.messages.find(({ frame, msg }) => frame.dir === 'c2s' && msg.method === 'notifications/initialized' && frame.t >= init.frame.t);
  if (initialized) return Math.max(0, Math.round(initialized.frame.t - init.frame.t - c2s));
  return connectTimeoutMs !== undefined ? Math.max(0, connectTimeoutMs - c2s) + 100 : null;
}

/**
 * The latency of a stdio log, and the initialize answer's own time. The quickest answer of any
 * request is one round trip with no work in it: on the wire (a tee) it is the way there, and back
 * is how soon the client wrote `notifications/initialized` after the answer passed; at the client
 * (the Inspector) it is both ways, split evenly. The first answer, to initialize, also waits for
 * a real server process to start, which is no latency: the lab's server reads that request late.
 */
export function observedTiming(idx: TraceIndex, trace: readonly TraceEvent[], connectTimeoutMs: number | undefined): ObservedTiming {
  const head = idx.frames.find((f) => f.http?.part === 'response-head');
  const open = head?.http ? idx.streams.get(head.http.stream)?.open : undefined;
  if (head && open) return httpTiming(idx, head, open, connectTimeoutMs);
  const all = gaps(idx);
  if (all.length === 0) return { latency: { c2s: DEFAULT_LATENCY, s2c: DEFAULT_LATENCY }, how: 'the default where the log has no timed handshake', faults: [], notes: [] };
  const quickest = Math.max(0, Math.round(Math.min(...all)));
  const atClient = seenAtClient(trace);
  const init = idx.requests.find((r) => r.dir === 'c2s' && r.method === 'initialize');
  const answer = connectTimeoutMs === undefined ? init?.responses[0] : undefined;
  const initialized = answer && idx.messages.find(({ frame, msg }) => frame.dir === 'c2s' && msg.method === 'notifications/initialized' && frame.t >= answer.frame.t);
  const c2s = atClient ? Math.floor(quickest / 2) : quickest;
  const back = atClient ? quickest - c2s : initialized ? Math.max(0, Math.round(initialized.frame.t - (answer?.frame.t ?? 0))) : handshakeS2c(idx, c2s, connectTimeoutMs);
  const s2c = back ?? DEFAULT_LATENCY;
  const notes: string[] = [];
  // The lab's client writes initialize at 0 and the server answers it as it arrives.
  const startupMs = init && answer && answer.frame.t - init.frame.t > quickest ? Math.round(answer.frame.t - (atClient ? quickest : c2s)) : undefined;
  if (startupMs !== undefined) notes.push(`The initialize answer came ${Math.round((answer?.frame.t ?? 0) - (init?.frame.t ?? 0))} ms after its request, the quickest answer ${quickest} ms: the server's process was still starting. The lab's server reads initialize ${startupMs} ms late (a delay of that request).`);
  const lag = atClient && answer && initialized ? Math.round(initialized.frame.t - answer.frame.t) : 0;
  if (lag > WORTH_SAYING) notes.push(`The log's client wrote notifications/initialized ${lag} ms after the initialize answer came; the lab's client writes it as the answer arrives, so that frame comes ${lag} ms early in the run.`);
  const how = atClient ? 'from the quickest answer, a round trip as the client times it (the log was taken at the client), split evenly' : back !== null ? "from the handshake's timing" : 'the default where the log has no timed handshake';
  const faults: WireFault[] = startupMs !== undefined ? [{ dir: 'c2s', action: 'delay', match: 'initialize', nth: 1, ms: startupMs }] : [];
  return { latency: { c2s, s2c }, how, faults, notes };
}

/**
 * A server answer the run's own server writes (not a forged one), in the order written: the wire's
 * `delay` faults count them ("response", nth). `due` is when the server writes it on its own (an
 * answer at once: to a request the client wrote, or to `cancel`, the client's cancel it answers);
 * `stopAt`, the client's Stop of a call whose tool times its answer.
 */
export interface OwnAnswer {
  res: IndexedResponse;
  due?: number;
  cancel?: IndexedCancel;
  stopAt?: number;
}

/**
 * The delays that give the server's answers their own times: at the client, an answer that arrived
 * later than one latency each way after what it answers; on the wire, an answer that passed before
 * the client's cancel of it while the client still cancelled (its host had not read it yet), held
 * until just after the Stop. Initialize is the startup's (observedTiming).
 */
export function answerDelays(own: readonly OwnAnswer[], latency: { c2s: number; s2c: number }, atClient: boolean): { faults: WireFault[]; notes: string[] } {
  const faults: WireFault[] = [];
  const late: string[] = [];
  const crossed: string[] = [];
  const ordered = [...own].sort((a, b) => a.res.frame.frame - b.res.frame.frame);
  for (const [i, o] of ordered.entries()) {
    const arrives = o.res.frame.t + (atClient ? 0 : latency.s2c);
    const ms = atClient && o.due !== undefined ? arrives - latency.s2c - o.due : !atClient && o.stopAt !== undefined && o.res.frame.t <= o.stopAt ? o.stopAt + 1 - arrives : 0;
    if (Math.round(ms) <= 0) continue;
    // The wire counts a fault's matches among the frames no earlier fault took (wire.ts `place`).
    faults.push({ dir: 's2c', action: 'delay', match: 'response', nth: i + 1 - faults.length, ms: Math.round(ms) });
    const id = o.res.req ? ` (id ${idKey(o.res.req.id)})` : '';
    (atClient ? late : crossed).push(`${o.res.req?.method ?? 'an answer'}${id} by ${Math.round(ms)} ms`);
  }
  const notes = [
    ...(late.length > 0 ? [`The server's answers that came later than one latency each way are delayed on the wire to the times the log shows: ${late.join(', ')}.`] : []),
    ...(crossed.length > 0 ? [`The client cancelled after the answer had passed the log, so it had not read the answer yet: the wire delays it to just after the Stop: ${crossed.join(', ')}.`] : []),
  ];
  return { faults, notes };
}

/**
 * On the wire, an answer to a cancel (python-sdk 1.x's code-0 error, the Go SDK's "context
 * canceled") written later than one latency after the cancel passed: the wire delays that cancel,
 * and the server answers as it arrives. `sent` are the cancels the run's client writes, in order
 * (the wire counts them, "notifications/cancelled", nth).
 */
export function cancelDelays(own: readonly OwnAnswer[], sent: readonly IndexedCancel[], atClient: boolean): { faults: WireFault[]; notes: string[] } {
  const faults: WireFault[] = [];
  const late: string[] = [];
  const answered = new Map<IndexedCancel, OwnAnswer>();
  for (const o of own) if (o.cancel && o.due !== undefined) answered.set(o.cancel, o);
  for (const [i, cancel] of sent.entries()) {
    const o = answered.get(cancel);
    const ms = !atClient && o?.due !== undefined ? Math.round(o.res.frame.t - o.due) : 0;
    if (!o || ms <= 0) continue;
    faults.push({ dir: 'c2s', action: 'delay', match: 'notifications/cancelled', nth: i + 1 - faults.length, ms });
    late.push(`the cancel of ${o.res.req?.method ?? 'a request'}${o.res.req ? ` (id ${idKey(o.res.req.id)})` : ''} by ${ms} ms`);
  }
  const notes = late.length > 0 ? [`The server answered a cancel later than one latency after it passed the log: the wire delays the cancel, and the server answers as it arrives: ${late.join(', ')}.`] : [];
  return { faults, notes };
}

/**
 * The faults a scenario holds (schema.ts), the first ones kept: each group counts its own frames
 * (the startup's initialize, the answers, the cancels), so a later one left out moves no earlier one.
 */
export function keptFaults(faults: readonly WireFault[]): { faults: WireFault[]; notes: string[] } {
  const left = faults.length - MAX_FAULTS;
  return { faults: faults.slice(0, MAX_FAULTS), notes: left > 0 ? [`${left} more frames took their own time, past the ${MAX_FAULTS} faults a scenario holds: they come one latency each way.`] : [] };
}
