/** The DOM helpers the panels share: build an element, find one that must exist, show a scenario's values in form controls. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

export function byId<T extends HTMLElement>(root: HTMLElement, id: string): T {
  const node = root.querySelector<T>(`#${id}`);
  if (!node) throw new Error(`missing #${id}`);
  return node;
}

export function need<T extends Element>(root: ParentNode, selector: string): T {
  const node = root.querySelector<T>(selector);
  if (!node) throw new Error(`missing ${selector}`);
  return node;
}

/** A form control a scenario's value is shown in: its value, or for a checkbox whether it is checked. */
type Control = HTMLInputElement | HTMLSelectElement;

/**
 * Shows a scenario's values in its form controls. A control the user is in keeps what they typed
 * while the scenario's value for it stays what was shown there last: a run's first paint comes
 * a frame or more after the change that started it, and by then the user may be typing in the
 * next field, which a paint writing every field again would wipe out. Any other control, and
 * one whose value the scenario changed (a link opened meanwhile), shows the scenario's value.
 */
export function controlWriter(): (control: Control, value: string | boolean) => void {
  const shown = new WeakMap<Control, string | boolean>();
  return (control, value) => {
    const typing = control.ownerDocument.activeElement === control && shown.get(control) === value;
    shown.set(control, value);
    if (typing) return;
    if (typeof value === 'boolean' && control instanceof HTMLInputElement) control.checked = value;
    else if (control.value !== String(value)) control.value = String(value);
  };
}

/**
 * Watches the presses on `doc` from now on, and returns `afterPress`: it runs `show` once the
 * press going on, if any, has ended and its click has landed (a task after the pointer comes
 * up: the browser dispatches the click with the pointerup), else in the next task. A change
 * event fired by a press elsewhere (focus leaving a field for the button pressed) comes between
 * the press and its release, and a timer alone may fire in that gap on a busy machine: a
 * validation bubble shown then scrolls its field into view and moves the button out from under
 * the pointer, and the click is lost.
 */
export function pressWatch(doc: Document): (show: () => void) => void {
  let pressed = false;
  const waiting: (() => void)[] = [];
  doc.addEventListener('pointerdown', () => (pressed = true), { capture: true });
  const release = (): void => {
    pressed = false;
    for (const show of waiting.splice(0)) setTimeout(show, 0);
  };
  doc.addEventListener('pointerup', release, { capture: true });
  doc.addEventListener('pointercancel', release, { capture: true });
  return (show) => {
    if (pressed) waiting.push(show);
    else setTimeout(show, 0);
  };
}
