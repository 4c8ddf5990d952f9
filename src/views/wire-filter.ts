/**
 * The wire log's filter: which rows a reader narrowed the log to. It is the view's state (the
 * page keeps it across run updates), never part of the scenario or its link, and works on the
 * cells the log shows, so it finds what the reader sees.
 */
import type { Direction } from '../trace/index.ts';
import type { WireCells } from './wire-cells.ts';

export interface WireFilter {
  /** Methods the reader hid (as `WireCells.method`), e.g. `notifications/progress`. */
  hiddenMethods: readonly string[];
  direction: Direction | 'all';
  /** A call (`#1`), or '' for every frame. */
  call: string;
  /** A request id as written (`1`, `"abc"`) or bare (`abc`); '' for any. */
  id: string;
  /** Case-insensitive text anywhere in the row: the way to search a log that renders only the rows in view. */
  text: string;
  /** Show the HTTP frames that carry no message (request heads, SSE comments, ends). */
  framing: boolean;
}

export const NO_FILTER: WireFilter = { hiddenMethods: [], direction: 'all', call: '', id: '', text: '', framing: true };

type Filterable = Pick<WireCells, 'method' | 'dir' | 'call' | 'id' | 'framingOnly' | 'frame' | 'what' | 'summary' | 'framing' | 'headers' | 'direction'>;

function idMatches(id: string, wanted: string): boolean {
  const w = wanted.trim();
  return w === '' || id === w || id === JSON.stringify(w);
}

function textMatches(cells: Filterable, needle: string): boolean {
  if (needle === '') return true;
  const haystack = [cells.frame, cells.what, cells.id, cells.call, cells.direction, cells.framing, cells.summary, ...cells.headers];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

/**
 * Whether the filter keeps a row. It reads only what a frame shows from the moment it is
 * written (never its delivery or duration), so a row kept stays kept as the run goes on and a
 * live log need test only the rows that arrived.
 */
export function rowMatcher(filter: WireFilter): (cells: Filterable) => boolean {
  const hidden = new Set(filter.hiddenMethods);
  const needle = filter.text.trim().toLowerCase();
  return (c) =>
    (filter.framing || !c.framingOnly) &&
    !(c.method !== '' && hidden.has(c.method)) &&
    (filter.direction === 'all' || c.dir === filter.direction) &&
    (filter.call === '' || c.call === filter.call) &&
    idMatches(c.id, filter.id) &&
    textMatches(c, needle);
}

/** The rows the filter keeps, in order. */
export function filterRows<T extends Filterable>(rows: readonly T[], filter: WireFilter): T[] {
  return rows.filter(rowMatcher(filter));
}

/** The methods present, each with how many frames carry it, in first-seen order (the method chips). */
export function methodCounts(rows: readonly Pick<WireCells, 'method'>[]): { method: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const { method } of rows) if (method !== '') counts.set(method, (counts.get(method) ?? 0) + 1);
  return [...counts].map(([method, count]) => ({ method, count }));
}
