/**
 * The Scenario editor panel: CodeMirror, loaded on first open, follows the run (except while
 * the user types in it); Run replays the edited scenario, or lists why it is not one.
 */
import type { RunView } from '../../../../src/views/index.ts';
import type { ScenarioEditor } from '../../editor.ts';
import { byId, el } from '../dom.ts';
import type { Actions, PageState, Panel } from '../types.ts';

export function createEditorPanel(root: HTMLElement, actions: Actions): Panel {
  const details = byId<HTMLDetailsElement>(root, 'editor-details');
  const errors = byId<HTMLUListElement>(root, 'editor-errors');
  const host = byId<HTMLElement>(root, 'scenario-editor');
  let editor: ScenarioEditor | null = null;
  let focused = false;
  let last: { view: RunView; page: PageState } | null = null;
  let synced: RunView | null = null;

  function sync(): void {
    if (!editor || focused || !last || last.view === synced) return;
    synced = last.view;
    editor.set(last.page.live.scenario);
  }

  details.addEventListener('toggle', () => {
    if (!details.open || editor) return;
    void import('../../editor.ts').then(({ createEditor }) => {
      editor = createEditor(host);
      host.addEventListener('focusin', () => (focused = true));
      host.addEventListener('focusout', () => (focused = false));
      sync();
    });
  });
  byId<HTMLButtonElement>(root, 'run-scenario').addEventListener('click', () => {
    if (!editor) return;
    const read = editor.read();
    if (!read.ok) {
      errors.replaceChildren(...read.errors.map((e) => el('li', {}, e)));
      return;
    }
    errors.replaceChildren();
    focused = false;
    actions.runScenario(read.scenario);
  });

  return {
    update(view, page) {
      last = { view, page };
      sync();
    },
  };
}
