/**
 * "Make a scenario from this trace" (under the Import panel): while an imported trace is shown,
 * the button makes the lab scenario that reproduces it (src/scenario/from-trace.ts) and runs it
 * at once; while that run is shown, the panel shows how its trace matches the import frame by
 * frame (counts, and a mark per imported frame), derived from the two traces at each update.
 * It also tells Share and the bug report what is shown: the import, or the run made from it.
 */
import { matchSummary, matchTraces, scenarioFromTrace, type Scenario, type TraceMatch } from '../../../../src/scenario/index.ts';
import type { RunView } from '../../../../src/views/index.ts';
import { plural } from '../../../../src/trace/index.ts';
import { importReport } from '../import-report.ts';
import { byId, el } from '../dom.ts';
import type { Panel, ShownImport } from '../types.ts';
import type { ImportedTrace } from './import.ts';

/** Rows listed at most; the counts cover them all. */
const ROWS_SHOWN = 500;

const MARK = { matched: '✓ matched', differs: '≠ differs', missing: '✗ missing' } as const;

export interface ImportScenarioPanel extends Panel {
  /** An import is now shown. */
  show(imported: ImportedTrace): void;
  /** The page went back to the user's run (or on to another one). */
  left(): void;
  shown(): ShownImport | null;
}

export function createImportScenarioPanel(root: HTMLElement, run: (scenario: Scenario) => Promise<number>): ImportScenarioPanel {
  const box = byId<HTMLElement>(root, 'import-made');
  const button = byId<HTMLButtonElement>(root, 'import-make');
  const summary = byId<HTMLElement>(root, 'import-match');
  const rows = byId<HTMLOListElement>(root, 'import-match-rows');
  const notes = byId<HTMLUListElement>(root, 'import-scenario-notes');
  let source: ImportedTrace | null = null;
  let made: { scenario: Scenario; run: number | null } | null = null;
  let latest: { view: RunView; run: number } | null = null;
  let match: { length: number; result: TraceMatch } | null = null;

  function clear(): void {
    source = null;
    made = null;
    match = null;
    box.hidden = true;
  }

  function render(result: TraceMatch): void {
    summary.textContent = `The scenario’s run against the imported trace: ${matchSummary(result)}`;
    const items = result.rows.slice(0, ROWS_SHOWN).map((r) => el('li', { className: r.status, textContent: `${MARK[r.status]} · frame ${r.frame}: ${r.what}${r.how ? ` — ${r.how}` : ''}` }));
    const extra = result.extra.slice(0, Math.max(0, ROWS_SHOWN - items.length)).map((e) => el('li', { className: 'extra', textContent: `+ extra · run frame ${e.frame}: ${e.what}` }));
    const more = result.rows.length + result.extra.length - items.length - extra.length;
    rows.replaceChildren(...items, ...extra, ...(more > 0 ? [el('li', { textContent: `… and ${more} more` })] : []));
  }

  /** The match of the made run's trace as it now is, derived again when the trace grew. */
  function refresh(): void {
    if (!source || !made || made.run === null || latest?.run !== made.run) return;
    const trace = latest.view.trace;
    if (match?.length === trace.length) return;
    match = { length: trace.length, result: matchTraces(source.trace, trace, { untimedChunks: source.format === 'har', importedIndex: source.view.index }) };
    render(match.result);
  }

  button.addEventListener('click', () => {
    if (!source) return;
    const result = scenarioFromTrace({ trace: source.trace, revision: source.revision, transport: source.transport, index: source.view.index });
    if (!result.ok) {
      summary.textContent = result.error;
      return;
    }
    const own: { scenario: Scenario; run: number | null } = { scenario: result.scenario, run: null };
    made = own;
    match = null;
    button.disabled = true;
    summary.textContent = `Running the scenario made from ${source.name} (${plural(result.scenario.steps.length, 'step')})…`;
    rows.replaceChildren();
    notes.replaceChildren(...result.notes.map((n) => el('li', { textContent: n })));
    void run(result.scenario).then((n) => {
      own.run = n;
      refresh();
    });
  });

  return {
    show(imported) {
      source = imported;
      made = null;
      match = null;
      box.hidden = false;
      button.disabled = false;
      summary.textContent = '';
      rows.replaceChildren();
      notes.replaceChildren();
    },
    left() {
      // Running the made scenario leaves the import too; that is not leaving this panel.
      if (made === null) clear();
    },
    shown() {
      const from = source;
      if (!from) return null;
      const page = `${location.origin}${location.pathname}`;
      if (!made) return { name: from.name, made: false, report: () => importReport(from, null, page) };
      const view = latest?.view;
      if (!view || made.run === null || latest?.run !== made.run || view.scenario.steps.length !== made.scenario.steps.length || !match) return null;
      const run = { scenario: made.scenario, trace: view.trace, match: match.result };
      return { name: from.name, made: true, report: () => importReport(from, run, page) };
    },
    update(view, page) {
      latest = { view, run: page.live.run };
      // Another run than the made one (a new run, a link opened): the import is behind the page now.
      if (made && made.run !== null && page.live.run !== made.run) return clear();
      refresh();
    },
  };
}
