/**
 * The Verdict panel: the counts, and each notable finding (or every finding, on request) with
 * the spec's words and a link to them. Opening a finding highlights the wire rows that witness it.
 */
import { CATALOG, clauseFor, judgedRevision, ruleById, type Finding } from '../../../../src/rules/index.ts';
import { toChecksJson } from '../../../../src/report/index.ts';
import { findingLabel, findingTone, isNotable, sortFindings, type RunView } from '../../../../src/views/index.ts';
import { saveFile } from '../../save-file.ts';
import { byId, el } from '../dom.ts';
import type { Actions, Panel } from '../types.ts';

const findingKey = (f: Finding): string => `${f.rule}@${f.witnesses.join(',')}`;

export function createVerdictPanel(root: HTMLElement, actions: Actions): Panel {
  const summary = byId<HTMLElement>(root, 'verdict-counts');
  const list = byId<HTMLUListElement>(root, 'findings');
  const showAll = byId<HTMLInputElement>(root, 'show-all-findings');
  let shown: RunView | null = null;
  let open: string | null = null;

  function item(view: RunView, f: Finding): HTMLLIElement {
    const rule = ruleById(f.rule);
    // The clause of the revision the run negotiated, which is what the checker judged it by.
    const clause = rule ? clauseFor(rule, judgedRevision(view.scenario, view.trace), view.scenario.transport) : undefined;
    const key = findingKey(f);
    // A notable finding is marked with its tone, as its badges are; the rest with their label.
    const notable = isNotable(f, view.scenario);
    const mark = notable
      ? el('span', { className: `sev-${findingTone(f)}`, title: findingLabel(f, view.scenario) }, findingTone(f))
      : el('span', { className: 'muted' }, findingLabel(f, view.scenario));
    const details = el(
      'details',
      { open: open === key },
      el('summary', {}, mark, ` ${f.rule} — ${rule?.name ?? ''}`),
      el('p', {}, f.why),
      ...(clause
        ? [
            el('blockquote', {}, `${clause.keyword}: “${clause.quote}”`),
            el('a', { href: clause.source.url, rel: 'noopener', target: '_blank' }, `${clause.source.path}:${clause.source.lines[0]}-${clause.source.lines[1]}`),
          ]
        : []),
      el('p', { className: 'muted' }, f.witnesses.length ? `Witnesses: trace events ${f.witnesses.join(', ')}` : 'No single event witnesses it.'),
    );
    details.addEventListener('toggle', () => {
      if (details.open && open !== key) {
        open = key;
        actions.highlight(f.witnesses);
      } else if (!details.open && open === key) {
        open = null;
        actions.highlight([]);
      }
    });
    const li = el('li', {}, details);
    li.dataset.rule = f.rule;
    return li;
  }

  function render(view: RunView): void {
    // A live region: rewritten only when it says something new, so a screen reader hears the change, not every step.
    if (summary.textContent !== view.verdict.text) summary.textContent = view.verdict.text;
    const findings = showAll.checked ? sortFindings(view.findings, view.scenario) : view.verdict.notable;
    list.replaceChildren(...findings.map((f) => item(view, f)));
  }

  showAll.addEventListener('change', () => shown && render(shown));
  byId<HTMLButtonElement>(root, 'export-checks').addEventListener('click', () => {
    if (shown) saveFile('checks.json', toChecksJson(CATALOG, judgedRevision(shown.scenario, shown.trace), shown.scenario.transport, shown.findings), 'application/json');
  });
  return {
    update(view) {
      if (view === shown) return;
      shown = view;
      render(view);
    },
  };
}
