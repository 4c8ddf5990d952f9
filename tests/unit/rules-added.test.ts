/**
 * The rules added to the catalog (catalog/ids.ts) and the rules the checker now judges that it
 * once could not: each fixture trace (fixtures/rules-new/) must give exactly the findings it
 * lists (rules.test.ts holds every judged rule to a fixture that satisfies it and one that violates it).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleById } from '../../src/rules/catalog.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import type { Finding } from '../../src/rules/checker.ts';
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

  // That each judged rule has a fixture that satisfies it and one that violates it is checked
  // for the whole catalog, these fixtures included, in rules.test.ts.
  test('the added rules are judged', () => {
    for (const id of ADDED) assert.equal(ruleById(id)?.judged, true, `${id} is judged`);
  });
});
