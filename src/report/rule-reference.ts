/**
 * The rule reference page, as data: everything the page shows about a rule, worked out from the
 * catalog (src/rules/catalog.ts) and nothing else. Pure functions, no Astro: the page
 * (site/components/docs/RuleReference.astro) only lays this out.
 *
 * Per rule and revision a cell is one of
 * - `absent`: the rule does not exist in that revision (shown "—");
 * - `same`: every clause has the same keyword, wording and transports as in the previous
 *   revision (shown "="; the source link still moves with the lines). Wording is compared as
 *   read: a link whose target moved with the revision (`/specification/2025-06-18/…`) is not a
 *   change of wording;
 * - `text`: the clauses, in full.
 * The restatements (`also`: schema comments, binding pages) are compared separately, so a
 * revision whose main sentence is unchanged but which adds a schema comment shows "=" and the
 * new comment.
 */
import { CATALOG, type Clause, type Keyword, type Rule, type Section, type SpecQuote, type SpecSource, ruleTransports } from '../rules/index.ts';
import { REVISIONS, type Revision, TRANSPORT_LABEL } from '../scenario/index.ts';
import { linkOpenPoints } from './open-points.ts';
import { violatingScenario } from './rule-scenarios.ts';
import type { LibraryEntry } from '../scenario/index.ts';

export { REVISIONS };
export type { Revision };

export const SECTION_TITLE: Record<Section, string> = {
  '10.1': 'Cancellation core',
  '10.2': 'Transports: cancellation and late results',
  '10.3': 'Progress and timeouts',
  '10.4': 'Tasks and batching',
};

export const SECTIONS: readonly Section[] = ['10.1', '10.2', '10.3', '10.4'];

/** The heading anchor of a rule: its id, as is (ids are already URL-safe: `CANCEL-NO-RESPONSE`). */
export function ruleAnchor(rule: Pick<Rule, 'id'>): string {
  return rule.id;
}

export function sectionAnchor(section: Section): string {
  return `section-${section.replace('.', '-')}`;
}

export type Cell =
  | { kind: 'absent'; revision: Revision }
  | {
      kind: 'same' | 'text';
      revision: Revision;
      clauses: readonly Clause[];
      /** Restatements that differ from the previous revision's (all of them when kind is 'text'). */
      also: readonly SpecQuote[];
      /** The previous revision, whose wording `same` repeats. */
      sameAs?: Revision;
    };

export interface WordDiffPart {
  op: 'same' | 'del' | 'ins';
  text: string;
}

export interface Change {
  revision: Revision;
  /** The revision compared against (the one before, where the rule existed). */
  from?: Revision;
  kind: 'added' | 'removed' | 'keyword' | 'wording' | 'markup' | 'transports' | 'also' | 'moved';
  summary: string;
  /** For `wording`: a word diff from the previous wording to this one. */
  diff?: readonly WordDiffPart[];
}

export interface RuleView {
  rule: Rule;
  anchor: string;
  /** Keyword(s) per revision, or undefined where the rule is absent. */
  keywords: Record<Revision, string | undefined>;
  cells: readonly Cell[];
  changes: readonly Change[];
  transports: string;
  /** "not judged: <reason>", or undefined when the checker judges the rule. */
  notJudged?: string;
  /** Where "Open a scenario that violates it" goes. */
  /** A library scenario whose run violates the rule, when one does. */
  violating: LibraryEntry | undefined;
}

// ---------------------------------------------------------------------------------------------

const transportsKey = (t: Clause['transports']): string => (t ? [...t].sort().join(',') : '');

/** Same keyword, same wording as read (Markdown markup aside: link targets move with the revision), same transports. */
function sameClause(a: Clause, b: Clause): boolean {
  return a.keyword === b.keyword && plainText(a.quote) === plainText(b.quote) && transportsKey(a.transports) === transportsKey(b.transports);
}

function sameClauses(a: readonly Clause[], b: readonly Clause[]): boolean {
  return a.length === b.length && a.every((c, i) => sameClause(c, b[i] as Clause));
}

/** Transport ids in words: `stdio, Streamable HTTP`. */
export function transportList(ts: readonly string[]): string {
  return ts.map((t) => TRANSPORT_LABEL[t as keyof typeof TRANSPORT_LABEL] ?? t).join(', ');
}

/** "MUST" or, when the clauses differ by transport, "MUST (stdio); SHOULD (Streamable HTTP)". */
export function keywordsOf(clauses: readonly Clause[]): string {
  const parts = clauses.map((c) => (c.transports ? `${keywordLabel(c.keyword)} (${transportList(c.transports)})` : keywordLabel(c.keyword)));
  return [...new Set(parts)].join('; ');
}

export function keywordLabel(k: Keyword): string {
  return k === 'info' ? 'descriptive' : k;
}

/** The file name and lines of a source, for a link label: `cancellation.mdx L31–33`. */
export function sourceLabel(src: SpecSource): string {
  const file = src.path.split('/').pop() ?? src.path;
  const [a, b] = src.lines;
  return `${file} L${a}${b !== a ? `–${b}` : ''}`;
}

/** The path with the revision segment taken out, to tell a real move from a new revision folder. */
function pathShape(path: string, revision: Revision): string {
  return path.split(revision).join('<rev>');
}

/** A word diff (LCS over words and the spaces between them). */
export function wordDiff(before: string, after: string): WordDiffPart[] {
  const a = before.split(/(\s+)/).filter((s) => s !== '');
  const b = after.split(/(\s+)/).filter((s) => s !== '');
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i] as number[];
    const next = lcs[i + 1] as number[];
    for (let j = m - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const out: WordDiffPart[] = [];
  const push = (op: WordDiffPart['op'], text: string): void => {
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      push('same', a[i] as string);
      i++;
      j++;
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) {
      push('del', a[i++] as string);
    } else {
      push('ins', b[j++] as string);
    }
  }
  while (i < n) push('del', a[i++] as string);
  while (j < m) push('ins', b[j++] as string);
  return out;
}

/** Markdown links, inline (`[text](url)`) and by reference (`[text][ref]`), as their text alone. */
function linkTexts(text: string): string {
  return text.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1');
}

/** A quote as read: code, emphasis and link markers out, list items separated by `•`. */
export function plainText(quote: string): string {
  return linkTexts(quote)
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(^|[\s(])_([^_\s][^_]*?)_(?=[\s.,;:)]|$)/g, '$1$2')
    .replace(/ \| /g, ' • ');
}

const joinQuotes = (clauses: readonly Clause[]): string => clauses.map((c) => c.quote).join(' ¶ ');

function cellsOf(rule: Rule): Cell[] {
  const cells: Cell[] = [];
  let prev: { revision: Revision; clauses: readonly Clause[] } | undefined;
  let prevAlso = new Set<string>();
  for (const revision of REVISIONS) {
    const clauses = rule.revisions[revision];
    if (!clauses || clauses.length === 0) {
      cells.push({ kind: 'absent', revision });
      prev = undefined;
      prevAlso = new Set();
      continue;
    }
    const allAlso = clauses.flatMap((c) => c.also ?? []);
    if (prev && sameClauses(prev.clauses, clauses)) {
      cells.push({ kind: 'same', revision, clauses, sameAs: prev.revision, also: allAlso.filter((q) => !prevAlso.has(plainText(q.quote))) });
    } else {
      cells.push({ kind: 'text', revision, clauses, also: allAlso });
    }
    prev = { revision, clauses };
    prevAlso = new Set(allAlso.map((q) => plainText(q.quote)));
  }
  return cells;
}

function changesOf(rule: Rule): Change[] {
  const changes: Change[] = [];
  let last: { revision: Revision; clauses: readonly Clause[] } | undefined;
  let wasPresent = false;
  for (const revision of REVISIONS) {
    const clauses = rule.revisions[revision];
    const present = !!clauses && clauses.length > 0;
    if (!present) {
      if (wasPresent && last) changes.push({ revision, from: last.revision, kind: 'removed', summary: `Not in ${revision}.` });
      wasPresent = false;
      continue;
    }
    if (!last) {
      if (revision !== REVISIONS[0]) changes.push({ revision, kind: 'added', summary: `New in ${revision}.` });
    } else if (!wasPresent) {
      changes.push({ revision, from: last.revision, kind: 'added', summary: `Back in ${revision} (absent before it, last in ${last.revision}).` });
    }
    if (last) {
      const from = last.revision;
      const kwBefore = keywordsOf(last.clauses);
      const kwAfter = keywordsOf(clauses);
      if (kwBefore !== kwAfter) changes.push({ revision, from, kind: 'keyword', summary: `Keyword ${kwBefore} → ${kwAfter}.` });
      const before = joinQuotes(last.clauses);
      const after = joinQuotes(clauses);
      if (before !== after) {
        // Diff the text as read (Markdown markers out, list items as •) unless only markup changed.
        const [pb, pa] = [plainText(before), plainText(after)];
        const diff = pb !== pa ? wordDiff(pb, pa) : wordDiff(before, after);
        const summary = pb !== pa ? 'Wording changed.' : 'Same wording; only the Markdown differs (a link target).';
        changes.push({ revision, from, kind: pb !== pa ? 'wording' : 'markup', summary, diff });
      }
      const tBefore = last.clauses.map((c) => transportsKey(c.transports)).join('|');
      const tAfter = clauses.map((c) => transportsKey(c.transports)).join('|');
      if (tBefore !== tAfter) changes.push({ revision, from, kind: 'transports', summary: 'The transports the clauses are limited to changed.' });
      const alsoBefore = new Set(last.clauses.flatMap((c) => c.also ?? []).map((q) => plainText(q.quote)));
      const added = clauses.flatMap((c) => c.also ?? []).filter((q) => !alsoBefore.has(plainText(q.quote)));
      if (added.length > 0) {
        const where = [...new Set(added.map((q) => q.source.path.split('/').pop() ?? q.source.path))].join(', ');
        changes.push({ revision, from, kind: 'also', summary: `Also stated (new or reworded) in ${where}.` });
      }
      const shapeBefore = last.clauses.map((c) => pathShape(c.source.path, from)).join('|');
      const shapeAfter = clauses.map((c) => pathShape(c.source.path, revision)).join('|');
      if (shapeBefore !== shapeAfter) {
        const pathsAfter = [...new Set(clauses.map((c) => c.source.path))].join(', ');
        changes.push({ revision, from, kind: 'moved', summary: `Now stated in ${pathsAfter}.` });
      }
    }
    last = { revision, clauses };
    wasPresent = true;
  }
  return changes;
}

export function ruleView(rule: Rule): RuleView {
  const keywords = {} as Record<Revision, string | undefined>;
  for (const r of REVISIONS) {
    const clauses = rule.revisions[r];
    keywords[r] = clauses && clauses.length > 0 ? keywordsOf(clauses) : undefined;
  }
  return {
    rule,
    anchor: ruleAnchor(rule),
    keywords,
    cells: cellsOf(rule),
    changes: changesOf(rule),
    transports: rule.transports === 'all' ? `all (${transportList(ruleTransports(rule))})` : transportList(ruleTransports(rule)),
    ...(rule.judged ? {} : { notJudged: `not judged: ${rule.reason}` }),
    violating: violatingScenario(rule),
  };
}

/** The catalog, grouped by section in the catalog's order. */
export function ruleSections(rules: readonly Rule[] = CATALOG): { section: Section; title: string; anchor: string; rules: RuleView[] }[] {
  return SECTIONS.map((section) => ({
    section,
    title: SECTION_TITLE[section],
    anchor: sectionAnchor(section),
    rules: rules.filter((r) => r.section === section).map(ruleView),
  })).filter((s) => s.rules.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Quotes to HTML.

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Inline Markdown of a quote to HTML: code spans, `**strong**`, `_emphasis_`, and links shown as
 * their text (the spec's relative links do not resolve here; the source link is beside the quote).
 * A citation of an open point of the spec (`U-3`, in a rule's notes) links to its section of the
 * open-points page. Everything else is escaped text.
 */
export function inlineMarkdown(text: string): string {
  // Links first, before the code spans are split out: a link's text may be code (the spec's
  // [`Last-Event-ID`](…)), and split at its backticks the link's brackets were left as text.
  const parts = linkTexts(text).split(/(`[^`]*`)/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      let s = escapeHtml(part);
      s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
      s = s.replace(/(^|[\s(])_([^_\s][^_]*?)_(?=[\s.,;:)]|$)/g, '$1<em>$2</em>');
      return linkOpenPoints(s, (id, href) => `<a href="${href}">${id}</a>`);
    })
    .join('');
}

/**
 * A quote's list items: the digest writes ` | ` between consecutive list items (markers dropped).
 * Returns the lead-in and the items; a ` | ` inside `{@link … | …}` or a code span is not a separator.
 */
export function splitListItems(quote: string): { lead: string; items: string[] } {
  const pieces: string[] = [];
  let depth = 0;
  let inCode = false;
  let start = 0;
  for (let i = 0; i < quote.length; i++) {
    const ch = quote[i];
    if (ch === '`') inCode = !inCode;
    else if (!inCode && ch === '{') depth++;
    else if (!inCode && ch === '}') depth = Math.max(0, depth - 1);
    else if (!inCode && depth === 0 && quote.startsWith(' | ', i)) {
      pieces.push(quote.slice(start, i));
      start = i + 3;
      i += 2;
    }
  }
  pieces.push(quote.slice(start));
  const [lead = '', ...items] = pieces;
  return { lead, items };
}

/** A quote as HTML: the lead-in, then its list items as a list. */
export function quoteHtml(quote: string): string {
  const { lead, items } = splitListItems(quote);
  const head = `<span class="lead">${inlineMarkdown(lead)}</span>`;
  if (items.length === 0) return head;
  return `${head}<ul>${items.map((it) => `<li>${inlineMarkdown(it)}</li>`).join('')}</ul>`;
}

/**
 * A word diff for display: long unchanged runs are cut to their ends (`…` in between), so the
 * edits stand out. The full wording of both revisions is in the table beside it.
 */
export function compactDiff(parts: readonly WordDiffPart[], keep = 48): WordDiffPart[] {
  return parts.map((p, i) => {
    if (p.op !== 'same' || p.text.length <= keep * 2 + 5) return p;
    const first = i === 0;
    const last = i === parts.length - 1;
    // Cut at spaces, so no word is split.
    const cut = p.text.lastIndexOf(' ', keep);
    const head = first ? '' : p.text.slice(0, cut > 0 ? cut : keep);
    const from = p.text.indexOf(' ', p.text.length - keep);
    const tail = last ? '' : p.text.slice(from >= 0 ? from + 1 : p.text.length - keep);
    return { op: 'same', text: `${head}${head ? ' ' : ''}…${tail ? ' ' : ''}${tail}` };
  });
}
