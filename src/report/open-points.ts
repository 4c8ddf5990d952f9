/**
 * The open points of the spec: the places where it is silent, unclear or says two things
 * (U-1 … U-14, from the project's reading of the spec), which a finding cites when its verdict
 * rests on one. The docs page content/docs/reference/open-points.mdx gives each its quotes;
 * every output that prints a finding links each citation to it.
 */

/** The ids the docs page has a section for. */
export const OPEN_POINTS: readonly string[] = Array.from({ length: 14 }, (_, i) => `U-${i + 1}`);

/** The docs page, from the site's root. */
export const OPEN_POINTS_PATH = '/reference/open-points/';

/** Where an open point is explained: `<base>/reference/open-points/#u-3` (the site's root when no base is known). */
export function openPointHref(id: string, base = ''): string {
  return `${base.replace(/\/+$/, '')}${OPEN_POINTS_PATH}#${id.toLowerCase()}`;
}

const CITATION = /\bU-(\d{1,2})\b/g;

/** The open points a text cites, each once, in order. */
export function citedOpenPoints(text: string): string[] {
  const ids = [...text.matchAll(CITATION)].map((m) => m[0]).filter((id) => OPEN_POINTS.includes(id));
  return [...new Set(ids)];
}

/**
 * Each citation of an open point in `text` (already escaped for where it lands) replaced by
 * `link(id, href)`. Ids are `U-` and digits, so they read the same escaped or not.
 */
export function linkOpenPoints(text: string, link: (id: string, href: string) => string, base = ''): string {
  return text.replace(CITATION, (id) => (OPEN_POINTS.includes(id) ? link(id, openPointHref(id, base)) : id));
}
