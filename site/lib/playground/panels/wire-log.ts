/**
 * The Wire log: every frame on the simulated wire, its cells (the view's, with the rule badges
 * of the findings it witnesses) laid out by the shared row renderer (wire-html.ts) in a scroller
 * that renders only the rows in view (wire-scroller.ts). The reader's filter and selected frame
 * are this panel's own UI state: never the scenario's, kept across run updates, and a selected
 * frame that a filter hides is selected again when it shows.
 */
import { methodCounts, NO_FILTER, rowMatcher, type RunView, type WireCells, type WireFilter } from '../../../../src/views/index.ts';
import { frameDetailHtml } from '../../wire-html.ts';
import { byId, el } from '../dom.ts';
import type { Panel } from '../types.ts';
import { createCallStrip } from './wire-calls.ts';
import { createWireScroller } from './wire-scroller.ts';

/** What the log's frames are: an imported log's as it recorded them, else the simulated wire's. */
function captionOf(view: RunView, stdio: boolean): string {
  if (view.trace[0]?.kind === 'observed') return 'Every frame the imported log recorded, at the point where it was taken; when each reached the other side is inferred.';
  return stdio
    ? 'Every frame on the simulated stdio wire: one newline-delimited JSON-RPC message per line.'
    : 'Every frame on the simulated HTTP wire: requests, response heads, body chunks (SSE events or JSON), ends and aborts, by stream.';
}

const isDirection = (value: string): value is WireFilter['direction'] => value === 'all' || value === 'c2s' || value === 's2c';

/** `onSelect` hears the frame the reader selects (null when cleared), for the page to share with the timeline. */
export function createWireLogPanel(root: HTMLElement, onSelect: (frame: number | null) => void = () => undefined): Panel {
  const caption = byId<HTMLElement>(root, 'wire-caption');
  const search = byId<HTMLInputElement>(root, 'wire-search');
  const direction = byId<HTMLSelectElement>(root, 'wire-dir');
  const callSelect = byId<HTMLSelectElement>(root, 'wire-call');
  const idInput = byId<HTMLInputElement>(root, 'wire-id');
  const framing = byId<HTMLInputElement>(root, 'show-framing');
  const count = byId<HTMLOutputElement>(root, 'wire-count');
  const chips = byId<HTMLElement>(root, 'wire-methods');
  const detail = byId<HTMLElement>(root, 'wire-detail');
  const scrollerEl = byId<HTMLElement>(root, 'wire-scroll');

  let filter: WireFilter = NO_FILTER;
  let view: RunView | null = null;
  let run = -1;
  // The rows scanned so far, and of those the positions (in view.cells) the filter keeps.
  let scanned = 0;
  let kept: number[] = [];
  // By frame number (a frame's `frame` is its number as text): arrays, not Maps keyed by the
  // text, since an imported log brings 50,000 rows at once and hashing each row's key twice took
  // most of the task that takes them in (130 of 150 ms on this machine).
  let positionOf: number[] = [];
  let indexOf: number[] = [];
  const at = (list: readonly number[], frame: string | null): number | undefined => (frame === null ? undefined : list[Number(frame)]);
  const methods = new Map<string, number>();
  let selected: string | null = null;
  let highlight = '';
  let highlighted = new Set<string>();
  let detailKey = '';

  const scroller = createWireScroller(scrollerEl, (frame) => {
    select(frame === selected ? null : frame);
    onSelect(selected === null ? null : Number(selected));
  });
  const calls = createCallStrip(byId<HTMLElement>(root, 'wire-calls'), (call) => {
    callSelect.value = call;
    setFilter({ ...filter, call });
  });

  function cellsAt(position: number): WireCells {
    const cells = view?.cells[kept[position] ?? -1];
    if (!cells) throw new Error(`no wire row at ${position}`);
    return cells;
  }

  /** Takes in the rows that arrived since the last update; `fresh` starts over (a new filter or run). */
  function scan(next: RunView, fresh: boolean): void {
    const last = scanned > 0 ? next.cells[scanned - 1]?.frame : undefined;
    // A trace that is not the last one with more at the end (the trace slider went back) starts over.
    const restart = fresh || next.cells.length < scanned || (scanned > 0 && last !== view?.cells[scanned - 1]?.frame);
    if (restart) {
      scanned = 0;
      kept = [];
      positionOf = [];
      indexOf = [];
      methods.clear();
    }
    for (const { method, count: n } of methodCounts(next.cells.slice(scanned))) methods.set(method, (methods.get(method) ?? 0) + n);
    const keeps = rowMatcher(filter);
    for (let i = scanned; i < next.cells.length; i++) {
      const cells = next.cells[i];
      if (!cells) continue;
      const frame = Number(cells.frame);
      indexOf[frame] = i;
      if (!keeps(cells)) continue;
      positionOf[frame] = kept.length;
      kept.push(i);
    }
    scanned = next.cells.length;
    view = next;
    scroller.show({ count: kept.length, cells: cellsAt }, restart);
    count.value = `${kept.length} of ${next.cells.length} frames`;
  }

  /**
   * The count is announced when the user filters (how many frames their filter keeps), not as the
   * run adds frames: live, it changed some 16 times a second under 20 ms progress, each a polite
   * announcement. It speaks for this one change, and is quiet again after it.
   */
  let quiet: ReturnType<typeof setTimeout> | undefined;
  function announceCount(): void {
    count.setAttribute('aria-live', 'polite');
    clearTimeout(quiet);
    quiet = setTimeout(() => count.setAttribute('aria-live', 'off'), 1000);
  }

  function setFilter(next: WireFilter): void {
    filter = next;
    announceCount();
    if (view) scan(view, true);
    mark();
    renderDetail();
    const position = at(positionOf, selected);
    if (position !== undefined) scroller.reveal(position);
  }

  function select(frame: string | null): void {
    selected = frame;
    mark();
    renderDetail();
  }

  function mark(): void {
    scroller.mark(selected, highlighted);
  }

  function renderDetail(): void {
    const cells = view?.cells[at(indexOf, selected) ?? -1];
    const hidden = selected !== null && at(positionOf, selected) === undefined;
    const key = cells ? `${cells.frame}|${cells.delivered}|${cells.duration}|${hidden}` : '';
    if (key === detailKey) return;
    detailKey = key;
    if (!cells) return void detail.replaceChildren(el('p', { className: 'muted', textContent: 'Select a frame to see its headers and message.' }));
    detail.innerHTML = frameDetailHtml(cells);
    if (hidden) detail.prepend(el('p', { className: 'muted', textContent: 'The filter hides this frame; it is still selected.' }));
  }

  /** The chips of the methods in the trace shown, with their counts: a method gone from it (an import shown over the run, the slider taken back) takes its chip with it. */
  function renderChips(): void {
    for (const chip of chips.querySelectorAll<HTMLLabelElement>('label[data-method]')) if (!methods.has(chip.dataset.method ?? '')) chip.remove();
    if (methods.size === 0 && !chips.querySelector('.muted')) chips.replaceChildren(el('span', { className: 'muted' }, 'none yet'));
    for (const [method, n] of methods) {
      let chip = chips.querySelector<HTMLLabelElement>(`label[data-method="${CSS.escape(method)}"]`);
      if (!chip) {
        const box = el('input', { type: 'checkbox', checked: !filter.hiddenMethods.includes(method) });
        box.addEventListener('change', () => {
          const hidden = filter.hiddenMethods.filter((m) => m !== method);
          setFilter({ ...filter, hiddenMethods: box.checked ? hidden : [...hidden, method] });
        });
        chip = el('label', { className: 'chip' }, box, el('span', { className: 'name', textContent: method }), el('span', { className: 'n' }));
        chip.dataset.method = method;
        chips.querySelector('.muted')?.remove();
        chips.append(chip);
      }
      const label = chip.querySelector('.n');
      if (label && label.textContent !== `(${n})`) label.textContent = `(${n})`;
    }
  }

  function renderCallOptions(next: RunView): void {
    const names = next.calls.map((c) => c.call);
    if (filter.call !== '' && !names.includes(filter.call)) names.push(filter.call);
    const have = [...callSelect.options].slice(1).map((o) => o.value);
    if (have.join('\n') === names.join('\n')) return;
    callSelect.replaceChildren(el('option', { value: '', textContent: 'all' }), ...names.map((name) => el('option', { value: name, textContent: name })));
    callSelect.value = filter.call;
  }

  search.addEventListener('input', () => setFilter({ ...filter, text: search.value }));
  idInput.addEventListener('input', () => setFilter({ ...filter, id: idInput.value }));
  callSelect.addEventListener('change', () => setFilter({ ...filter, call: callSelect.value }));
  framing.addEventListener('change', () => setFilter({ ...filter, framing: framing.checked }));
  direction.addEventListener('change', () => {
    if (isDirection(direction.value)) setFilter({ ...filter, direction: direction.value });
  });
  byId<HTMLButtonElement>(root, 'wire-clear').addEventListener('click', () => {
    search.value = '';
    idInput.value = '';
    callSelect.value = '';
    direction.value = 'all';
    framing.checked = true;
    for (const box of chips.querySelectorAll('input')) box.checked = true;
    setFilter(NO_FILTER);
  });
  scrollerEl.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const current = at(positionOf, selected);
    const position = Math.max(0, Math.min(kept.length - 1, current === undefined ? 0 : current + (event.key === 'ArrowDown' ? 1 : -1)));
    if (kept.length === 0) return;
    select(cellsAt(position).frame);
    onSelect(Number(selected));
    scroller.reveal(position);
  });

  /** The frames whose write or delivery is one of the witnesses. */
  function framesOf(next: RunView, witnesses: readonly number[]): Set<string> {
    const set = new Set(witnesses);
    return new Set(next.wire.filter((row) => set.has(row.seq) || (row.deliverySeq !== null && set.has(row.deliverySeq))).map((row) => String(row.frame)));
  }

  let pageSelection: number | null = null;

  return {
    update(next, page) {
      const witnesses = page.highlight.join(',');
      const pickedElsewhere = page.selectedFrame !== pageSelection;
      pageSelection = page.selectedFrame;
      if (next === view && witnesses === highlight && !pickedElsewhere) return;
      const newRun = page.live.run !== run;
      if (newRun) {
        run = page.live.run;
        selected = null;
      }
      // Read off the trace shown, which an import can change without a new run.
      const stdio = next.scenario.transport === 'stdio';
      // stdio has no streams and no HTTP framing: their columns would be empty, and take the message's room.
      scrollerEl.classList.toggle('no-streams', stdio);
      const words = captionOf(next, stdio);
      if (caption.textContent !== words) caption.textContent = caption.title = words;
      if (next !== view || newRun) scan(next, newRun);
      renderChips();
      renderCallOptions(next);
      calls.update(next);
      if (witnesses !== highlight) {
        highlight = witnesses;
        highlighted = framesOf(next, page.highlight);
        const first = [...highlighted].map((frame) => at(positionOf, frame)).find((p) => p !== undefined);
        if (first !== undefined) scroller.reveal(first);
      }
      if (pickedElsewhere && page.selectedFrame !== null && String(page.selectedFrame) !== selected) {
        // A frame picked on the timeline: select its row and bring it into view.
        selected = String(page.selectedFrame);
        const position = at(positionOf, selected);
        if (position !== undefined) scroller.reveal(position);
      }
      mark();
      renderDetail();
    },
  };
}
