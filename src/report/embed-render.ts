/**
 * What an embedded scenario shows without JavaScript: the wire log's cells and the summary
 * under it (each call's outcome, the ledger, the verdict), from the same run view and the same
 * models the live embed renders (src/views/wire-cells.ts, src/views/embed-summary.ts), so the
 * build and the live embed agree. Pure.
 */
import type { Scenario } from '../scenario/index.ts';
import type { TraceEvent } from '../trace/index.ts';
import {
  deriveRunView,
  embedSummary,
  type CallView,
  type EmbedSummary,
  type LedgerEntry,
  type RunView,
  type WireCells,
  type WireRow,
} from '../views/index.ts';

export interface EmbedOutcome {
  view: RunView;
  /** Each wire row's cells, in order. */
  cells: readonly WireCells[];
  summary: EmbedSummary;
  /** The parts the cells and the summary are made from. */
  rows: readonly WireRow[];
  calls: readonly CallView[];
  ledger: readonly LedgerEntry[];
  /** The MUST and SHOULD rules the run breaks. */
  violations: { rule: string; severity: string; why: string }[];
}

export function embedOutcome(scenario: Scenario, trace: readonly TraceEvent[]): EmbedOutcome {
  const view = deriveRunView(scenario, trace);
  return {
    view,
    cells: view.cells,
    summary: embedSummary(view),
    rows: view.wire,
    calls: view.calls,
    ledger: view.ledger,
    violations: view.findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info').map((f) => ({ rule: f.rule, severity: f.severity, why: f.why })),
  };
}
