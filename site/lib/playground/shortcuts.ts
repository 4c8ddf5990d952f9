/** The keyboard shortcuts listed in the dialog: never while the user types in a field or a dialog is open. */
import { byId } from './dom.ts';

export interface ShortcutHandlers {
  call(): void;
  stopNewest(): void;
  step(): void;
  togglePlay(): void;
}

export function bindShortcuts(root: HTMLElement, handlers: ShortcutHandlers): void {
  const dialog = byId<HTMLDialogElement>(root, 'shortcuts-dialog');
  byId<HTMLButtonElement>(root, 'shortcuts').addEventListener('click', () => dialog.showModal());
  const keys: Record<string, () => void> = {
    c: handlers.call,
    s: handlers.stopNewest,
    n: handlers.step,
    p: handlers.togglePlay,
    ' ': handlers.togglePlay,
    '?': () => dialog.showModal(),
  };
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (event.target instanceof Element && event.target.closest('input, select, textarea, [contenteditable="true"], .cm-editor, dialog')) return;
    const handler = keys[event.key];
    if (!handler) return;
    handler();
    event.preventDefault();
  });
}
