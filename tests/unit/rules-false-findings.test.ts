/**
 * Findings the checker used to get wrong (issue 13 §1), each pinned by a hand-built fixture
 * and, where the lab can produce it, by a real run: a refused notification POST whose body is
 * the error response the transport allows; a late response the client did not ignore (a strict
 * host's teardown, a call that settled on it); a forged cancel on 2026 HTTP blamed on the SDK;
 * a lost cancel credited with the abort a disconnect caused.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { clauseFor, ruleById, type Rule } from '../../src/rules/index.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import type { Revision } from '../../src/scenario/index.ts';
import { assertFixture } from './fixtures/check-fixture.ts';
import { FALSE_FINDING_FIXTURES } from './fixtures/judging/false-findings.ts';
import { call, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

describe('fixture traces', () => {
  for (const fixture of FALSE_FINDING_FIXTURES) test(`${fixture.revision} ${fixture.transport}: ${fixture.name}`, () => void assertFixture(fixture));
});

describe('a refused notification POST may carry an error response without id', () => {
  const MAY = 'The HTTP response body **MAY** comprise a JSON-RPC _error response_ that has no `id`.';
  const LINES: Partial<Record<Revision, readonly [number, number]>> = {
    '2025-03-26': [96, 102],
    '2025-06-18': [91, 96],
    '2025-11-25': [95, 100],
    '2026-07-28': [82, 87],
  };
  test('HTTP-NOTIFICATION-202 quotes the whole bullet, with its lines, on every revision that has it', () => {
    const rule = ruleById('HTTP-NOTIFICATION-202') as Rule;
    for (const [revision, lines] of Object.entries(LINES) as [Revision, readonly [number, number]][]) {
      const clause = clauseFor(rule, revision, 'streamable-http');
      assert.ok(clause, revision);
      assert.ok(clause.quote.endsWith(`(e.g., ${revision === '2026-07-28' ? '`400 Bad Request`' : '400 Bad Request'}). ${MAY}`), `${revision}: ${clause.quote}`);
      assert.deepEqual(clause.source.lines, lines, revision);
    }
  });
});

describe('real runs', () => {
  test('seed 000: the strict host does not ignore the late code-0 answer', async () => {
    const entry = libraryEntry('seed-000-strict-host-python-v1');
    assert.ok(entry);
    const late = checkRun(entry.scenario, await runHeadless(entry.scenario, sides)).filter((f) => f.rule === 'CANCEL-IGNORE-LATE-RESPONSE');
    assert.deepEqual(
      late.map((f) => [f.verdict, f.severity]),
      [['violated', 'warning']],
    );
    assert.match(late[0]?.why ?? '', /closed the connection and opened a new one/);
  });

  test('2026 HTTP: a forged notifications/cancelled makes no warning of the SDK taking its result (U-3)', async () => {
    const s = scenario([call(20, 'A', 'stubborn', { ms: 300 }), { at: 100, action: { type: 'inject-cancel', call: 'A' } }], {
      revision: '2026-07-28',
      transport: 'streamable-http',
      endAt: 1000,
    });
    const findings = checkRun(s, await runHeadless(s, sides));
    assert.deepEqual(
      findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info'),
      [],
    );
    // An open point, and the forged frame's, not the client's.
    const notification = findings.filter((f) => f.rule === 'XPORT-HTTP-NO-CANCEL-NOTIFICATION');
    assert.deepEqual(
      notification.map((f) => [f.verdict, f.severity]),
      [['violated', 'info']],
    );
    assert.match(notification[0]?.why ?? '', /^The user forged a notifications\/cancelled \(forged frame \d+\)/);
  });

  test('stateless 2025 HTTP: after the lost cancel, the disconnect is what aborts the handler', async () => {
    const s = scenario([call(100, 'A', 'stubborn', { ms: 300 }), stop(200, 'A'), { at: 250, action: { type: 'disconnect' } }], {
      transport: 'streamable-http',
      httpServer: 'stateless',
      endAt: 1000,
    });
    const trace = await runHeadless(s, sides);
    const [finding, ...rest] = checkRun(s, trace).filter((f) => f.rule === 'XPORT-HTTP-DISCONNECT-NOT-CANCEL');
    assert.equal(rest.length, 0);
    assert.deepEqual([finding?.verdict, finding?.severity], ['violated', 'warning']);
    const aborted = trace[finding?.witnesses.at(-1) ?? -1];
    assert.ok(aborted?.kind === 'handler' && aborted.note.type === 'handler-cancel-seen' && aborted.note.reason === 'SdkError: Connection closed', JSON.stringify(aborted));
    assert.match(finding?.why ?? '', /earlier cancel \(frame \d+\) had reached the server without aborting it/);
  });
  test('a cancel that overtakes its request on the wire is for a request the server does not know yet: it may ignore it, and the request runs with no rule broken', async () => {
    // The POST of tools/call is held 100 ms on the wire, so the cancel's own POST, sent at 40 ms, arrives first
    // (separate POSTs may overtake each other; the explorer's latency ranges make this too).
    const s = scenario([call(20, 'A', 'slow_count', { steps: 3, stepMs: 100 }), stop(40, 'A')], {
      transport: 'streamable-http',
      faults: [{ dir: 'c2s', action: 'delay', match: 'tools/call', ms: 100 }],
    });
    const findings = checkRun(s, await runHeadless(s, sides));
    const violated = findings.filter((f) => f.verdict === 'violated').map((f) => f.rule);
    assert.deepEqual(violated, []);
    const ignored = findings.find((f) => f.rule === 'CANCEL-INVALID-IGNORE' && f.verdict === 'satisfied');
    assert.match(ignored?.why ?? '', /names request 1, which had not reached the server yet, and the server ignored it/);
  });
  test('a request refused with an HTTP error never had an SSE stream to close early: HTTP-NO-EARLY-CLOSE does not blame the server', async () => {
    // The initialize result takes 30 ms to come back, so call A at 20 ms is POSTed without the session id, and the server refuses it with 400.
    const s = scenario([call(20, 'A', 'quick')], { revision: '2025-03-26', transport: 'streamable-http', latency: { c2s: 5, s2c: 30 } });
    const trace = await runHeadless(s, sides);
    const refused = trace.find((e) => e.kind === 'frame' && e.http?.part === 'response-head' && e.http.status === 400);
    assert.ok(refused, 'the POST of tools/call is refused with 400');
    const early = checkRun(s, trace).filter((f) => f.rule === 'HTTP-NO-EARLY-CLOSE' && f.verdict === 'violated');
    assert.deepEqual(early, []);
  });
});
