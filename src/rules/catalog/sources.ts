/**
 * Where the catalog's text lives (the spec repository and the tasks extension, at their pinned
 * commits; a short name per page) and the builders the section files state clauses with.
 */
import type { Revision } from '../../scenario/index.ts';
import { EXT_TASKS_COMMIT, EXT_TASKS_REPO, SPEC_COMMIT, SPEC_REPO, type Clause, type Keyword, type SpecQuote, type SpecSource, type TransportKind } from './rule.ts';

function source(repo: SpecSource['repo'], commit: string, path: string, first: number, last: number): SpecSource {
  return { repo, commit, path, lines: [first, last], url: `https://github.com/${repo}/blob/${commit}/${path}#L${first}-L${last}` };
}

export function spec(path: string, first: number, last = first): SpecSource {
  return source(SPEC_REPO, SPEC_COMMIT, path, first, last);
}

const X_TASKS = 'specification/draft/tasks.md';
export function ext(first: number, last = first): SpecSource {
  return source(EXT_TASKS_REPO, EXT_TASKS_COMMIT, X_TASKS, first, last);
}

export const D = 'docs/specification';
type Legacy = '2024-11-05' | '2025-03-26' | '2025-06-18' | '2025-11-25';
export type HttpLegacy = '2025-03-26' | '2025-06-18' | '2025-11-25';

/** C: the cancellation page. */
export const C = (r: Revision): string =>
  r === '2026-07-28' ? `${D}/2026-07-28/basic/patterns/cancellation.mdx` : `${D}/${r}/basic/utilities/cancellation.mdx`;
/** T: the legacy transports page. */
export const T = (r: Legacy): string => `${D}/${r}/basic/transports.mdx`;
/** L: the legacy lifecycle page (timeouts). */
export const L = (r: Legacy): string => `${D}/${r}/basic/lifecycle.mdx`;
/** P: the progress page. */
export const P = (r: Revision): string =>
  r === '2026-07-28' ? `${D}/2026-07-28/basic/patterns/progress.mdx` : `${D}/${r}/basic/utilities/progress.mdx`;
/** I: the base protocol page (2024-11-05: messages.mdx). */
export const I = (r: Revision): string => (r === '2024-11-05' ? `${D}/2024-11-05/basic/messages.mdx` : `${D}/${r}/basic/index.mdx`);
/** S: the schema. */
export const S = (r: Revision): string => `schema/${r}/schema.ts`;
export const SI = `${D}/2026-07-28/basic/transports/stdio.mdx`;
export const SH = `${D}/2026-07-28/basic/transports/streamable-http.mdx`;
export const TI = `${D}/2026-07-28/basic/transports/index.mdx`;
export const K = `${D}/2025-11-25/basic/utilities/tasks.mdx`;

export function q(quote: string, src: SpecSource): SpecQuote {
  return { quote, source: src };
}

export function clause(keyword: Keyword, quote: string, src: SpecSource, extra: Partial<Pick<Clause, 'transports' | 'also'>> = {}): Clause {
  return { keyword, quote, source: src, ...extra };
}

/** One clause per revision, same keyword and wording, each at its own lines of `path(revision)`. */
export function same<R extends Revision>(
  keyword: Keyword,
  quote: string,
  path: (r: NoInfer<R>) => string,
  lines: Record<R, readonly [number, number]>,
  also: Partial<Record<R, readonly SpecQuote[]>> = {},
): Partial<Record<Revision, readonly Clause[]>> {
  const out: Partial<Record<Revision, readonly Clause[]>> = {};
  for (const r of Object.keys(lines) as R[]) {
    const [a, b] = lines[r];
    const more = also[r];
    out[r] = [clause(keyword, quote, spec(path(r), a, b), more ? { also: more } : {})];
  }
  return out;
}

export const HTTP: readonly TransportKind[] = ['http-sse', 'streamable-http'];
export const STREAMABLE: readonly TransportKind[] = ['streamable-http'];
export const STDIO: readonly TransportKind[] = ['stdio'];
