/**
 * What a wire-log row shows, cell by cell, for every renderer (the playground's table, the
 * live embed, the static `<Scenario>` embed): the texts and badges, worked out once here so the
 * three cannot drift apart. Renderers lay these out and add nothing of their own.
 */
import type { Direction } from '../trace/index.ts';
import type { FindingBadge, FindingTone } from './findings.ts';
import type { WireRow } from './wire-rows.ts';

/** Where the frame is: it arrived, it never will (dropped), the wire holds it, or it is on its way. */
export type DeliveryState = 'delivered' | 'dropped' | 'held' | 'in-flight';

export interface WireBadge {
  kind: 'injected' | 'fault' | 'finding';
  /** Unique on a row: `injected`, `fault:<fault>`, or the finding's `${tone}:${rule}`. */
  key: string;
  text: string;
  title: string;
  /** For a finding's badge. */
  tone?: FindingTone;
}

export interface WireCells {
  frame: string;
  /** The row's connection (0 for the first); an embed marks where a new one starts, since request ids start again. */
  connection: number;
  sent: string;
  /** The delivery time, or `never (why)`, `held`, `in flight`. */
  delivered: string;
  delivery: DeliveryState;
  dir: Direction;
  direction: string;
  /** `#3` on HTTP, `—` on stdio. */
  stream: string;
  /** Where the frame sits in HTTP (`POST /mcp`, `200 text/event-stream`, `SSE event: message`); '' on stdio. */
  framing: string;
  /** The headers that matter, as `name: value`. */
  headers: string[];
  what: string;
  id: string;
  /** The frame on one line (its bytes, or what it is when it has none). */
  summary: string;
  /** `summary` cut to EXCERPT_LENGTH characters, for the embeds' narrow column. */
  excerpt: string;
  /** The message as indented JSON, or `summary` when the frame carries none. */
  pretty: string;
  /** The frame carries no JSON-RPC message (HTTP framing only): hidden in the "messages only" view. */
  framingOnly: boolean;
  badges: WireBadge[];
  /** The method carried or answered ('' for bare framing): what the method filter reads. */
  method: string;
  /** `#1` when the frame belongs to a call, else ''. */
  call: string;
  /** A request's time to its response (`12 ms`), or to its cancel (`240 ms to cancel`); '' otherwise or while it waits. */
  duration: string;
}

export const EXCERPT_LENGTH = 140;

function delivery(row: WireRow): { state: DeliveryState; text: string } {
  if (row.droppedBecause !== null) return { state: 'dropped', text: `never (${row.droppedBecause})` };
  if (row.deliveredAt !== null) return { state: 'delivered', text: String(row.deliveredAt) };
  if (row.fault === 'dropped') return { state: 'dropped', text: 'never (dropped)' };
  if (row.fault === 'held' && row.deliverAt === null) return { state: 'held', text: 'held' };
  return { state: 'in-flight', text: 'in flight' };
}

const DURATION_SUFFIX = { response: '', cancel: ' to cancel', abort: ' to close' } as const;

function durationText(row: WireRow): string {
  return row.durationMs === null || row.durationTo === null ? '' : `${row.durationMs} ms${DURATION_SUFFIX[row.durationTo]}`;
}

/**
 * The cells of one row. `badgesBySeq` (from `findingBadges`) adds a badge for each notable
 * finding that the frame's write or its delivery witnesses.
 */
export function wireCells(row: WireRow, badgesBySeq: ReadonlyMap<number, readonly FindingBadge[]> = new Map()): WireCells {
  const summary = row.raw === '' ? `(no bytes: ${row.framing ?? (row.eof ? 'end of stream' : 'empty frame')})` : row.raw.replace(/\n$/, '');
  const badges: WireBadge[] = [];
  if (row.injected) badges.push({ kind: 'injected', key: 'injected', text: 'injected', title: 'Forged by the user, not written by the SDK' });
  if (row.fault && row.fault !== 'retyped') badges.push({ kind: 'fault', key: `fault:${row.fault}`, text: row.fault, title: 'A wire fault the user set' });
  // A relabelled head may be held or delayed too: it carries both badges.
  if (row.fault === 'retyped' || row.retypedFrom !== null) {
    const wrote = row.retypedFrom === null ? '' : `: the server wrote ${row.retypedFrom === '' ? 'no Content-Type' : `Content-Type ${row.retypedFrom}`}`;
    badges.push({ kind: 'fault', key: 'fault:retyped', text: 'retyped', title: `A wire fault the user set relabelled this head${wrote}` });
  }
  const witnessed = [...(badgesBySeq.get(row.seq) ?? []), ...(row.deliverySeq === null ? [] : (badgesBySeq.get(row.deliverySeq) ?? []))];
  for (const b of witnessed) {
    if (!badges.some((have) => have.key === b.key)) badges.push({ kind: 'finding', key: b.key, text: b.text, title: b.title, tone: b.tone });
  }
  const { state, text } = delivery(row);
  return {
    frame: String(row.frame),
    connection: row.connection,
    sent: String(row.sentAt),
    delivered: text,
    delivery: state,
    dir: row.dir,
    direction: row.direction,
    stream: row.stream === null ? '—' : `#${row.stream}`,
    framing: row.framing ?? '',
    headers: row.headers.map(([name, value]) => `${name}: ${value}`),
    what: row.what,
    id: row.id,
    summary,
    excerpt: summary.length > EXCERPT_LENGTH ? `${summary.slice(0, EXCERPT_LENGTH)}…` : summary,
    pretty: row.msg ? JSON.stringify(row.msg, null, 2) : summary,
    framingOnly: !row.carriesMessage,
    badges,
    method: row.method,
    call: row.call ?? '',
    duration: durationText(row),
  };
}
