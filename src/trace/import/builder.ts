/**
 * Turns what a log saw into the lab's trace events. A log is taken at one point (a tee, a
 * proxy, the client's own transport): a frame seen there was written by then, but when it
 * reached the other side is not seen. The judges read "the receiver acted after it had the
 * message" from a delivery event, so the builder places each delivery as late as the log allows,
 * giving the receiver the benefit of the doubt: just after the receiver's next frame (which it
 * may have written before reading this one: the race R1/R2 the spec allows), or just before that
 * frame when it answers this one (a response to a request in it, or on HTTP a frame on the
 * stream it opened), or at the end of the log when the receiver writes nothing more.
 *
 * The trace opens with an `observed` source event, which tells the checker that only the wire
 * was seen; times are ms from the first one the log gives, never decreasing.
 */
import { OPPOSITE, idKey } from '../trace-index.ts';
import type { Direction, HttpFraming, JsonRpcMessage, ObservedEvent, TraceEvent } from '../events.ts';
import { isRequest, isResponse } from '../messages.ts';
import { FORMAT_LABEL, type ImportFormat } from './observed.ts';

interface Seen {
  t: number;
  dir: Direction;
  raw: string;
  msg: JsonRpcMessage | null;
  http?: HttpFraming;
}

type Item = { kind: 'frame'; seen: Seen } | { kind: 'note'; t: number; text: string };

export interface ObservedBuilder {
  /** A frame seen at `at` (ms since the epoch, or since the log began; undefined: no time given). */
  frame(at: number | undefined, dir: Direction, raw: string, msg: JsonRpcMessage | null, http?: HttpFraming): void;
  /** A line of the log that carries no message. */
  note(at: number | undefined, text: string): void;
  trace(): TraceEvent[];
}

/** The ids of the requests a frame carries (one message, or a batch written as one line). */
function requestIds(seen: Seen): Set<string> {
  const msgs = seen.msg ? [seen.msg] : batch(seen.raw);
  return new Set(msgs.filter(isRequest).map((m) => idKey(m.id)));
}

function batch(raw: string): JsonRpcMessage[] {
  const text = raw.trim();
  if (!text.startsWith('[')) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is JsonRpcMessage => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
  } catch {
    return [];
  }
}

function answers(reply: Seen, to: Seen, ids: Set<string>): boolean {
  if (reply.http && to.http && reply.http.stream === to.http.stream) return true;
  const msgs = reply.msg ? [reply.msg] : batch(reply.raw);
  return msgs.some((m) => isResponse(m) && ids.has(idKey(m.id)));
}

/** For each frame, the item index its delivery goes next to, and on which side of it ('before' / 'after'); none: the end. */
function deliverySlots(items: readonly Item[]): Map<number, { at: number; side: 'before' | 'after' }> {
  const slots = new Map<number, { at: number; side: 'before' | 'after' }>();
  // Walked from the end, so each frame finds the receiver's next frame at once (a long log stays linear).
  const next: Record<Direction, number | undefined> = { c2s: undefined, s2c: undefined };
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind !== 'frame') continue;
    const j = next[OPPOSITE[item.seen.dir]];
    const reply = j === undefined ? undefined : items[j];
    if (j !== undefined && reply?.kind === 'frame') slots.set(i, { at: j, side: answers(reply.seen, item.seen, requestIds(item.seen)) ? 'before' : 'after' });
    next[item.seen.dir] = i;
  }
  return slots;
}

const DAY_MS = 86_400_000;

export function observedTrace(format: ImportFormat, where: Pick<ObservedEvent, 'seenAt'> = {}): ObservedBuilder {
  const items: Item[] = [];
  let origin: number | undefined;
  let now = 0;
  let wentBack = false;
  // A clock that steps back (two hosts, a rounding) keeps the trace's order: time never decreases.
  // The first step back is said where it happens, so that a verdict on such a log is read with it.
  const time = (at: number | undefined): number => {
    if (at === undefined || !Number.isFinite(at)) return now;
    origin ??= at;
    const t = Math.round(at - origin);
    // More than a day back is no clock going back but another clock (a log that turns from times
    // of day to times since it began), which the order already carries.
    if (t < now && now - t <= DAY_MS && !wentBack) {
      wentBack = true;
      items.push({ kind: 'note', t: now, text: `The log's clock goes back ${now - t} ms here: from here on, a line stamped earlier than the one before it is kept at that one's time, in the log's order.` });
    }
    now = Math.max(now, t);
    return now;
  };
  return {
    frame(at, dir, raw, msg, http) {
      items.push({ kind: 'frame', seen: { t: time(at), dir, raw, msg, ...(http && { http }) } });
    },
    note(at, text) {
      items.push({ kind: 'note', t: time(at), text });
    },
    trace() {
      const events: TraceEvent[] = [{ kind: 'observed', what: 'source', text: `Imported from ${FORMAT_LABEL[format]}: only what crossed the wire where the log was taken.`, ...where, seq: 0, t: 0 }];
      const slots = deliverySlots(items);
      const pending = new Map<number, { frame: number; dir: Direction }[]>();
      const waiting = (at: number, side: 'before' | 'after') => pending.get(at * 2 + (side === 'after' ? 1 : 0)) ?? [];
      const deliver = (list: readonly { frame: number; dir: Direction }[], t: number) => {
        for (const d of list) events.push({ kind: 'delivery', frame: d.frame, dir: d.dir, seq: events.length, t });
      };
      const atEnd: { frame: number; dir: Direction }[] = [];
      let frames = 0;
      for (const [i, item] of items.entries()) {
        const t = item.kind === 'frame' ? item.seen.t : item.t;
        deliver(waiting(i, 'before'), t);
        if (item.kind === 'note') {
          events.push({ kind: 'observed', what: 'note', text: item.text, seq: events.length, t });
        } else {
          const { dir, raw, msg, http } = item.seen;
          const frame = frames++;
          const slot = slots.get(i);
          const target = slot && items[slot.at];
          const deliverAt = target ? (target.kind === 'frame' ? target.seen.t : target.t) : now;
          events.push({ kind: 'frame', frame, dir, raw, msg, ...(http && { http }), deliverAt, connection: 0, seq: events.length, t });
          if (slot) pending.set(slot.at * 2 + (slot.side === 'after' ? 1 : 0), [...waiting(slot.at, slot.side), { frame, dir }]);
          else atEnd.push({ frame, dir });
        }
        deliver(waiting(i, 'after'), t);
      }
      deliver(atEnd, now);
      return events;
    },
  };
}
