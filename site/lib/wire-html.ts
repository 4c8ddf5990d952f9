/**
 * The one renderer of wire rows and run outcomes, as escaped HTML: Astro puts it into the static
 * <Scenario> embed with set:html at build time (so it works without JavaScript), and the live
 * embed and the playground's wire log insert the same strings. Everything taken from the trace
 * goes through `escapeHtml`, so a hostile tool argument stays text.
 */
import { describeCall, type RunView, type WireRow } from '../../src/views/index.ts';

/** 'log' is the playground's full wire log; 'embed' the five columns of a lesson or /embed/ embed. */
export type WireLayout = 'log' | 'embed';

/** A rule badge on a row that witnesses a finding. */
export interface RowBadge {
  severity: 'error' | 'warning' | 'info';
  rule: string;
}

export interface RowMarks {
  badges?: readonly RowBadge[];
  /** Extra classes for the row (an embed's rows past the first few are `extra`). */
  className?: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const HEADS: Record<WireLayout, readonly string[]> = {
  log: ['#', 'Sent (ms)', 'Delivered (ms)', 'Direction', 'Stream', 'Framing', 'Method', 'Id', 'Message'],
  embed: ['t (ms)', 'Direction', 'Method', 'Id', 'Message'],
};

export function wireHeadHtml(layout: WireLayout): string {
  return `<tr>${HEADS[layout].map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
}

/** When the frame arrived, or why it did not (yet). */
export function deliveredText(row: WireRow): string {
  if (row.droppedBecause !== null) return `never (${row.droppedBecause})`;
  if (row.deliveredAt !== null) return String(row.deliveredAt);
  if (row.fault === 'dropped') return 'never (dropped)';
  if (row.fault === 'held' && row.deliverAt === null) return 'held';
  return 'in flight';
}

function td(content: string, className = ''): string {
  return `<td${className ? ` class="${className}"` : ''}>${content}</td>`;
}

function badge(text: string, title: string, className = 'badge'): string {
  return `<span class="${className}" title="${escapeHtml(title)}">${escapeHtml(text)}</span>`;
}

const BADGE_MARK = { error: '✖', warning: '⚠', info: 'ℹ' } as const;

function whatCell(row: WireRow, marks: RowMarks, withFraming: boolean): string {
  let html = escapeHtml(`${withFraming && row.framing ? `${row.framing} ` : ''}${row.what}`);
  if (row.injected) html += badge('injected', 'Forged by the user, not written by the SDK');
  if (row.fault) html += badge(row.fault, 'A wire fault the user set');
  for (const b of marks.badges ?? []) html += badge(`${BADGE_MARK[b.severity]} ${b.rule}`, `${b.severity}: ${b.rule}`, `badge rule-badge sev-${b.severity}`);
  return td(html, 'what');
}

function messageCell(row: WireRow): string {
  const summary = row.raw === '' ? `(no bytes: ${row.framing ?? (row.eof ? 'end of stream' : 'empty frame')})` : row.raw.replace(/\n$/, '');
  const pretty = row.msg ? JSON.stringify(row.msg, null, 2) : summary;
  return td(`<details><summary>${escapeHtml(summary)}</summary><pre>${escapeHtml(pretty)}</pre></details>`);
}

export function wireRowHtml(row: WireRow, layout: WireLayout, marks: RowMarks = {}): string {
  if (layout === 'embed') {
    const raw = row.raw.length > 140 ? `${row.raw.slice(0, 140)}…` : row.raw;
    const cells = [td(String(row.sentAt), 'num'), td(escapeHtml(row.direction), 'dir'), whatCell(row, marks, true), td(escapeHtml(row.id), 'num'), td(`<code>${escapeHtml(raw)}</code>`)];
    return `<tr class="${[row.dir, marks.className ?? ''].join(' ').trim()}">${cells.join('')}</tr>`;
  }
  const headers = row.headers.length > 0 ? `<div class="headers">${row.headers.map(([n, v]) => `<div>${escapeHtml(`${n}: ${v}`)}</div>`).join('')}</div>` : '';
  const cells = [
    td(String(row.frame), 'num'),
    td(String(row.sentAt), 'num'),
    td(escapeHtml(deliveredText(row)), 'num delivered'),
    td(escapeHtml(row.direction), 'dir'),
    td(row.stream === null ? '—' : `#${row.stream}`, 'num'),
    td(escapeHtml(row.framing ?? '') + headers),
    whatCell(row, marks, false),
    td(escapeHtml(row.id), 'num'),
    messageCell(row),
  ];
  const classes = [row.dir, row.carriesMessage ? '' : 'framing-only', marks.className ?? ''].join(' ').replace(/ +/g, ' ').trim();
  return `<tr class="${classes}" data-frame="${row.frame}">${cells.join('')}</tr>`;
}

/** An embed's outcome: each call's last state, the ledger, and the MUST and SHOULD rules broken. */
export function outcomeHtml(view: RunView): string {
  const items = view.calls.map((c) => `<li>${escapeHtml(describeCall(c))}</li>`);
  for (const e of view.ledger) items.push(`<li>${escapeHtml(`ledger: ${e.key} = ${e.value} committed at ${e.t} ms (request ${JSON.stringify(e.requestId)})`)}</li>`);
  const broken = view.findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
  for (const f of broken) items.push(`<li class="sev-${f.severity}">${escapeHtml(`${f.severity === 'error' ? 'MUST broken' : 'SHOULD not followed'}: ${f.rule}: ${f.why}`)}</li>`);
  if (broken.length === 0) items.push('<li>No MUST or SHOULD rule is broken.</li>');
  return items.join('');
}
