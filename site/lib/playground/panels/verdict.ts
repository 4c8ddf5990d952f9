/**
 * The Verdict panel: the counts, and each notable finding (or every finding, on request) with
 * the spec's words and a link to them. Opening a finding highlights the wire rows that witness it.
 */
import { CATALOG, clauseFor, ruleById, type Finding } from '../../../../src/rules/index.ts';
import { toChecksJson } from '../../../../src/report/index.ts';
import type { RunView } from '../../../../src/views/index.ts';
import { saveFile } from '../../save-file.ts';
import { byId, el } from '../dom.ts';
import { isNotable } from '../notable.ts';
import type { Actions, Panel } from '../types.ts';

const RANK = { error: 0, warning: 1, info: 2 } as const;
const rank = (f: Finding): number => (f.verdict === 'violated' ? RANK[f.severity] : 3);
const findingKey = (f: Finding): string => `${f.rule}@${f.witnesses.join(',')}`;

function counts(findings: readonly Finding[]): string {
  const violated = (sev: string) => findings.filter((f) => f.verdict === 'violated' && f.severity === sev).length;
  const races = findings.filter((f) => f.severity === 'info' && f.witnesses.length > 0).length;
  const satisfied = findings.filter((f) => f.verdict === 'satisfied').length;
  const cannotTell = findings.filter((f) => f.verdict === 'cannot-tell').length;
  return `${violated('error')} errors (MUST broken) · ${violated('warning')} warnings (SHOULD not followed) · ${races} allowed races and open points (info) · ${satisfied} rules satisfied · ${cannotTell} can’t tell from this trace`;
}

export function createVerdictPanel(root: HTMLElement, actions: Actions): Panel {
  const summary = byId<HTMLElement>(root, 'verdict-counts');
  const list = byId<HTMLUListElement>(root, 'findings');
  const showAll = byId<HTMLInputElement>(root, 'show-all-findings');
  let shown: RunView | null = null;
  let open: string | null = null;

  function item(view: RunView, f: Finding): HTMLLIElement {
    const rule = ruleById(f.rule);
    const clause = rule ? clauseFor(rule, view.scenario.revision, view.scenario.transport) : undefined;
    const key = findingKey(f);
    const label = f.verdict === 'violated' ? f.severity : f.verdict === 'satisfied' && f.severity === 'info' ? 'info' : f.verdict;
    const details = el(
      'details',
      { open: open === key },
      el('summary', {}, el('span', { className: `sev-${f.severity}` }, label), ` ${f.rule} — ${rule?.name ?? ''}`),
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
    summary.textContent = counts(view.findings);
    const findings = view.findings.filter((f) => showAll.checked || isNotable(view, f)).sort((a, b) => rank(a) - rank(b));
    list.replaceChildren(...findings.map((f) => item(view, f)));
  }

  showAll.addEventListener('change', () => shown && render(shown));
  byId<HTMLButtonElement>(root, 'export-checks').addEventListener('click', () => {
    if (shown) saveFile('checks.json', toChecksJson(CATALOG, shown.scenario.revision, shown.scenario.transport, shown.findings), 'application/json');
  });
  return {
    update(view) {
      if (view === shown) return;
      shown = view;
      render(view);
    },
  };
}
