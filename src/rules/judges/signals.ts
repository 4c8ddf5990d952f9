/**
 * How the sender of a request told its receiver to stop, on the run's revision and transport,
 * and what the receiver sent for the request: what the cancellation judges (and the progress
 * and timeout ones) measure against each other.
 */
import { deliveryOf, idKey, meta, type DeliveryEvent, type FrameEvent, type IndexedRequest as Req } from '../../trace/index.ts';
import { frameName, type Ctx } from './helpers.ts';

function isModernHttp(ctx: Ctx): boolean {
  return ctx.revision === '2026-07-28' && ctx.transport === 'streamable-http';
}

/**
 * How the sender of `req` told the receiver to stop: its cancel notifications and, on 2026
 * Streamable HTTP, the close of the request's stream. On legacy HTTP a close is not a cancel
 * at all (XPORT-HTTP-DISCONNECT-NOT-CANCEL), so it is left out. `doubt` names the ambiguity
 * that keeps a signal from being the revision's plain cancel: a notification on 2026 HTTP,
 * where the close is the signal (U-3), or the close of a request answered with
 * application/json rather than an SSE stream (U-4). A signal without doubt is `strong`.
 */
export interface Signal {
  frame: FrameEvent;
  delivery: DeliveryEvent | undefined;
  strong: boolean;
  doubt: 'U-3' | 'U-4' | undefined;
  kind: 'notification' | 'close';
  /** Sent by the side's SDK (a stream close always is; a forged cancel stands for another peer). */
  own: boolean;
}

export function signalsOf(ctx: Ctx, req: Req): Signal[] {
  const modern = isModernHttp(ctx);
  // A cancel that carries an id of its own is, to JSON-RPC, a request named notifications/cancelled,
  // not a cancel notification: a receiver that does not act on it is right (CANCEL-NOTIFY-SHAPE and
  // NOTIFICATION-NO-ID judge the sender), so it signals nothing here. Nor does a cancel that
  // reached the receiver before the request did: the request was unknown to it then, and it MAY
  // ignore the cancel (CANCEL-INVALID-IGNORE judges that).
  const out: Signal[] = req.cancels.filter((c) => !('id' in c.msg) && !arrivedFirst(ctx.idx, c.frame, req)).map((c) => {
    const doubt = modern ? ('U-3' as const) : undefined;
    return { frame: c.frame, delivery: deliveryOf(ctx.idx, c.frame), strong: !doubt, doubt, kind: 'notification' as const, own: c.own };
  });
  if (modern) {
    for (const a of req.aborts) {
      const json = /^application\/json/i.test(ctx.idx.streams.get(a.stream)?.head?.http?.headers?.['content-type'] ?? '');
      const doubt = json ? ('U-4' as const) : undefined;
      out.push({ frame: a.frame, delivery: deliveryOf(ctx.idx, a.frame), strong: !doubt, doubt, kind: 'close', own: true });
    }
  }
  return out.sort((a, b) => a.frame.seq - b.frame.seq);
}

/**
 * Did `cancel` reach its receiver before the request it names did (it overtook the request on
 * the wire, or the request never arrived)? One not delivered yet did not. A trace observed from
 * outside does not see when frames arrived: its deliveries are placed as late as the log allows
 * (import/builder.ts), so their order says nothing of this.
 */
export function arrivedFirst(idx: Ctx['idx'], cancel: FrameEvent, req: Req): boolean {
  if (idx.outside) return false;
  const d = deliveryOf(idx, cancel);
  if (d === undefined) return false;
  const arrived = deliveryOf(idx, req.frame);
  return arrived === undefined || d.seq < arrived.seq;
}

/** Why a doubtful signal counts for little, as a clause. */
export function doubtText(s: Signal): string {
  return s.doubt === 'U-4'
    ? 'the request was answered with application/json, where closing is not clearly a cancel (U-4)'
    : '2026 HTTP neither requires nor expects a notifications/cancelled; the stream close is the signal (U-3)';
}

/** The signal that reached the receiver first (by delivery), among `strong` ones if asked. */
export function firstDelivered(signals: Signal[], strongOnly: boolean): (Signal & { delivery: DeliveryEvent }) | undefined {
  let best: (Signal & { delivery: DeliveryEvent }) | undefined;
  for (const s of signals) {
    const delivery = s.delivery;
    if (!delivery || (strongOnly && !s.strong)) continue;
    if (!best || delivery.seq < best.delivery.seq) best = { ...s, delivery };
  }
  return best;
}

export function signalName(s: Signal): string {
  return s.kind === 'close' ? `the stream close (${frameName(s.frame)})` : `the cancel (${frameName(s.frame)})`;
}

/** The s2c frames that carry a message for `req`: its responses, its progress, its subscription's notifications, anything on its stream. */
export function messagesFor(ctx: Ctx, req: Req): FrameEvent[] {
  const seen = new Set<number>();
  const out: FrameEvent[] = [];
  const add = (f: FrameEvent): void => {
    if (f.dir !== 's2c' || seen.has(f.seq)) return;
    seen.add(f.seq);
    out.push(f);
  };
  for (const r of req.responses) add(r.frame);
  for (const p of ctx.idx.progressByOwner.get(req) ?? []) add(p.frame);
  if (req.method === 'subscriptions/listen') {
    for (const m of ctx.idx.messages) if (m.frame.dir === 's2c' && idKey(meta(m.msg)?.['io.modelcontextprotocol/subscriptionId']) === idKey(req.id)) add(m.frame);
  }
  if (req.stream !== undefined) for (const f of ctx.idx.streams.get(req.stream)?.s2c ?? []) if (f.msg) add(f);
  return out.sort((a, b) => a.seq - b.seq);
}
