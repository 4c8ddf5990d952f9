/**
 * The one renderer of wire rows and run outcomes, as escaped HTML: Astro puts it into the static
 * <Scenario> embed with set:html at build time (so it works without JavaScript), and the live
 * embed and the playground's wire log insert the same strings. It lays out what the views say
 * (a row's `wireCells`, the run's `embedSummary`) and adds no words of its own; everything goes
 * through `escapeHtml`, so a hostile tool argument stays text.
 */
import { embedSummary, setupRows, type RunView, type WireBadge, type WireCells } from '../../src/views/index.ts';

/** 'log' is the playground's full wire log; 'embed' the five columns of a lesson or /embed/ embed. */
type WireLayout = 'log' | 'embed';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const HEADS: Record<WireLayout, readonly string[]> = {
  log: ['#', 'Sent (ms)', 'Delivered (ms)', 'Direction', 'Stream', 'Framing', 'Method', 'Id', 'Duration', 'Message'],
  embed: ['t (ms)', 'Direction', 'Method', 'Id', 'Message'],
};

export function wireHeadHtml(layout: WireLayout): string {
  return `<tr>${HEADS[layout].map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
}

function td(content: string, className = ''): string {
  return `<td${className ? ` class="${className}"` : ''}>${content}</td>`;
}

function badgeHtml(b: WireBadge): string {
  const className = b.kind === 'finding' && b.tone ? `badge rule-badge sev-${b.tone}` : 'badge';
  return `<span class="${className}" title="${escapeHtml(b.title)}">${escapeHtml(b.text)}</span>`;
}

function whatCell(cells: WireCells, withFraming: boolean): string {
  const what = escapeHtml(`${withFraming && cells.framing ? `${cells.framing} ` : ''}${cells.what}`);
  return td(what + cells.badges.map(badgeHtml).join(''), 'what');
}

/**
 * One wire row; `className` adds classes (an embed's rows past the first few are `extra`). The
 * log's row is one line of fixed height (its list renders only the rows in view): the message
 * on one line, its headers and indented JSON in the selected frame's pane (`frameDetailHtml`).
 */
export function wireRowHtml(cells: WireCells, layout: WireLayout, className = ''): string {
  if (layout === 'embed') {
    const row = [td(escapeHtml(cells.sent), 'num'), td(escapeHtml(cells.direction), 'dir'), whatCell(cells, true), td(escapeHtml(cells.id), 'num'), td(`<code>${escapeHtml(cells.excerpt)}</code>`)];
    return `<tr class="${[cells.dir, className].join(' ').trim()}">${row.join('')}</tr>`;
  }
  const row = [
    td(escapeHtml(cells.frame), 'num'),
    td(escapeHtml(cells.sent), 'num'),
    td(escapeHtml(cells.delivered), 'num delivered'),
    td(escapeHtml(cells.direction), 'dir'),
    td(escapeHtml(cells.stream), 'num'),
    td(escapeHtml(cells.framing), 'framing'),
    whatCell(cells, false),
    td(escapeHtml(cells.id), 'num'),
    td(escapeHtml(cells.duration), 'num duration'),
    td(`<code>${escapeHtml(cells.summary)}</code>`, 'message'),
  ];
  const classes = [cells.dir, cells.framingOnly ? 'framing-only' : '', className].join(' ').replace(/ +/g, ' ').trim();
  return `<tr class="${classes}" data-frame="${escapeHtml(cells.frame)}">${row.join('')}</tr>`;
}

/** The selected frame in full: where it sits, its headers and its message as indented JSON. */
export function frameDetailHtml(cells: WireCells): string {
  const where = [`frame ${cells.frame}`, cells.direction, cells.call, cells.framing, cells.duration && `duration ${cells.duration}`].filter((part) => part !== '');
  const headers = cells.headers.length > 0 ? `<div class="headers">${cells.headers.map((h) => `<div>${escapeHtml(h)}</div>`).join('')}</div>` : '';
  return `<p class="where">${escapeHtml(where.join(' · '))}</p>${headers}<pre>${escapeHtml(cells.pretty)}</pre>`;
}

/**
 * An embed's rows: the setup before the user's first action (`setupRows`, the
 * handshake) marked `setup`, folded until the reader asks; of the rest, those past `visible`
 * marked `extra`. So the rows a lesson is about are the first ones shown.
 */
export function embedRowsHtml(view: RunView, visible = Infinity): { html: string; setup: number; hidden: number } {
  const setup = setupRows(view);
  const html = view.cells
    .map((cells, i) => {
      const className = i < setup ? 'setup' : i - setup >= visible ? 'extra' : '';
      const row = wireRowHtml(cells, 'embed', className);
      // Request ids start again on a new connection: say so where it starts, or "id 0" reads as the old one.
      const fresh = i > 0 && cells.connection !== view.cells[i - 1]?.connection;
      return fresh ? `${connectionBreakHtml(cells.connection, className)}${row}` : row;
    })
    .join('');
  return { html, setup, hidden: Math.max(0, view.cells.length - setup - visible) };
}

function connectionBreakHtml(connection: number, className: string): string {
  const text = `Connection ${connection + 1}: a new connection, its request ids start again`;
  return `<tr class="${['connection-break', className].join(' ').trim()}"><td colspan="${HEADS.embed.length}">${escapeHtml(text)}</td></tr>`;
}

/** An embed's outcome, line by line as `embedSummary` says it; a broken rule's line in its tone. */
export function outcomeHtml(view: RunView): string {
  return embedSummary(view)
    .lines.map((line) => `<li${line.kind === 'finding' && line.tone ? ` class="sev-${line.tone}"` : ''}>${escapeHtml(line.text)}</li>`)
    .join('');
}
