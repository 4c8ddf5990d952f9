/**
 * The Wire log: every frame on the simulated wire, its cells (the view's, with the rule badges
 * of the findings it witnesses) laid out by the shared row renderer (wire-html.ts). A row is
 * redrawn only when what it shows changed, so an open message stays open while the run goes on.
 */
import type { RunView, WireCells } from '../../../../src/views/index.ts';
import { wireRowHtml } from '../../wire-html.ts';
import { byId, need } from '../dom.ts';
import type { Panel } from '../types.ts';

interface Shown {
  tr: HTMLTableRowElement;
  /** What the row's HTML depends on besides the frame itself, which never changes. */
  key: string;
}

/** What a row's cells can change to while the run goes on: its delivery and its badges. */
const changingPart = (cells: WireCells): string => `${cells.delivered}|${cells.badges.map((b) => b.key).join(',')}`;

function toRow(html: string): HTMLTableRowElement {
  const template = document.createElement('template');
  template.innerHTML = `<table><tbody>${html}</tbody></table>`;
  const tr = template.content.querySelector('tr');
  if (!tr) throw new Error('a wire row renders as a <tr>');
  return tr;
}

export function createWireLogPanel(root: HTMLElement): Panel {
  const table = byId<HTMLTableElement>(root, 'wire-table');
  const body = need<HTMLTableSectionElement>(table, 'tbody');
  const caption = byId<HTMLElement>(root, 'wire-caption');
  const framing = byId<HTMLInputElement>(root, 'show-framing');
  framing.addEventListener('change', () => table.classList.toggle('messages-only', !framing.checked));
  // By the frame's number as its cells print it.
  let shown = new Map<string, Shown>();
  let rendered: RunView | null = null;
  let run = -1;
  let highlighted = '';

  function render(view: RunView): void {
    const next = new Map<string, Shown>();
    let previous: HTMLTableRowElement | null = null;
    for (const cells of view.cells) {
      const key = changingPart(cells);
      let entry = shown.get(cells.frame);
      if (!entry || entry.key !== key) {
        const tr = toRow(wireRowHtml(cells, 'log'));
        // Keep the reader's open message open across the redraw.
        if (entry?.tr.querySelector('details')?.open) tr.querySelector('details')?.setAttribute('open', '');
        if (entry) entry.tr.replaceWith(tr);
        else if (previous) previous.after(tr);
        else body.prepend(tr);
        entry = { tr, key };
      }
      next.set(cells.frame, entry);
      previous = entry.tr;
    }
    shown = next;
  }

  function highlight(view: RunView, witnesses: readonly number[], scroll: boolean): void {
    const set = new Set(witnesses);
    let first: HTMLTableRowElement | null = null;
    for (const row of view.wire) {
      const tr = shown.get(String(row.frame))?.tr;
      const on = set.has(row.seq) || (row.deliverySeq !== null && set.has(row.deliverySeq));
      tr?.classList.toggle('highlight', on);
      if (on) first ??= tr ?? null;
    }
    if (scroll) first?.scrollIntoView({ block: 'nearest' });
  }

  return {
    update(view, page) {
      if (page.live.run !== run) {
        run = page.live.run;
        body.replaceChildren();
        shown = new Map();
        caption.textContent =
          view.scenario.transport === 'stdio'
            ? 'Every frame on the simulated stdio wire: one newline-delimited JSON-RPC message per line.'
            : 'Every frame on the simulated HTTP wire: requests, response heads, body chunks (SSE events or JSON), ends and aborts, by stream.';
      }
      const witnesses = page.highlight.join(',');
      if (view === rendered && witnesses === highlighted) return;
      rendered = view;
      render(view);
      highlight(view, page.highlight, witnesses !== highlighted);
      highlighted = witnesses;
    },
  };
}
