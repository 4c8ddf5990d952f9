/**
 * The report outputs (src/report/): the bug report's Markdown and the checks.json export, on
 * real runs of library scenarios, and the rule reference's links to the spec's open points. The findings read in the same words as the
 * runner and the playground (src/views/findings.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { checkRun } from '../../src/rules/index.ts';
import { bugReport } from '../../src/report/bug-report.ts';
import { runChecksJson } from '../../src/report/checks-json.ts';
import { quoteHtml } from '../../src/report/rule-reference.ts';
import { OPEN_POINTS } from '../../src/report/open-points.ts';
import { CATALOG } from '../../src/rules/catalog.ts';
import { readFile } from 'node:fs/promises';
import { libraryEntry } from '../../src/scenario/library.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { traceHash } from '../../src/trace/hash.ts';
import type { TraceEvent } from '../../src/trace/index.ts';

const sides = createNodeSides();
after(() => sides.close());
const runs = new Map<string, { scenario: Scenario; trace: TraceEvent[] }>();
before(async () => {
  for (const id of ['seed-000-strict-host-python-v1', 'stop-after-commit-is-not-rollback', 'race-r1-cancel-after-response']) {
    const entry = libraryEntry(id);
    assert.ok(entry, id);
    runs.set(id, { scenario: entry.scenario, trace: await runHeadless(entry.scenario, sides) });
  }
});

async function report(id: string): Promise<string> {
  const r = runs.get(id);
  assert.ok(r, id);
  return bugReport({ ...r, findings: checkRun(r.scenario, r.trace), link: 'http://localhost:4321/playground/#v1.x', traceHash: await traceHash(r.trace) });
}

describe('the bug report', () => {
  test('the setting, the counts, each notable finding with its label, and its note in the diagram', async () => {
    const md = await report('seed-000-strict-host-python-v1');
    assert.ok(md.includes('- Setting: 2025-11-25 · stdio · server py-v1 (emulated) · client strict-host (emulated)\n'));
    assert.match(md, /\n1 error \(MUST broken\) · 2 warnings \(SHOULD not followed\) · 0 allowed races and open points \(info\) · \d+ rules satisfied · /);
    assert.match(md, /\n\| error \| CANCEL-RACE-GRACEFUL — [^|]+ \| MUST broken: The client did not handle a cancellation race gracefully/);
    assert.match(md, /\n\| warning \| CANCEL-NO-RESPONSE — [^|]+ \| SHOULD not followed: The server wrote a response to request 1 /);
    assert.ok(md.includes('  Note over Client,Server: ⚠ warning#58; CANCEL-NO-RESPONSE\n'), 'the finding is a note in the sequence diagram');
  });

  test('an allowed race is listed as one, not as a violation', async () => {
    const md = await report('race-r1-cancel-after-response');
    assert.match(md, /\n\| info \| CANCEL-NO-RESPONSE — [^|]+ \| allowed race: The response to request 1 /);
  });

  test('nothing notable: one sentence instead of the table', async () => {
    const md = await report('stop-after-commit-is-not-rollback');
    assert.ok(md.includes('\nNo rule was violated, and no race the spec allows was seen.\n'));
    assert.ok(!md.includes('| severity | rule | why |'));
  });
});

describe('the checks.json of a run', () => {
  test('one check per finding, the broken SHOULD a WARNING with its quote and witnesses', () => {
    const r = runs.get('seed-000-strict-host-python-v1');
    assert.ok(r);
    const findings = checkRun(r.scenario, r.trace);
    const checks = JSON.parse(runChecksJson(r.scenario, findings, { timestamp: '2026-01-01T00:00:00Z' })) as { id: string; status: string; timestamp: string; details: { witnesses: number[]; keyword?: string } }[];
    assert.equal(checks.length, findings.length);
    const warning = checks.filter((c) => c.status === 'WARNING');
    assert.deepEqual(
      warning.map((c) => [c.id, c.details.keyword, c.details.witnesses]),
      ['CANCEL-NO-RESPONSE', 'CANCEL-IGNORE-LATE-RESPONSE'].map((rule) => [rule, 'SHOULD', findings.find((f) => f.rule === rule && f.verdict === 'violated')?.witnesses]),
    );
    assert.ok(checks.every((c) => c.timestamp === '2026-01-01T00:00:00Z'));
  });
});

describe('open points of the spec, cited by the rule reference', () => {
  test('a cited U-n links to its section; the rest of the note stays escaped text', () => {
    const html = quoteHtml('R3 / U-9: a second cancel for <script>x</script> is info; U-99 and `U-3` are not citations.');
    assert.ok(html.includes('<a href="/reference/open-points/#u-9">U-9</a>'), html);
    assert.ok(html.includes('&lt;script&gt;x&lt;/script&gt;'));
    assert.ok(!html.includes('#u-99') && !html.includes('#u-3'), 'an unknown id and code are not linked');
  });

  test('every open point a rule note cites is on the open-points page, and the page has a section for each', async () => {
    const cited = new Set(CATALOG.flatMap((rule) => (rule.notes ?? []).flatMap((n) => [...n.matchAll(/\bU-\d+\b/g)].map((m) => m[0]))));
    assert.ok(cited.size > 0);
    for (const id of cited) assert.ok(OPEN_POINTS.includes(id), `${id} is cited but has no section`);
    const page = await readFile(new URL('../../content/docs/reference/open-points.mdx', import.meta.url), 'utf8');
    for (const id of OPEN_POINTS) assert.match(page, new RegExp(`<h2 id="${id.toLowerCase()}">${id}: `), `${id} has its section`);
  });
});

describe('the rule reference’s HTML', () => {
  test('every description, note and quote of the catalog renders only the reference’s own tags', () => {
    const texts = CATALOG.flatMap((rule) => [
      rule.description,
      ...(rule.notes ?? []),
      ...Object.values(rule.revisions).flatMap((clauses) => (clauses ?? []).flatMap((c) => [c.quote, ...(c.also ?? []).map((a) => a.quote)])),
    ]);
    const allowed = /^<\/?(span|ul|li|code|strong|em)( class="lead")?>$|^<a href="\/reference\/open-points\/#u-\d+">$|^<\/a>$/;
    for (const text of texts) {
      for (const tag of quoteHtml(text).match(/<[^>]*>/g) ?? []) assert.match(tag, allowed, `${tag} in the HTML of: ${text.slice(0, 80)}`);
    }
    const hostile = quoteHtml('A `<code>` span, <img src=x onerror=alert(1)>, "quotes" & \'apostrophes\' and **bold <b>**.');
    assert.ok(!hostile.includes('<img') && !hostile.includes('<b>'), hostile);
    assert.ok(hostile.includes('<code>&lt;code&gt;</code>') && hostile.includes('&#39;apostrophes&#39;'), hostile);
  });

  test('no quote of the catalog shows Markdown link syntax: a link whose text is code shows as that code', () => {
    // The spec's "include the [`Last-Event-ID`](…) header" read "[Last-Event-ID](https://…)" on the page.
    assert.equal(quoteHtml('include the [`Last-Event-ID`](https://example.test/#id) header'), '<span class="lead">include the <code>Last-Event-ID</code> header</span>');
    for (const rule of CATALOG) {
      for (const clauses of Object.values(rule.revisions)) {
        for (const c of clauses ?? []) assert.doesNotMatch(quoteHtml(c.quote).replace(/<[^>]*>/g, ''), /\]\(|\]\[/, `${rule.id}: ${c.quote.slice(0, 80)}`);
      }
    }
  });
});
