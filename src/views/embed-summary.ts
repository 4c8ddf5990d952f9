/**
 * What an embedded scenario says under its wire log, the same whether it was rendered at build
 * time (the static `<Scenario>` embed) or is running live: how each call ended on the client,
 * what its handler did on the server and when, what the server committed, what was still open
 * when the run ended, and the verdict. And which leading rows are the setup (the handshake), so
 * an embed can fold them and show the rows its lesson is about.
 */
import { describeCall } from './call-views.ts';
import { findingLabel, findingTone, type FindingTone } from './findings.ts';
import type { RunView } from './run-view.ts';

export interface EmbedLine {
  kind: 'call' | 'server' | 'ledger' | 'open' | 'finding' | 'verdict';
  text: string;
  /** For a finding: its tone; for the verdict: 'ok' when no MUST or SHOULD rule is broken. */
  tone?: FindingTone | 'ok';
}

export interface EmbedSummary {
  /** Every line, in the order an embed lists them: calls, their handlers, ledger, what was open, then the verdict. */
  lines: EmbedLine[];
}

/**
 * A handler's states with their times, a state the handler stays in left out: once it has
 * returned, a per-request transport closing aborts its signal too ("signal aborted after the
 * handler finished"), which changes nothing the reader needs to follow.
 */
function serverLine(c: RunView['calls'][number]): string | null {
  const steps: string[] = [];
  let last: string | null = null;
  for (const h of c.serverHistory) {
    if (h.to === last) continue;
    last = h.to;
    steps.push(`${h.to} at ${h.t} ms`);
  }
  return steps.length === 0 ? null : `${c.call} on the server: ${steps.join(' → ')}`;
}

/** What the run left open: HTTP streams never ended or aborted, and calls still waiting. */
function openAtEnd(view: RunView): string | null {
  const open: string[] = [];
  for (const [n, stream] of view.index.streams) {
    if (!stream.open || stream.end || stream.aborts.length > 0) continue;
    const req = stream.req?.msg;
    const carries =
      req && 'method' in req ? ` (${req.method} id ${JSON.stringify(req.id)})` : stream.open.http?.method === 'GET' ? ' (GET: the server’s own event stream)' : '';
    open.push(`stream #${n}${carries}`);
  }
  for (const c of view.calls) if (c.clientState === 'RUNNING') open.push(`call ${c.call}, still waiting`);
  return open.length === 0 ? null : `Still open when the run ended: ${open.join('; ')}.`;
}

/**
 * How many leading wire rows came before the user's first action: the connection's setup
 * (initialize or server/discover, notifications/initialized, a standalone stream's GET). An
 * embed folds them; 0 when the first action came first.
 */
export function setupRows(view: Pick<RunView, 'trace' | 'wire'>): number {
  const first = view.trace.find((e) => e.kind === 'user-action')?.seq;
  if (first === undefined) return 0;
  const at = view.wire.findIndex((row) => row.seq > first);
  return at < 0 ? view.wire.length : at;
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
    ...view.calls.flatMap((c): EmbedLine[] => {
      const text = serverLine(c);
      return text === null ? [] : [{ kind: 'server', text }];
    }),
    ...view.ledger.map((e): EmbedLine => ({ kind: 'ledger', text: ledgerLine(e) })),
  ];
  const open = openAtEnd(view);
  if (open !== null) lines.push({ kind: 'open', text: open });
  const broken = view.verdict.notable.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
  for (const f of broken) lines.push({ kind: 'finding', text: `${findingLabel(f, view.scenario)}: ${f.rule}: ${f.why}`, tone: findingTone(f) });
  if (broken.length === 0) lines.push({ kind: 'verdict', text: 'No MUST or SHOULD rule is broken.', tone: 'ok' });
  return { lines };
}
