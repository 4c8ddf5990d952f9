/**
 * The wire log's rows as a fixed-row-height scroller: a sizer as tall as the whole (filtered)
 * log, and a table holding only the rows in view plus a margin, moved to where they belong. So
 * scrolling 10,000 rows touches a few rows per frame, and appending row 10,000 costs what
 * appending row 10 does. The table keeps its semantics: `aria-rowcount` is the whole log's,
 * each row's `aria-rowindex` its place in it. Following the tail is the default while the
 * reader is at the bottom, so Stop and the cancel it writes are on screen together.
 */
import type { WireCells } from '../../../../src/views/index.ts';
import { wireRowHtml } from '../../wire-html.ts';
import { need } from '../dom.ts';

/** The height of one row in px; the stylesheet reads it as --wire-row. */
export const ROW_HEIGHT = 26;
/**
 * Rows rendered beyond the viewport on each side, so a quick scroll shows no blank: 520 px, more
 * than a wheel step or three frames of a 150 px-a-frame scroll. The window moves a few rows each
 * such frame, and the frame's style, layout and paint grow with the rows rendered, not with the
 * rows moved: with 60 a side the bench's p95 scrolling frame was 26–34 ms here, with 20 it was
 * 12.6–13.5 ms (two runs of each).
 */
const OVERSCAN = 20;
/** Rows to render when the scroller has no height yet (hidden, or before layout). */
const FALLBACK_VIEWPORT = 600;

/** The rows the scroller shows: how many, and the cells of each by position. */
export interface ScrollerRows {
  readonly count: number;
  cells(position: number): WireCells;
}

const NO_ROWS: ScrollerRows = {
  count: 0,
  cells() {
    throw new Error('no rows to show');
  },
};

interface Rendered {
  frame: string;
  key: string;
  tr: HTMLTableRowElement;
}

/** What a row's HTML depends on besides the frame itself, which never changes. */
const changingPart = (cells: WireCells): string => `${cells.delivered}|${cells.duration}|${cells.badges.map((b) => b.key).join(',')}`;

export interface WireScroller {
  /** Shows these rows; `fresh` when they are not the previous rows with more at the end (a new filter or run). */
  show(rows: ScrollerRows, fresh: boolean): void;
  /** Marks rows: the selected frame and the highlighted ones. */
  mark(selected: string | null, highlighted: ReadonlySet<string>): void;
  /** Scrolls just enough to bring the row at `position` into view. */
  reveal(position: number): void;
}

export function createWireScroller(scroller: HTMLElement, onSelect: (frame: string) => void): WireScroller {
  const sizer = need<HTMLElement>(scroller, '.wire-sizer');
  const table = need<HTMLTableElement>(scroller, 'table');
  const head = need<HTMLTableSectionElement>(table, 'thead');
  const body = need<HTMLTableSectionElement>(table, 'tbody');
  scroller.style.setProperty('--wire-row', `${ROW_HEIGHT}px`);
  let rows: ScrollerRows = NO_ROWS;
  let rendered: Rendered[] = [];
  let from = 0;
  let headHeight = 0;
  let follow = true;
  let selected: string | null = null;
  let highlighted: ReadonlySet<string> = new Set();
  let pending = false;
  // The viewport's height, kept by an observer so a redraw forces no layout to read it; until
  // it first reports, the fallback (reading it at mount would lay the page out an extra time).
  let viewport = FALLBACK_VIEWPORT;
  /**
   * The scroll position as last set here or seen in a scroll event, for the same reason: read in
   * the middle of a paint, the scroller's own would lay the page out again.
   */
  let scrollTop = 0;
  const sizes = new ResizeObserver((entries) => {
    for (const entry of entries) {
      if (entry.target === head) headHeight = entry.borderBoxSize[0]?.blockSize ?? 0;
      else viewport = entry.contentRect.height || FALLBACK_VIEWPORT;
    }
    // In the workbench the scroller's height follows the layout (a panel above it grows): a log following its tail keeps it in view.
    if (follow) toTail();
    else draw();
  });
  sizes.observe(scroller);
  sizes.observe(head);

  const template = document.createElement('template');
  function make(position: number): Rendered {
    const cells = rows.cells(position);
    template.innerHTML = `<table><tbody>${wireRowHtml(cells, 'log')}</tbody></table>`;
    const tr = template.content.querySelector('tr');
    if (!tr) throw new Error('a wire row renders as a <tr>');
    tr.setAttribute('aria-rowindex', String(position + 2));
    paint(tr, cells.frame);
    return { frame: cells.frame, key: changingPart(cells), tr };
  }

  function paint(tr: HTMLTableRowElement, frame: string): void {
    const isSelected = frame === selected;
    tr.classList.toggle('selected', isSelected);
    if (isSelected) tr.setAttribute('aria-current', 'true');
    else tr.removeAttribute('aria-current');
    tr.classList.toggle('highlight', highlighted.has(frame));
  }

  /** The header row's height, kept by the same observer (one row's until it reports). */
  function headSize(): number {
    return headHeight || ROW_HEIGHT;
  }

  /** Renders the rows in view at `scrollTop` plus the margin, keeping the ones already there. */
  function draw(at = scrollTop): void {
    const top = at - headSize();
    const height = viewport;
    const a = Math.max(0, Math.min(rows.count, Math.floor(top / ROW_HEIGHT) - OVERSCAN));
    const b = Math.min(rows.count, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const to = from + rendered.length;
    if (b <= from || a >= to) {
      body.replaceChildren();
      rendered = [];
      from = a;
    }
    const drop = Math.max(0, a - from);
    for (const gone of rendered.splice(0, drop)) gone.tr.remove();
    from += drop;
    const keep = Math.max(0, b - from);
    for (const gone of rendered.splice(keep)) gone.tr.remove();
    if (a < from) {
      const before: Rendered[] = [];
      for (let i = a; i < from; i++) before.push(make(i));
      body.prepend(...before.map((r) => r.tr));
      rendered.unshift(...before);
      from = a;
    }
    const after: Rendered[] = [];
    for (let i = from + rendered.length; i < b; i++) after.push(make(i));
    body.append(...after.map((r) => r.tr));
    rendered.push(...after);
    table.style.top = `${from * ROW_HEIGHT}px`;
  }

  /** Redraws the rendered rows whose delivery, duration or badges changed. */
  function refresh(): void {
    rendered.forEach((entry, i) => {
      const cells = rows.cells(from + i);
      if (changingPart(cells) === entry.key && cells.frame === entry.frame) return;
      const next = make(from + i);
      entry.tr.replaceWith(next.tr);
      rendered[i] = next;
    });
  }

  /** Scrolls to the last row, to where the browser will clamp it: worked out here rather than read back (a forced layout). */
  function toTail(): void {
    const bottom = Math.max(0, headSize() + rows.count * ROW_HEIGHT - viewport);
    // Setting scrollTop lays the page out, even to where it already is (a log shorter than its view).
    if (bottom !== scrollTop) scroller.scrollTop = bottom;
    scrollTop = bottom;
    draw(bottom);
  }

  scroller.addEventListener(
    'scroll',
    () => {
      // Scroll events come before the frame's paint, with the page laid out: reading here is free.
      const seen = scroller.scrollTop;
      follow = seen + viewport >= headSize() + rows.count * ROW_HEIGHT - ROW_HEIGHT;
      // The echo of a scroll made here (following the tail) finds the rows already drawn for it.
      if (seen === scrollTop) return;
      scrollTop = seen;
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        draw();
      });
    },
    { passive: true },
  );
  body.addEventListener('click', (event) => {
    const tr = event.target instanceof Element ? event.target.closest('tr[data-frame]') : null;
    const frame = tr?.getAttribute('data-frame');
    if (frame) onSelect(frame);
  });

  return {
    show(next, fresh) {
      rows = next;
      if (fresh) {
        body.replaceChildren();
        rendered = [];
        from = 0;
      } else refresh();
      const total = headSize() + rows.count * ROW_HEIGHT;
      sizer.style.height = `${total}px`;
      table.setAttribute('aria-rowcount', String(rows.count + 1));
      if (!follow) return draw();
      toTail();
    },
    mark(nextSelected, nextHighlighted) {
      selected = nextSelected;
      highlighted = nextHighlighted;
      for (const entry of rendered) paint(entry.tr, entry.frame);
    },
    reveal(position) {
      const rowTop = headSize() + position * ROW_HEIGHT;
      if (rowTop - headSize() < scrollTop) scrollTop = rowTop - headSize();
      else if (rowTop + ROW_HEIGHT > scrollTop + viewport) scrollTop = rowTop + ROW_HEIGHT - viewport;
      else return;
      scroller.scrollTop = scrollTop;
      draw();
    },
  };
}
