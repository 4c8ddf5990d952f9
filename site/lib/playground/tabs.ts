/**
 * The workbench drawer's tabs, as the WAI-ARIA tabs pattern has them: one tab in the Tab order
 * (the selected one), ←/→ (and Home/End) move between tabs and show each at once, and every
 * panel stays in the page (hidden, not removed), so what it holds lives on while another shows.
 */
export function bindTabs(root: HTMLElement): void {
  for (const list of root.querySelectorAll<HTMLElement>('[role="tablist"]')) {
    const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const show = (picked: HTMLButtonElement, focus: boolean): void => {
      for (const tab of tabs) {
        const on = tab === picked;
        tab.setAttribute('aria-selected', String(on));
        tab.tabIndex = on ? 0 : -1;
        const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
        if (panel) panel.hidden = !on;
      }
      if (focus) picked.focus();
    };
    for (const [i, tab] of tabs.entries()) {
      tab.addEventListener('click', () => show(tab, false));
      tab.addEventListener('keydown', (e) => {
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        const next = tabs[(to + tabs.length) % tabs.length];
        if (next) show(next, true);
      });
    }
  }
}
