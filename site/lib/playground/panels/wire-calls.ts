/**
 * Each call as the wire log shows it above the frames: its progress as a bar, how it ended in
 * the view's words (`CallView.outcomeText`, so a FAILED call says why without opening a raw
 * row), and a button that narrows the log to its frames.
 */
import type { CallView, RunView } from '../../../../src/views/index.ts';
import { el } from '../dom.ts';

const keyOf = (c: CallView): string => `${c.call}|${c.progress ?? ''}|${c.total ?? ''}|${c.outcomeText}`;

function callItem(c: CallView, onFilter: (call: string) => void): HTMLLIElement {
  const bar = el('progress', { max: c.total ?? 1, value: c.progress === null ? 0 : Math.min(c.progress, c.total ?? c.progress) });
  bar.setAttribute('aria-label', `${c.call} progress`);
  if (c.total === null && c.progress === null) bar.removeAttribute('value');
  const done = c.progress === null ? 'no progress' : `${c.progress}${c.total === null ? '' : ` / ${c.total}`}`;
  const filter = el('button', { type: 'button', className: 'small', textContent: `Only ${c.call}` });
  filter.addEventListener('click', () => onFilter(c.call));
  const item = el(
    'li',
    {},
    el('strong', { textContent: `${c.call} ${c.tool}` }),
    el('span', { className: 'bar' }, bar, el('span', { className: 'visually-hidden', textContent: done })),
    el('span', { className: `outcome${c.errorText === null ? '' : ' failed'}`, textContent: c.outcomeText }),
    filter,
  );
  item.dataset.call = c.call;
  return item;
}

export function createCallStrip(list: HTMLElement, onFilter: (call: string) => void): { update(view: RunView): void } {
  let shown = '';
  return {
    update(view) {
      const key = view.calls.map(keyOf).join('\n');
      if (key === shown) return;
      shown = key;
      list.replaceChildren(...view.calls.map((c) => callItem(c, onFilter)));
    },
  };
}
