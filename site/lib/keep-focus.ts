/**
 * Enables and disables buttons without losing the keyboard's place. A focused button that is
 * disabled drops the focus to the page, and a screen reader's place with it: it hands the focus
 * to the first button of `then` that is enabled once every change is made (the embed's Run live
 * and Reset trade places; a stopped call's Stop gives way to its Inject late).
 */
export function setEnabled(changes: readonly [HTMLButtonElement, boolean][], then: readonly (HTMLButtonElement | null)[]): void {
  const focused = document.activeElement;
  for (const [button, enabled] of changes) button.disabled = !enabled;
  if (changes.some(([button, enabled]) => !enabled && button === focused)) then.find((b) => b !== null && !b.disabled)?.focus();
}
