/**
 * What an embedded scenario says under its wire log, the same whether it was rendered at build
 * time (the static `<Scenario>` embed) or is running live: how each call ended, what the server
 * committed, and the verdict.
 */
import { describeCall } from './call-views.ts';
import { findingLabel, findingTone, type FindingTone } from './findings.ts';
import type { RunView } from './run-view.ts';

export interface EmbedLine {
  kind: 'call' | 'ledger' | 'finding' | 'verdict';
  text: string;
  /** For a finding: its tone; for the verdict: 'ok' when no MUST or SHOULD rule is broken. */
  tone?: FindingTone | 'ok';
}

export interface EmbedSummary {
  /** Every line, in the order an embed lists them: calls, ledger, then the verdict. */
  lines: EmbedLine[];
}

function ledgerLine(e: RunView['ledger'][number]): string {
  return `ledger: ${e.key} = ${e.value} ${e.summary} (request ${JSON.stringify(e.requestId)}${e.call === null ? '' : `, call ${e.call}`})`;
}

/**
 * The verdict of an embed names only what is broken (MUST and SHOULD rules): a short scenario
 * in a lesson is about one thing, and the playground is one click away for the races.
 */
export function embedSummary(view: RunView): EmbedSummary {
  const lines: EmbedLine[] = [
    ...view.calls.map((c): EmbedLine => ({ kind: 'call', text: describeCall(c) })),
    ...view.ledger.map((e): EmbedLine => ({ kind: 'ledger', text: ledgerLine(e) })),
  ];
  const broken = view.verdict.notable.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
  for (const f of broken) lines.push({ kind: 'finding', text: `${findingLabel(f, view.scenario)}: ${f.rule}: ${f.why}`, tone: findingTone(f) });
  if (broken.length === 0) lines.push({ kind: 'verdict', text: 'No MUST or SHOULD rule is broken.', tone: 'ok' });
  return { lines };
}
