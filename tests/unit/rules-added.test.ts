/**
 * The rules added to the catalog (catalog/ids.ts) and the rules the checker now judges that it
 * once could not: each fixture trace (fixtures/rules-new/) must give exactly the findings it
 * lists (rules.test.ts holds every judged rule to a fixture that satisfies it and one that violates it).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleById } from '../../src/rules/catalog.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { ADDED_FIXTURES } from './fixtures/rules-new/index.ts';

/** The rules this file covers: added by catalog/ids.ts, or judged since the catalog first said why not. */
const ADDED = [
  'RESPONSE-SAME-ID',
  'NOTIFICATION-NO-ID',
  'CLIENT-NO-RESPONSES',
  'CANCEL-RECV-STOP',
  'CANCEL-INVALID-IGNORE',
  'HTTP-RESPONSE-ON-POST-STREAM',
  'HTTP-RESPONSE-CONTENT-TYPE',
  'HTTP-RELATED-MESSAGES',
  'BATCH-HTTP',
  'TIMEOUT-MAX',
  'TASK-CREATE-RESULT',
  'TASK-RESULT-BLOCKS',
];

// Each added fixture's findings are checked with the rest of the table (rule-fixtures.ts includes them) in rules.test.ts.
describe('added fixture traces', () => {
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
