/**
 * The lessons quote the spec through the rule catalog: `<RuleQuote>` renders the catalog's clause
 * at build time, so a lesson cannot word a rule differently from the checker. What stays
 * hand-written (a sentence the catalog does not hold) must not repeat one the catalog does: a
 * hand copy of a catalog sentence would go stale when the catalog is corrected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, clauseFor, ruleById } from '../../src/rules/index.ts';
import { SPEC_COMMIT, SPEC_REPO } from '../../src/rules/catalog/rule.ts';
import { TRANSPORTS } from '../../src/scenario/index.ts';
import { plainText } from '../../src/report/rule-reference.ts';
import { REVISIONS } from '../../src/scenario/index.ts';

const LESSONS = join(import.meta.dirname, '../../content/docs/lessons');
const lessons = readdirSync(LESSONS)
  .filter((f) => f.endsWith('.mdx'))
  .map((file) => ({ file, text: readFileSync(join(LESSONS, file), 'utf8') }));

/** A quote's sentences as read: markup out, list items and sentences apart, whitespace collapsed. */
function sentences(markdown: string): string[] {
  return plainText(markdown)
    .split(/ • |(?<=[.:;])\s+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 20);
}

/** The hand-written blockquotes of a lesson, without their citation line. */
function blockquotes(text: string): string[] {
  const quotes: string[] = [];
  let current: string[] | undefined;
  for (const line of [...text.split('\n'), '']) {
    if (line.startsWith('>')) {
      current ??= [];
      const body = line.replace(/^> ?/, '');
      if (!body.startsWith('— ')) current.push(body.replace(/^- /, ' | '));
    } else if (current) {
      quotes.push(current.join(' '));
      current = undefined;
    }
  }
  return quotes;
}

const catalogSentences = new Set(
  CATALOG.flatMap((rule) =>
    Object.values(rule.revisions).flatMap((clauses) => (clauses ?? []).flatMap((c) => [c.quote, ...(c.also ?? []).map((a) => a.quote)])),
  ).flatMap(sentences),
);

test('no hand-written spec quote in a lesson repeats a sentence the rule catalog holds (those use <RuleQuote>)', () => {
  const copies = lessons.flatMap(({ file, text }) =>
    blockquotes(text).flatMap((q) => sentences(q).filter((s) => catalogSentences.has(s)).map((s) => `${file}: ${s}`)),
  );
  assert.deepEqual(copies, []);
});

test('the sentence check sees a catalog sentence inside a hand-written quote', () => {
  const copied = blockquotes('Intro.\n\n> Receivers of cancellation notifications **SHOULD**:\n>\n> - Stop processing the cancelled request\n>\n> — [cite](x)\n');
  assert.equal(copied.length, 1);
  assert.ok(sentences(copied[0] ?? '').some((s) => catalogSentences.has(s)));
});

test('every <RuleQuote> in the lessons names a rule, revision and transport the catalog holds', () => {
  const tags = lessons.flatMap(({ file, text }) => [...text.matchAll(/<RuleQuote\s([^>]*)\/>/g)].map((m) => ({ file, attrs: m[1] ?? '' })));
  assert.ok(tags.length >= 40, `only ${tags.length} <RuleQuote> tags found`);
  for (const { file, attrs } of tags) {
    const attr = (name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];
    const where = `${file}: <RuleQuote ${attrs.trim()} />`;
    const rule = ruleById(attr('id') ?? '');
    assert.ok(rule, `${where}: no such rule`);
    const revision = REVISIONS.find((r) => r === attr('revision'));
    assert.ok(revision, `${where}: no such revision`);
    const clauses = rule.revisions[revision] ?? [];
    const transportName = attr('transport');
    if (transportName === undefined) {
      assert.equal(clauses.length, 1, `${where}: the rule has ${clauses.length} clauses in ${revision}`);
    } else {
      const transport = TRANSPORTS.find((t) => t === transportName);
      assert.ok(transport && clauseFor(rule, revision, transport), `${where}: no clause for ${transportName}`);
    }
  }
});

/** Every quote the catalog holds, with where it stands in the spec. */
const catalogQuotes = CATALOG.flatMap((rule) =>
  Object.values(rule.revisions).flatMap((clauses) => (clauses ?? []).flatMap((c) => [c, ...(c.also ?? [])])),
);

/** As a reader compares two wordings: markup out, whitespace collapsed, case ignored. */
const wording = (text: string): string => plainText(text).replace(/\s+/g, ' ').trim().toLowerCase();

const catalogWordings = catalogQuotes.map((q) => wording(q.quote));

/** The spec words a lesson quotes inside its prose, marked «…». */
function inlineQuotes(text: string): string[] {
  return [...text.matchAll(/«([^»]+)»/g)].map((m) => m[1] ?? '');
}

test('every «inline quote» in a lesson is worded exactly as a quote of the rule catalog', () => {
  const quoted = lessons.flatMap(({ file, text }) => inlineQuotes(text).map((q) => ({ file, q })));
  assert.ok(quoted.length >= 8, `only ${quoted.length} inline quotes found`);
  const misquoted = quoted.filter(({ q }) => !catalogWordings.some((w) => w.includes(wording(q)))).map(({ file, q }) => `${file}: «${q}»`);
  assert.deepEqual(misquoted, []);
});

test('the inline-quote check sees a misquote: a hyphen the spec has and the lesson dropped', () => {
  const [spec = '', lesson = ''] = inlineQuotes('«believed to still be in-progress», «believed to still be in progress»');
  assert.ok(catalogWordings.some((w) => w.includes(wording(spec))));
  assert.ok(!catalogWordings.some((w) => w.includes(wording(lesson))));
});

/** A hand-written blockquote's citation line: `— [label naming line N or lines A–B](url#LA-LB)`. */
interface Citation {
  file: string;
  label: string;
  url: string;
}

function citations(text: string): Citation[] {
  return [...text.matchAll(/^> — \[([^\]]+)\]\((\S+)\)\s*$/gm)].map((m) => ({ file: '', label: m[1] ?? '', url: m[2] ?? '' }));
}

const SPEC_BLOB = `https://github.com/${SPEC_REPO}/blob/${SPEC_COMMIT}/`;

test('every hand-written spec quote cites the pinned spec commit, its label names the lines the link opens, and the catalog does not already quote those lines', () => {
  const cited = lessons.flatMap(({ file, text }) => citations(text).map((c) => ({ ...c, file })));
  assert.equal(cited.length, lessons.reduce((n, { text }) => n + blockquotes(text).length, 0), 'every blockquote ends with a citation line');
  for (const { file, label, url } of cited) {
    const where = `${file}: ${label}`;
    assert.ok(url.startsWith(SPEC_BLOB), `${where}: cites ${url}, not the spec at ${SPEC_COMMIT}`);
    const link = /#L(\d+)(?:-L(\d+))?$/.exec(url);
    assert.ok(link, `${where}: the link names no lines`);
    const first = Number(link[1]);
    const last = Number(link[2] ?? link[1]);
    const named = /lines? (\d+)(?:–(\d+))?$/.exec(label);
    assert.deepEqual(named ? [Number(named[1]), Number(named[2] ?? named[1])] : null, [first, last], `${where}: the label and the link name different lines`);
    const path = url.slice(SPEC_BLOB.length).replace(/#.*$/, '');
    const overlap = catalogQuotes.find((q) => q.source.path === path && q.source.lines[0] <= last && first <= q.source.lines[1]);
    assert.equal(overlap, undefined, `${where}: the catalog quotes ${path}#L${overlap?.source.lines.join('-L') ?? ''}; use <RuleQuote>`);
  }
});
