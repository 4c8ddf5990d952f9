/** The Calls table: each call's request id, client and server states (with their history inline, and why a failed call failed), progress, late responses and a stream that ended without the response, the requests the server sent mid-call (a row under the call), and Stop / Inject. */
import type { CallView, NestedRequestView, RunView } from '../../../../src/views/index.ts';
import { el, need } from '../dom.ts';
import { setEnabled } from '../../keep-focus.ts';
import type { Actions, Panel } from '../types.ts';

/**
 * A state and, under it, every state that led there (RUNNING → CANCEL_REQUESTED → STOPPED_LOCALLY),
 * each with its time and cause in its title: two changes in the same millisecond are two steps.
 * A transition that stays in its state (a late answer ignored after Stop) is no new state: its
 * time and cause join that state's title.
 */
function stateCell(state: string | null, history: readonly { t: number; to: string; because: string }[], label: string, absent = 'not received yet'): HTMLTableCellElement {
  if (state === null) return el('td', {}, el('span', { className: 'muted' }, absent));
  const steps: { to: string; title: string }[] = [];
  for (const h of history) {
    const last = steps.at(-1);
    if (last?.to === h.to) last.title += `; then ${h.t} ms: ${h.because}`;
    else steps.push({ to: h.to, title: `${h.t} ms: ${h.because}` });
  }
  const list = el('ol', { className: 'history' }, ...steps.map((step) => el('li', { title: step.title }, step.to)));
  list.setAttribute('aria-label', `${label} history`);
  return el('td', {}, el('span', { className: `state ${state.replace(/ /g, '-')}` }, state), list);
}

/** A failed call says why under its client state, in the server's or the client's words (the view's `errorText`, as the wire log's call strip says it). */
function withWhy(cell: HTMLTableCellElement, c: CallView): HTMLTableCellElement {
  if (c.errorText !== null) cell.append(el('div', { className: 'why' }, c.errorText));
  return cell;
}

/** One table's steps for a nested request, inline: `PENDING → CANCELLED`, each step's time and cause in its title. */
function steps(label: string, history: NestedRequestView['serverHistory']): HTMLElement {
  const out = el('span', { className: 'steps' }, `${label} `);
  history.forEach((h, i) => out.append(...(i > 0 ? [' → '] : []), el('span', { className: 'state', title: `${h.t} ms: ${h.because}` }, h.to)));
  if (history.length === 0) out.append(el('span', { className: 'muted' }, 'not yet'));
  return out;
}

/** A row under the call's own: the requests the server sent the client while it ran, each with both tables' steps. */
function nestedRow(c: CallView): HTMLTableRowElement[] {
  if (c.nested.length === 0) return [];
  const items = c.nested.map((n) => el('li', {}, el('code', {}, n.method), ` (server id ${JSON.stringify(n.requestId)}): `, steps('server', n.serverHistory), '; ', steps('client handler', n.clientHistory)));
  const list = el('ul', { className: 'nested' }, ...items);
  list.setAttribute('aria-label', `${c.call} asked the client`);
  const cell = el('td', { colSpan: 7 }, el('span', { className: 'nested-title' }, `${c.call} asked the client:`), list);
  return [el('tr', { className: 'nested-row' }, el('td'), cell)];
}

function lateCell(c: CallView): HTMLTableCellElement {
  const late = el('td');
  if (c.lost) late.append(el('div', { className: 'lost' }, `lost with its connection (${c.outcome ?? ''})`));
  if (c.streamEnd !== null) late.append(el('div', { className: 'stream-end' }, c.streamEnd));
  if (c.lateResponses.length === 0 && !c.lost && c.streamEnd === null) late.append(el('span', { className: 'muted' }, '—'));
  for (const l of c.lateResponses) late.append(el('div', {}, `${l.t} ms: ${l.because}`));
  return late;
}

/**
 * A call's arguments as JSON, with a line break allowed after each comma, colon and slash only: broken
 * anywhere, a narrow column read `{"ms":10` / `0}`, a number cut in two.
 */
function breakableJson(value: unknown): (string | HTMLElement)[] {
  return JSON.stringify(value)
    .split(/(?<=[,:/])/)
    .flatMap((part, i) => (i === 0 ? [part] : [el('wbr'), part]));
}

/** A call's row, kept from one update to the next: its buttons stay the elements a user is pressing or has focused. */
interface CallRow {
  tr: HTMLTableRowElement;
  /** The cells before the buttons', each replaced only when its content changed. */
  cells: HTMLTableCellElement[];
  stop: HTMLButtonElement;
  inject: HTMLButtonElement;
  cancelTask: HTMLButtonElement | null;
  nested: HTMLTableRowElement[];
  nestedHtml: string;
}

export function createCallsPanel(root: HTMLElement, actions: Actions): Panel {
  const body = need<HTMLTableSectionElement>(root, '#calls-table tbody');
  const none = need<HTMLElement>(root, '#no-calls');
  let rendered: RunView | null = null;
  /**
   * The rows by call. A row rebuilt on every update (each progress step is one) took its Stop
   * button away under the user: a focused Stop lost its focus within a second, and at 50 ms a
   * step a mouse press and its release landed on two different buttons, so the click never came.
   */
  let rows = new Map<string, CallRow>();

  function cellsOf(c: CallView): HTMLTableCellElement[] {
    return [
      el('td', { className: 'tool' }, c.tool, el('div', { className: 'args' }, ...breakableJson(c.args))),
      el('td', { className: 'num' }, c.requestId === null ? '—' : JSON.stringify(c.requestId)),
      withWhy(stateCell(c.clientState, c.clientHistory, `${c.call} client state`), c),
      // A call that ended without a request id never reached the wire (stopped before it was sent, or failed before it): nothing will arrive.
      stateCell(c.serverState, c.serverHistory, `${c.call} server state`, c.requestId === null && c.clientState !== 'RUNNING' && c.clientState !== 'CANCEL_REQUESTED' ? 'never sent' : undefined),
      el('td', { className: 'num' }, c.progress === null ? '—' : `${c.progress}${c.total === null ? '' : ` / ${c.total}`}`),
      lateCell(c),
    ];
  }

  function newRow(c: CallView): CallRow {
    const stop = el('button', { type: 'button', textContent: `Stop ${c.call}` });
    stop.addEventListener('click', () => actions.act({ type: 'stop', call: c.call }));
    const inject = el('button', {
      type: 'button',
      textContent: 'Inject late',
      ariaLabel: `Inject late result ${c.call}`,
      title: 'Forge a result for this request id, as a server that ignored the cancel would send',
    });
    inject.addEventListener('click', () => actions.act({ type: 'inject-response', call: c.call, outcome: 'result' }));
    let cancelTask: HTMLButtonElement | null = null;
    if (c.task) {
      // tasks/cancel, not Stop: Stop only ends the client's wait (and v1 then cancels each request it sent).
      cancelTask = el('button', { type: 'button', textContent: `Cancel task ${c.call}`, title: 'Send tasks/cancel for the task this call created' });
      cancelTask.addEventListener('click', () => actions.act({ type: 'cancel-task', call: c.call }));
    }
    const cells = cellsOf(c);
    const tr = el('tr', {}, el('th', { scope: 'row' }, c.call), ...cells, el('td', { className: 'actions' }, ...[stop, inject, cancelTask].filter((b) => b !== null)));
    tr.dataset.call = c.call;
    return { tr, cells, stop, inject, cancelTask, nested: [], nestedHtml: '' };
  }

  /** Brings a kept row up to `c`: changed cells replaced, the buttons enabled as the call allows. */
  function refresh(row: CallRow, c: CallView): void {
    const fresh = cellsOf(c);
    fresh.forEach((cell, i) => {
      const old = row.cells[i];
      if (old && old.outerHTML !== cell.outerHTML) {
        old.replaceWith(cell);
        row.cells[i] = cell;
      }
    });
    const stopped = c.clientState === 'CANCEL_REQUESTED' || c.clientState === 'STOPPED_LOCALLY';
    // A pressed Stop goes disabled: its focus moves to what the row offers next (Inject late, once the call is stopped).
    setEnabled(
      [[row.inject, stopped && c.requestId !== null], [row.stop, c.clientState === 'RUNNING'], ...(row.cancelTask ? [[row.cancelTask, c.clientState === 'RUNNING'] as [HTMLButtonElement, boolean]] : [])],
      [row.inject, row.cancelTask],
    );
    const nested = nestedRow(c);
    const html = nested.map((r) => r.outerHTML).join('');
    if (html !== row.nestedHtml) {
      row.nested = nested;
      row.nestedHtml = html;
    }
  }

  return {
    update(view) {
      if (view === rendered) return;
      rendered = view;
      none.hidden = view.calls.length > 0;
      const next = new Map<string, CallRow>();
      for (const c of view.calls) {
        // A task call has one button more: a call of that name in another run that differs in this gets a row of its own.
        const key = `${c.call}\n${c.task ? 'task' : ''}`;
        const row = rows.get(key) ?? newRow(c);
        refresh(row, c);
        next.set(key, row);
      }
      rows = next;
      const wanted = [...next.values()].flatMap((r) => [r.tr, ...r.nested]);
      // Rows that stay are not moved (moving one blurs its focused button): a new call's row is appended after them.
      const have = [...body.children];
      const kept = have.every((tr, i) => wanted[i] === tr);
      if (kept) body.append(...wanted.slice(have.length));
      else body.replaceChildren(...wanted);
    },
  };
}
