/**
 * What an embedded scenario shows without JavaScript: the wire log as rows and the outcome
 * (each call's last state, the rules it breaks). Pure, so the build and the live embed agree.
 */
import { callViews, ledger, wireRows, type CallView, type LedgerEntry, type WireRow } from '../views/index.ts';

export { describeCall } from '../views/index.ts';
import { checkRun } from '../rules/index.ts';
import type { Scenario } from '../scenario/index.ts';
import type { TraceEvent } from '../trace/index.ts';

export interface EmbedOutcome {
  rows: WireRow[];
  calls: CallView[];
  ledger: LedgerEntry[];
  violations: { rule: string; severity: string; why: string }[];
}

export function embedOutcome(scenario: Scenario, trace: readonly TraceEvent[]): EmbedOutcome {
  return {
    rows: wireRows(trace),
    calls: callViews(trace),
    ledger: ledger(trace),
    violations: checkRun(scenario, trace)
      .filter((f) => f.verdict === 'violated' && f.severity !== 'info')
      .map((f) => ({ rule: f.rule, severity: f.severity, why: f.why })),
  };
}

