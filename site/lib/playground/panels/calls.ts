/** The Calls table: each call's request id, client and server states (with their history inline, and why a failed call failed), progress, late responses and a stream that ended without the response, the requests the server sent mid-call (a row under the call), and Stop / Inject. */
import type { CallView, NestedRequestView, RunView } from '../../../../src/views/index.ts';
import { el, need } from '../dom.ts';
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

export function createCallsPanel(root: HTMLElement, actions: Actions): Panel {
  const body = need<HTMLTableSectionElement>(root, '#calls-table tbody');
  const none = need<HTMLElement>(root, '#no-calls');
  let rendered: RunView | null = null;

  function row(c: CallView): HTMLTableRowElement[] {
    const stop = el('button', { type: 'button', textContent: `Stop ${c.call}`, disabled: c.clientState !== 'RUNNING' });
    stop.addEventListener('click', () => actions.act({ type: 'stop', call: c.call }));
    const stopped = c.clientState === 'CANCEL_REQUESTED' || c.clientState === 'STOPPED_LOCALLY';
    const inject = el('button', {
      type: 'button',
      textContent: 'Inject late',
      ariaLabel: `Inject late result ${c.call}`,
      title: 'Forge a result for this request id, as a server that ignored the cancel would send',
      disabled: !stopped || c.requestId === null,
    });
    inject.addEventListener('click', () => actions.act({ type: 'inject-response', call: c.call, outcome: 'result' }));
    const buttons = [stop, inject];
    if (c.task) {
      // tasks/cancel, not Stop: Stop only ends the client's wait (and v1 then cancels each request it sent).
      const cancelTask = el('button', { type: 'button', textContent: `Cancel task ${c.call}`, title: 'Send tasks/cancel for the task this call created', disabled: c.clientState !== 'RUNNING' });
      cancelTask.addEventListener('click', () => actions.act({ type: 'cancel-task', call: c.call }));
      buttons.push(cancelTask);
    }
    const tr = el(
      'tr',
      {},
      el('th', { scope: 'row' }, c.call),
      el('td', { className: 'tool' }, c.tool, el('div', { className: 'args' }, JSON.stringify(c.args))),
      el('td', { className: 'num' }, c.requestId === null ? '—' : JSON.stringify(c.requestId)),
      withWhy(stateCell(c.clientState, c.clientHistory, `${c.call} client state`), c),
      // A call that ended without a request id never reached the wire (stopped before it was sent, or failed before it): nothing will arrive.
      stateCell(c.serverState, c.serverHistory, `${c.call} server state`, c.requestId === null && c.clientState !== 'RUNNING' && c.clientState !== 'CANCEL_REQUESTED' ? 'never sent' : undefined),
      el('td', { className: 'num' }, c.progress === null ? '—' : `${c.progress}${c.total === null ? '' : ` / ${c.total}`}`),
      lateCell(c),
      el('td', { className: 'actions' }, ...buttons),
    );
    tr.dataset.call = c.call;
    return [tr, ...nestedRow(c)];
  }

  return {
    update(view) {
      if (view === rendered) return;
      rendered = view;
      none.hidden = view.calls.length > 0;
      body.replaceChildren(...view.calls.flatMap(row));
    },
  };
}
