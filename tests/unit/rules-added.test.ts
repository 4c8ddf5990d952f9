/**
 * The rules added to the catalog (catalog/ids.ts) and the rules the checker now judges that it
 * once could not: each fixture trace (fixtures/rules-new/) must give exactly the findings it
 * lists, and every such rule needs a fixture that satisfies it and one that violates it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, ruleById } from '../../src/rules/catalog.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import type { Finding } from '../../src/rules/checker.ts';
import { FIXTURES } from './fixtures/rule-fixtures.ts';
import { ADDED_FIXTURES } from './fixtures/rules-new/index.ts';

/** The rules this file covers: added by catalog/ids.ts, or judged since the catalog first said why not. */
const ADDED = [
  'RESPONSE-SAME-ID',
  'NOTIFICATION-NO-ID',
  'CLIENT-NO-RESPONSES',
  'CANCEL-RECV-STOP',
  'CANCEL-INVALID-IGNORE',
  'HTTP-RESPONSE-ON-POST-STREAM',
  'HTTP-RELATED-MESSAGES',
  'BATCH-HTTP',
  'TIMEOUT-MAX',
  'TASK-CREATE-RESULT',
  'TASK-RESULT-BLOCKS',
];

function comparable(list: readonly Pick<Finding, 'verdict' | 'severity' | 'witnesses'>[]): string[] {
  return list.map((f) => JSON.stringify({ verdict: f.verdict, severity: f.severity, witnesses: f.witnesses })).sort();
}

describe('added fixture traces', () => {
  for (const fixture of ADDED_FIXTURES) {
    test(`${fixture.revision} ${fixture.transport}: ${fixture.name}`, () => {
      const { trace, expect } = fixture.build();
      const findings = checkRun(fixture, trace);
      for (const [rule, expected] of Object.entries(expect)) {
        assert.ok(ruleById(rule), `${rule} is a catalog rule`);
        const actual = findings.filter((f) => f.rule === rule);
        assert.deepEqual(comparable(actual), comparable(expected), `${rule}: ${actual.map((f) => f.why).join(' / ')}`);
      }
      const seqs = new Set(trace.map((e) => e.seq));
      for (const f of findings) {
        assert.ok(f.why.length > 0 && /[.)]$/.test(f.why), `${f.rule}: one sentence: ${f.why}`);
        for (const w of f.witnesses) assert.ok(seqs.has(w), `${f.rule}: witness ${w} is in the trace`);
      }
    });
  }

  test('the checker runs on every prefix of each added fixture and names only events already there', () => {
    for (const fixture of ADDED_FIXTURES) {
      const { trace } = fixture.build();
      for (let n = 0; n <= trace.length; n++) {
        for (const f of checkRun(fixture, trace.slice(0, n))) for (const w of f.witnesses) assert.ok(w < n, `${fixture.name}, first ${n} events: ${f.rule}`);
      }
    }
  });

  test('the added rules are judged, and each has a fixture that satisfies it and one that violates it', () => {
    const seen = new Map<string, Set<string>>();
    for (const fixture of [...FIXTURES, ...ADDED_FIXTURES]) {
      for (const [rule, expected] of Object.entries(fixture.build().expect)) {
        const verdicts = seen.get(rule) ?? new Set<string>();
        for (const e of expected) verdicts.add(e.verdict);
        seen.set(rule, verdicts);
      }
    }
    for (const id of ADDED) assert.equal(ruleById(id)?.judged, true, `${id} is judged`);
    const missing = CATALOG.filter((r) => r.judged).flatMap((r) => ['satisfied', 'violated'].filter((x) => !seen.get(r.id)?.has(x)).map((x) => `${r.id}: ${x}`));
    assert.deepEqual(missing, []);
  });
});
