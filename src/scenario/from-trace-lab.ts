/**
 * A lab trace read back into the scenario that made it (from-trace.ts): the user's actions as
 * steps, the latency its frames were delivered with, the wire faults its frames show, and how
 * the client's handlers of the server's requests behaved. Each is what the trace records; what
 * it does not record (a handler's duration past a cancel, a timer that never fired) is chosen so
 * that it changes nothing in the run.
 */
import { bodyOf, isObject, type FrameEvent, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import { ASK_CAPABILITY, type ClientHandler, type ClientHandlers, type HandledCapability } from './reverse.ts';
import type { Step, WireFault } from './schema.ts';
import { isAsk } from './from-trace-steps.ts';

/** The playground's default latency (ms), for a direction a trace does not time. */
export const DEFAULT_LATENCY = 5;

/** A lab trace's frames carry their delivery time: the latency is exact there. */
export function labLatency(frames: readonly FrameEvent[]): { c2s: number; s2c: number } | null {
  const of = (dir: 'c2s' | 's2c'): number | undefined => {
    const f = frames.find((e) => e.dir === dir && e.fault === undefined && !e.injected && !e.eof && e.deliverAt !== null);
    return f && f.deliverAt !== null ? f.deliverAt - f.t : undefined;
  };
  const c2s = of('c2s');
  const s2c = of('s2c');
  return c2s === undefined && s2c === undefined ? null : { c2s: c2s ?? DEFAULT_LATENCY, s2c: s2c ?? DEFAULT_LATENCY };
}

/** The JSON a frame wrote, with its keys in the order written (a lab trace's `msg` has them sorted). */
function written(frame: FrameEvent | undefined): unknown {
  const body = frame ? bodyOf(frame, frame.http ? 'text/event-stream' : undefined) : null;
  if (body === null) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * A lab trace's user actions as steps. The trace keeps them with sorted keys; a call's arguments
 * and a forged message are read back from the frame they wrote, in the order the user gave them,
 * since the wire carries them in that order.
 */
export function labSteps(trace: readonly TraceEvent[], idx: TraceIndex): Step[] {
  const steps: Step[] = [];
  for (const e of trace) {
    if (e.kind !== 'user-action') continue;
    const action = e.action;
    if (action.type === 'call') {
      const sent = written(idx.calls.get(action.call)?.request?.frame);
      const args = isObject(sent) && isObject(sent.params) && isObject(sent.params.arguments) ? sent.params.arguments : action.args;
      steps.push({ at: e.t, action: { ...action, args } });
    } else if (action.type === 'inject') {
      const frame = idx.frames.find((f) => f.seq > e.seq && f.injected === true && f.dir === action.dir && (f.http === undefined || f.http.part === 'request' || f.http.part === 'chunk'));
      const sent = written(frame);
      steps.push({ at: e.t, action: { ...action, message: sent === undefined ? action.message : sent } });
    } else steps.push({ at: e.t, action });
  }
  return steps;
}

/**
 * The standing wire faults a lab trace shows on its frames: each as the nth frame of its
 * method (or "response") in its direction, as the wire counts them.
 */
export function labFaults(idx: TraceIndex, latency: { c2s: number; s2c: number }): WireFault[] {
  const faults: WireFault[] = [];
  const seen = new Map<string, number>();
  for (const f of idx.frames) {
    if (f.eof || idx.copyOf.has(f.frame)) continue;
    const match = f.msg ? (f.msg.method ?? 'response') : undefined;
    const key = `${f.dir}:${match ?? ''}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    if (match === undefined) continue;
    if (f.fault === 'dropped') faults.push({ dir: f.dir, action: 'drop', match, nth });
    if (f.fault === 'delayed' && f.deliverAt !== null) faults.push({ dir: f.dir, action: 'delay', match, nth, ms: Math.max(0, f.deliverAt - f.t - latency[f.dir]) });
  }
  for (const f of idx.frames) {
    const method = f.http?.part === 'response-head' && f.fault === 'retyped' ? idx.streams.get(f.http.stream)?.req?.method : undefined;
    const contentType = f.http?.headers?.['content-type'] ?? '';
    if (method !== undefined && !faults.some((x) => x.action === 'content-type' && x.match === method)) faults.push({ dir: 's2c', action: 'content-type', match: method, contentType });
  }
  for (const original of idx.copyOf.values()) {
    const match = original.msg ? (original.msg.method ?? 'response') : undefined;
    if (match !== undefined && !faults.some((x) => x.action === 'duplicate' && x.match === match && x.dir === original.dir)) faults.push({ dir: original.dir, action: 'duplicate', match });
  }
  return faults;
}

/**
 * The `resumable` setting an HTTP trace shows: the server's SSE events carry ids only when it
 * keeps an event store, and the `retry` its priming events carry is the one it was given. A
 * forged frame's event says nothing about the server.
 */
export function resumableOf(frames: readonly FrameEvent[]): { retryMs?: number } | undefined {
  let resumable = false;
  let retryMs: number | undefined;
  for (const f of frames) {
    if (f.dir !== 's2c' || f.http?.part !== 'chunk' || f.injected === true) continue;
    if (/^id:/m.test(f.raw)) resumable = true;
    const retry = /^retry: ?(\d+)\r?$/m.exec(f.raw);
    if (retry?.[1] !== undefined) retryMs ??= Number(retry[1]);
  }
  return resumable ? { ...(retryMs !== undefined && { retryMs }) } : undefined;
}

/**
 * The client's handlers, from their notes: one that returned took that long (and ignored a
 * cancel it saw first); one that threw on its cancel observed it, and any duration past the
 * trace's end behaves the same.
 */
export function labClientHandlers(trace: readonly TraceEvent[]): ClientHandlers | undefined {
  const handlers: Partial<Record<HandledCapability, ClientHandler>> = {};
  const started = new Map<string, { t: number; capability: HandledCapability }>();
  const end = trace.at(-1)?.t ?? 0;
  for (const e of trace) {
    if (e.kind !== 'handler' || e.side !== 'client') continue;
    const note = e.note;
    if (note.type === 'client-handler-started' && isAsk(note.method)) {
      const capability = ASK_CAPABILITY[note.method];
      if (capability !== null) started.set(JSON.stringify(note.requestId), { t: e.t, capability });
    }
    if (note.type !== 'client-handler-returned' && note.type !== 'client-handler-threw') continue;
    const start = started.get(JSON.stringify(note.requestId));
    if (!start || handlers[start.capability]) continue;
    handlers[start.capability] = note.type === 'client-handler-returned' ? { ms: e.t - start.t, onCancel: note.aborted ? 'ignore' : 'observe' } : { ms: end - start.t + 1, onCancel: 'observe' };
  }
  for (const { capability, t } of started.values()) handlers[capability] ??= { ms: end - t + 1, onCancel: 'observe' };
  return Object.keys(handlers).length > 0 ? handlers : undefined;
}
