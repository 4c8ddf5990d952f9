/** Setting an element's HTML without redrawing what did not change. */
const shownHtml = new WeakMap<Element, string>();

/**
 * Replaces an element's content with the given (escaped) HTML, only when it changed since the
 * last call: an unchanged panel keeps its nodes, and with them the user's open <details>.
 */
export function setHtml(node: Element, html: string): void {
  if (shownHtml.get(node) === html) return;
  shownHtml.set(node, html);
  node.innerHTML = html;
}
