/** Engine errors: shown only when the trace has some. */
import type { RunView } from '../../../../src/views/index.ts';
import { byId, el, need } from '../dom.ts';
import type { Panel } from '../types.ts';

export function createErrorsPanel(root: HTMLElement): Panel {
  const section = need<HTMLElement>(root, 'section.errors');
  const list = byId<HTMLUListElement>(root, 'errors-list');
  let rendered: RunView | null = null;
  return {
    update(view) {
      if (view === rendered) return;
      rendered = view;
      section.hidden = view.errors.length === 0;
      list.replaceChildren(...view.errors.map((e) => el('li', {}, `${e.t} ms: ${e.message}`)));
    },
  };
}
