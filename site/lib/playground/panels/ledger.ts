/** The Server ledger: the side effects the server committed, which stopping a call does not undo. */
import type { RunView } from '../../../../src/views/index.ts';
import { el, need } from '../dom.ts';
import type { Panel } from '../types.ts';

export function createLedgerPanel(root: HTMLElement): Panel {
  const body = need<HTMLTableSectionElement>(root, '#ledger-table tbody');
  const empty = need<HTMLElement>(root, '#ledger-empty');
  let rendered: RunView | null = null;
  return {
    update(view) {
      if (view === rendered) return;
      rendered = view;
      empty.hidden = view.ledger.length > 0;
      body.replaceChildren(
        ...view.ledger.map((e) =>
          el(
            'tr',
            {},
            el('td', {}, e.key),
            el('td', {}, e.value),
            el('td', {}, e.call ?? '—'),
            el('td', { className: 'num' }, JSON.stringify(e.requestId)),
            el('td', {}, e.summary),
          ),
        ),
      );
    },
  };
}
