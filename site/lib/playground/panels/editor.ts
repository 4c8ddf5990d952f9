/**
 * The Scenario editor panel: CodeMirror, loaded on first open, follows the run until the user
 * edits it. Edited text is never overwritten by the run: the panel says it is edited and offers
 * Run (replay the edited scenario, or list why it is not one) or Discard (follow the run again).
 * Edits are kept across a reload (saved.ts), and the error list is for the run it was made for.
 */
import type { RunView } from '../../../../src/views/index.ts';
import type { ScenarioEditor } from '../../editor.ts';
import { saveEditorText, savedEditorText } from '../saved.ts';
import { withoutSchedule } from '../witness.ts';
import { byId, el } from '../dom.ts';
import type { Actions, PageState, Panel } from '../types.ts';

export interface EditorPanel extends Panel {
  /** Drops the user's edits (and their saved copy): the editor follows the run again. */
  discard(): void;
}

export function createEditorPanel(root: HTMLElement, actions: Actions): EditorPanel {
  const details = byId<HTMLDetailsElement>(root, 'editor-details');
  const errors = byId<HTMLUListElement>(root, 'editor-errors');
  const host = byId<HTMLElement>(root, 'scenario-editor');
  const runButton = byId<HTMLButtonElement>(root, 'run-scenario');
  const discardButton = el('button', { type: 'button', id: 'discard-edits', textContent: 'Discard', hidden: true });
  const state = el('span', { id: 'editor-state', className: 'muted', hidden: true }, 'edited — Run replays it, Discard follows the run again');
  state.setAttribute('role', 'status');
  runButton.after(' ', discardButton, ' ', state);
  let editor: ScenarioEditor | null = null;
  let focused = false;
  let last: { view: RunView; page: PageState } | null = null;
  let synced: RunView | null = null;
  let errorsFor = -1;
  // Text the user typed before a reload, put back once the editor has loaded.
  let pending = savedEditorText();

  function sync(): void {
    if (!editor || focused || !last || last.view === synced || editor.edits() !== null) return;
    synced = last.view;
    editor.set(last.page.live.scenario);
  }

  /** Shows whether the text is the user's own, and keeps a copy of it for a reload. */
  function showEdited(): void {
    const edits = editor?.edits() ?? null;
    state.hidden = edits === null;
    discardButton.hidden = edits === null;
    saveEditorText(edits);
  }

  function load(): void {
    if (editor) return;
    void import('../../editor.ts').then(({ createEditor }) => {
      if (editor) return;
      editor = createEditor(host);
      host.addEventListener('focusin', () => (focused = true));
      host.addEventListener('focusout', () => (focused = false));
      sync();
      if (pending !== null) editor.restore(pending);
      pending = null;
      editor.onEdit(showEdited);
      showEdited();
    });
  }

  details.addEventListener('toggle', () => details.open && load());
  // Edits from before a reload are shown at once, open.
  if (pending !== null) details.open = true;

  function discard(): void {
    pending = null;
    saveEditorText(null);
    errors.replaceChildren();
    if (!editor) return;
    synced = null;
    focused = false;
    if (last) editor.set(last.page.live.scenario);
    showEdited();
  }

  runButton.addEventListener('click', () => {
    if (!editor) return;
    const read = editor.read();
    if (!read.ok) {
      errors.replaceChildren(...read.errors.map((e) => el('li', {}, e)));
      errorsFor = last?.page.live.run ?? -1;
      return;
    }
    errors.replaceChildren();
    focused = false;
    // Edited text that kept the run's schedule edited the scenario around it: the schedule goes.
    const kept = editor.edits() !== null && read.scenario.explore?.schedule === last?.page.live.scenario.explore?.schedule;
    const next = kept ? withoutSchedule(read.scenario) : read.scenario;
    // The edited scenario becomes the run: the editor follows it from here.
    editor.set(next);
    showEdited();
    actions.runScenario(next);
  });
  discardButton.addEventListener('click', discard);

  return {
    discard,
    update(view, page) {
      last = { view, page };
      // The errors were about the text as it stood when Run was pressed; a new run starts clean.
      if (errorsFor !== -1 && page.live.run !== errorsFor) {
        errorsFor = -1;
        errors.replaceChildren();
      }
      sync();
    },
  };
}
