/**
 * Which of a view's findings earn a badge (on wire rows, in the diagrams, in the verdict list):
 * a violation, or a race the spec allows (a MUST/SHOULD rule judged info because of timing) —
 * not the descriptive info rules, which every cancel satisfies. Pure; a candidate for src/views.
 */
import { clauseFor, ruleById, type Finding } from '../../../src/rules/index.ts';
import type { RunView } from '../../../src/views/index.ts';
import type { RowBadge } from '../wire-html.ts';

export function isNotable(view: RunView, f: Finding): boolean {
  if (f.verdict === 'violated') return true;
  if (f.severity !== 'info' || f.verdict !== 'satisfied' || f.witnesses.length === 0) return false;
  const rule = ruleById(f.rule);
  return rule !== undefined && clauseFor(rule, view.scenario.revision, view.scenario.transport)?.keyword !== 'info';
}

/** The severity a notable finding is shown with: a violation's own, else info. */
export function shownSeverity(f: Finding): RowBadge['severity'] {
  return f.verdict === 'violated' ? f.severity : 'info';
}

/** Notable findings by the trace event that witnesses them. */
export function badgesBySeq(view: RunView): Map<number, RowBadge[]> {
  const bySeq = new Map<number, RowBadge[]>();
  for (const f of view.findings) {
    if (!isNotable(view, f)) continue;
    for (const seq of f.witnesses) bySeq.set(seq, [...(bySeq.get(seq) ?? []), { severity: shownSeverity(f), rule: f.rule }]);
  }
  return bySeq;
}
