/**
 * The rule catalog, the trace checker and the checks.json export.
 *
 * The fixture table (fixtures/rule-fixtures.ts) holds hand-built traces with the exact
 * findings some rules must give; coverage is derived from the catalog, so a judged rule
 * without a satisfying and a violating fixture fails here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REVISIONS, TRANSPORTS, type Revision } from '../../src/scenario/index.ts';
import { CATALOG, ruleById } from '../../src/rules/catalog.ts';
import {
  EXT_TASKS_COMMIT,
  EXT_TASKS_REPO,
  SPEC_COMMIT,
  SPEC_REPO,
  clauseFor,
  ruleTransports,
  severityOf,
  type Rule,
  type SpecQuote,
} from '../../src/rules/catalog/rule.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { check, type Finding } from '../../src/rules/checker.ts';
import { JUDGES } from '../../src/rules/judges/index.ts';
import { statusOf, toChecks, toChecksJson } from '../../src/report/checks-json.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { FALSE_FINDING_FIXTURES } from './fixtures/judging/false-findings.ts';
import { RACE_FIXTURES } from './fixtures/judging/races.ts';
import { FIXTURES, type Expected } from './fixtures/rule-fixtures.ts';
import { connected } from './fixtures/rules-new/prelude.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';
import { assertFixture } from './fixtures/check-fixture.ts';

/** The rule ids of the digest's matrix, §10.1 to §10.4 (rows with an id). */
const MATRIX_IDS = [
  // 10.1
  'CANCEL-NOTIFY-SHAPE',
  'CANCEL-WHO',
  'CANCEL-SERVER-LISTEN-ONLY',
  'CANCEL-REF-ISSUED',
  'CANCEL-REF-INPROGRESS',
  'CANCEL-NO-INITIALIZE',
  'CANCEL-TASK-USE-TASKS-CANCEL',
  'TASKX-NO-NOTIF-CANCEL',
  'CANCEL-RECV-STOP',
  'CANCEL-RECV-FREE',
  'CANCEL-NO-RESPONSE',
  'CANCEL-NO-FURTHER-MESSAGES',
  'CANCEL-RECV-MAY-IGNORE',
  'CANCEL-IGNORE-LATE-RESPONSE',
  'CANCEL-RACE-GRACEFUL',
  'CANCEL-INVALID-IGNORE',
  'CANCEL-LOG-REASON',
  'CANCEL-UI-INDICATE',
  'CANCEL-RESULT-UNUSED',
  'NOTIFICATION-NO-RESPONSE',
  'ID-UNIQUE',
  // 10.2
  'STDIO-FRAMING',
  'XPORT-STDIO-CANCEL-NOTIFY',
  'HTTP-NOTIFICATION-202',
  'XPORT-HTTP-DISCONNECT-NOT-CANCEL',
  'XPORT-HTTP-CANCEL-EXPLICIT',
  'XPORT-HTTP-CLOSE-IS-CANCEL',
  'XPORT-HTTP-NO-CANCEL-NOTIFICATION',
  'HTTP-RESPONSE-ON-POST-STREAM',
  'HTTP-RELATED-MESSAGES',
  'HTTP-NO-EARLY-CLOSE',
  'HTTP-CLOSE-AFTER-RESPONSE',
  'HTTP-SSE-POLLING',
  'HTTP-GET-STREAM',
  'HTTP-NO-BROADCAST',
  'HTTP-RESUME',
  'HTTP-REISSUE-NEW-ID',
  'HTTP-SESSION',
  'STDIO-UNEXPECTED-EXIT',
  'SERVER-NO-REQUESTS',
  // 10.3
  'PROGRESS-TOKEN-UNIQUE',
  'PROGRESS-MONOTONIC',
  'PROGRESS-ACTIVE-ONLY',
  'PROGRESS-STOP-AFTER-COMPLETION',
  'PROGRESS-TASK-LIFETIME',
  'TIMEOUT-ESTABLISH',
  'TIMEOUT-CANCEL',
  'TIMEOUT-PER-REQUEST-CONFIG',
  'TIMEOUT-RESET-ON-PROGRESS',
  'TIMEOUT-MAX',
  // 10.4
  'TASK-CANCEL-TERMINAL-REJECT',
  'TASK-CANCEL-TRANSITION',
  'TASK-CANCEL-STICKY',
  'TASK-CANCEL-DELETE',
  'TASKX-CANCEL-CLIENT-FORGET',
  'TASK-SSE-DISCONNECT-OK',
  'TASKX-ROUTING-HEADER',
  'BATCH-SUPPORT',
  'BATCH-HTTP',
];

/** Every quote of a rule (each clause and what it cites `also`), with its revision. */
function quotesOf(rule: Rule): { revision: Revision; quote: SpecQuote }[] {
  const out: { revision: Revision; quote: SpecQuote }[] = [];
  for (const revision of REVISIONS) {
    for (const clause of rule.revisions[revision] ?? []) {
      out.push({ revision, quote: clause });
      for (const also of clause.also ?? []) out.push({ revision, quote: also });
    }
  }
  return out;
}

describe('the catalog', () => {
  test('has one entry per id, and every rule of the digest matrix §10.1–10.4', () => {
    const ids = CATALOG.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    for (const id of MATRIX_IDS) assert.ok(ruleById(id), `${id} is in the catalog`);
    for (const id of ids) assert.match(id, /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/, `${id} is a stable upper-case id`);
  });

  test('every rule has a name, a description, transports and at least one revision', () => {
    for (const rule of CATALOG) {
      assert.ok(rule.name.trim().length > 0, `${rule.id} has a name`);
      assert.ok(rule.description.trim().length > 0, `${rule.id} has a description`);
      assert.ok(ruleTransports(rule).length > 0, `${rule.id} applies to some transport`);
      for (const t of ruleTransports(rule)) assert.ok(TRANSPORTS.includes(t), `${rule.id}: ${t} is a transport`);
      assert.ok(Object.keys(rule.revisions).length > 0, `${rule.id} exists in some revision`);
      for (const r of Object.keys(rule.revisions)) assert.ok((REVISIONS as readonly string[]).includes(r), `${rule.id}: ${r} is a revision`);
    }
  });

  test('every quote is non-empty and carries its keyword; every link is well formed and at the pinned commit', () => {
    for (const rule of CATALOG) {
      for (const { revision, quote } of quotesOf(rule)) {
        const where = `${rule.id} ${revision} ${quote.source.path}`;
        assert.ok(quote.quote.trim().length > 0 && quote.quote === quote.quote.trim(), `${where}: quote is non-empty and trimmed`);
        const [a, b] = quote.source.lines;
        assert.ok(Number.isInteger(a) && Number.isInteger(b) && a >= 1 && b >= a, `${where}: line range ${a}-${b}`);
        const commit = quote.source.repo === SPEC_REPO ? SPEC_COMMIT : EXT_TASKS_COMMIT;
        assert.ok(quote.source.repo === SPEC_REPO || quote.source.repo === EXT_TASKS_REPO, `${where}: known repository`);
        assert.equal(quote.source.commit, commit, `${where}: pinned commit`);
        assert.match(commit, /^[0-9a-f]{40}$/);
        assert.equal(quote.source.url, `https://github.com/${quote.source.repo}/blob/${commit}/${quote.source.path}#L${a}-L${b}`, `${where}: link`);
        assert.doesNotThrow(() => new URL(quote.source.url), `${where}: link parses`);
        if (quote.source.repo === SPEC_REPO) {
          // The quote is from the revision it is filed under (docs/specification/<rev>/… or schema/<rev>/…).
          const rev = /^(?:docs\/specification|schema)\/([0-9-]+)\//.exec(quote.source.path)?.[1];
          assert.equal(rev, revision, `${where}: the path is that revision's`);
        } else {
          assert.equal(revision, '2026-07-28', `${where}: the tasks extension is cited for 2026-07-28`);
        }
      }
      for (const revision of REVISIONS) {
        for (const clause of rule.revisions[revision] ?? []) {
          if (clause.keyword !== 'info') assert.ok(clause.quote.includes(clause.keyword), `${rule.id} ${revision}: the quote says ${clause.keyword}`);
          for (const t of clause.transports ?? []) assert.ok(ruleTransports(rule).includes(t), `${rule.id} ${revision}: clause transport ${t} is the rule's`);
        }
      }
    }
  });

  test('rules not judged say why; every judge belongs to a judged catalog rule', () => {
    // The other way round the compiler checks: a judged rule's id is typed as a key of JUDGES.
    for (const rule of CATALOG) {
      if (!rule.judged) assert.ok(rule.reason.trim().length > 10 && rule.reason.trim().endsWith('.'), `${rule.id} gives a one-sentence reason`);
    }
    for (const id of Object.keys(JUDGES)) assert.equal(ruleById(id)?.judged, true, `the judge for ${id} belongs to a judged catalog rule`);
  });

  test('per-transport wording: CANCEL-NO-FURTHER-MESSAGES quotes the stdio page on stdio and the HTTP page on HTTP', () => {
    const rule = ruleById('CANCEL-NO-FURTHER-MESSAGES') as Rule;
    assert.match(clauseFor(rule, '2026-07-28', 'stdio')?.source.path ?? '', /transports\/stdio\.mdx$/);
    assert.match(clauseFor(rule, '2026-07-28', 'streamable-http')?.source.path ?? '', /transports\/streamable-http\.mdx$/);
    assert.equal(clauseFor(rule, '2026-07-28', 'http-sse'), undefined);
    assert.equal(clauseFor(rule, '2025-11-25', 'stdio'), undefined);
  });

  test('the quote behind the seed 000 finding', () => {
    const clause = clauseFor(ruleById('CANCEL-NO-RESPONSE') as Rule, '2025-11-25', 'stdio');
    assert.equal(clause?.keyword, 'SHOULD');
    assert.equal(severityOf(clause?.keyword ?? 'info'), 'warning');
    assert.ok(clause?.quote.endsWith('Not send a response for the cancelled request'));
    assert.equal(
      clause?.source.url,
      'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/b0f60ba5409db7a6582440a7b473cc0398890f15/docs/specification/2025-11-25/basic/utilities/cancellation.mdx#L37-L40',
    );
  });
});

describe('fixture traces', () => {
  for (const fixture of FIXTURES) {
    test(`${fixture.revision} ${fixture.transport}: ${fixture.name}`, () => void assertFixture(fixture));
  }

  test('every judged rule has a fixture that satisfies it and one that violates it', () => {
    const seen = new Map<string, Set<string>>();
    // The judging fixtures have their own tests (rules-race-graceful, rules-false-findings).
    for (const fixture of [...FIXTURES, ...RACE_FIXTURES, ...FALSE_FINDING_FIXTURES]) {
      for (const [rule, expected] of Object.entries(fixture.build().expect)) {
        const verdicts = seen.get(rule) ?? new Set<string>();
        for (const e of expected as Expected[]) verdicts.add(e.verdict);
        seen.set(rule, verdicts);
      }
    }
    const missing: string[] = [];
    for (const rule of CATALOG) {
      if (!rule.judged) continue;
      for (const verdict of ['satisfied', 'violated']) if (!seen.get(rule.id)?.has(verdict)) missing.push(`${rule.id}: ${verdict}`);
    }
    assert.deepEqual(missing, []);
  });
});

describe('ambiguities are never errors', () => {
  const ambiguities = new Set(FIXTURES.flatMap((f) => (f.ambiguity ? [f.ambiguity] : [])));
  test('fixtures cover U-1, U-3, U-4, U-5, U-6, U-7, U-9, U-12 and the races R1, R2, R9, R11', () => {
    for (const id of ['U-1', 'U-3', 'U-4', 'U-5', 'U-6', 'U-7', 'U-9', 'U-12', 'R1', 'R2', 'R9', 'R11']) assert.ok(ambiguities.has(id), id);
  });

  test('each ambiguity or race is reported, as info', () => {
    for (const fixture of FIXTURES.filter((f) => f.ambiguity)) {
      const infos = Object.values(fixture.build().expect)
        .flat()
        .filter((e) => e.severity === 'info' && e.witnesses.length > 0);
      assert.ok(infos.length > 0, `${fixture.name}: ${fixture.ambiguity} shows as an info finding`);
    }
  });

  test('a duplicate cancel, a cancel without requestId and an HTTP cancel notification stay below error on every revision', () => {
    for (const revision of REVISIONS) {
      for (const transport of ['stdio', 'streamable-http'] as const) {
        const b = connected(revision === '2026-07-28' ? undefined : revision);
        const http = transport === 'streamable-http';
        if (http) b.deliver(b.post(10, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_count', arguments: {} } }));
        else toolCall(b, 'A', 1);
        const cancels = [{ requestId: 1 }, { requestId: 1 }, { reason: 'no id' }];
        cancels.forEach((params, i) => {
          if (http) {
            const post = b.post(20 + i, { jsonrpc: '2.0', method: 'notifications/cancelled', params });
            b.deliver(post);
            b.head(20 + i, 202);
            b.end(20 + i);
          } else b.deliver(b.cancel('c2s', 1, { params }));
        });
        const findings = checkRun({ revision, transport }, b.trace);
        const errors = findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
        assert.deepEqual(errors, [], `${revision} ${transport}`);
      }
    }
  });
});

describe('the checker', () => {
  test('on an empty trace every rule gives a finding and none is violated, on every revision and transport', () => {
    for (const revision of REVISIONS) {
      for (const transport of TRANSPORTS) {
        const findings = checkRun({ revision, transport }, []);
        for (const rule of CATALOG) {
          const mine = findings.filter((f) => f.rule === rule.id);
          assert.equal(mine.length, 1, `${rule.id} ${revision} ${transport}`);
          const f = mine[0] as Finding;
          const clause = clauseFor(rule, revision, transport);
          if (!clause) assert.deepEqual([f.verdict, f.severity], ['not-applicable', 'info'], `${rule.id} ${revision} ${transport}`);
          else if (!rule.judged) assert.deepEqual([f.verdict, f.why], ['cannot-tell', `Not judged: ${rule.reason}`]);
          else {
            assert.notEqual(f.verdict, 'violated');
            assert.equal(f.severity, severityOf(clause.keyword), `${rule.id}: severity from the keyword`);
          }
        }
      }
    }
  });

  test('is pure: same findings twice, the trace untouched', () => {
    const fixture = FIXTURES[0];
    assert.ok(fixture);
    const { trace } = fixture.build();
    const before = JSON.stringify(trace);
    const frozen = trace.map((e) => Object.freeze(structuredClone(e))) as TraceEvent[];
    Object.freeze(frozen);
    const a = checkRun(fixture, frozen);
    const b = checkRun(fixture, frozen);
    assert.deepEqual(a, b);
    assert.equal(JSON.stringify(trace), before);
  });

  test('runs on every prefix of a growing trace', () => {
    for (const fixture of FIXTURES) {
      const { trace } = fixture.build();
      for (let n = 0; n <= trace.length; n++) {
        const findings = checkRun(fixture, trace.slice(0, n));
        assert.ok(findings.length >= CATALOG.length, `${fixture.name}, first ${n} events`);
        for (const f of findings) for (const w of f.witnesses) assert.ok(w < n, `${f.rule} names only events already in the trace`);
      }
    }
  });

  test('a rule list of one judges only that rule', () => {
    const rule = ruleById('CANCEL-NO-RESPONSE') as Rule;
    const fixture = FIXTURES[0];
    assert.ok(fixture);
    const findings = check([rule], fixture.revision, fixture.transport, fixture.build().trace);
    assert.deepEqual(
      findings.map((f) => f.rule),
      ['CANCEL-NO-RESPONSE'],
    );
  });

  test('judges a trace of 500 cancelled calls whole (how long it takes is a figure of npm run bench)', () => {
    const b = traceBuilder();
    handshake(b);
    for (let i = 1; i <= 500; i++) {
      b.at(b.now + 1);
      toolCall(b, `C${i}`, i, { token: i });
      b.deliver(b.progress('s2c', i, 1));
      b.stop(`C${i}`);
      b.state(`C${i}`, i, 'RUNNING', 'CANCEL_REQUESTED', 'Stop pressed');
      const cancel = b.cancel('c2s', i);
      b.deliver(cancel);
      b.deliver(b.result('s2c', i, { content: [] }));
    }
    assert.ok(b.trace.length > 5000, `${b.trace.length} events`);
    const findings = checkRun({ revision: '2025-11-25', transport: 'stdio' }, b.trace);
    assert.ok(findings.length > 500);
  });
});

describe('the checks.json export', () => {
  test('status follows verdict and severity', () => {
    const f = (verdict: Finding['verdict'], severity: Finding['severity']): Finding => ({ rule: 'X', verdict, severity, witnesses: [], why: '.' });
    assert.equal(statusOf(f('violated', 'error')), 'FAILURE');
    assert.equal(statusOf(f('violated', 'warning')), 'WARNING');
    assert.equal(statusOf(f('violated', 'info')), 'INFO');
    assert.equal(statusOf(f('satisfied', 'error')), 'SUCCESS');
    assert.equal(statusOf(f('satisfied', 'warning')), 'SUCCESS');
    assert.equal(statusOf(f('satisfied', 'info')), 'INFO');
    assert.equal(statusOf(f('not-applicable', 'info')), 'SKIPPED');
    assert.equal(statusOf(f('cannot-tell', 'error')), 'SKIPPED');
  });

  test('seed 000 comes out as a CANCEL-NO-RESPONSE WARNING with its quote and link', () => {
    const fixture = FIXTURES[0];
    assert.ok(fixture);
    const findings = checkRun(fixture, fixture.build().trace);
    const checks = toChecks(CATALOG, fixture.revision, fixture.transport, findings);
    const noResponse = checks.find((c) => c.id === 'CANCEL-NO-RESPONSE');
    assert.ok(noResponse);
    assert.equal(noResponse.status, 'WARNING');
    assert.equal(noResponse.name, 'No response after a cancel');
    assert.ok(noResponse.errorMessage?.includes('after the cancel'));
    assert.match(noResponse.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'the conformance suite requires a timestamp: now, unless one is given');
    assert.deepEqual(noResponse.specReferences, [
      {
        id: 'MCP 2025-11-25 docs/specification/2025-11-25/basic/utilities/cancellation.mdx:37-40',
        url: 'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/b0f60ba5409db7a6582440a7b473cc0398890f15/docs/specification/2025-11-25/basic/utilities/cancellation.mdx#L37-L40',
      },
    ]);
    assert.equal(noResponse.details.keyword, 'SHOULD');
    assert.match(String(noResponse.details.quote), /Not send a response for the cancelled request$/);
    assert.deepEqual(noResponse.details.witnesses, findings.find((f) => f.rule === 'CANCEL-NO-RESPONSE')?.witnesses);
  });

  test('ids are unique, output is deterministic for a given timestamp', () => {
    const fixture = FIXTURES.find((f) => f.name.startsWith('python-sdk'));
    assert.ok(fixture);
    const findings = checkRun(fixture, fixture.build().trace);
    const checks = toChecks(CATALOG, fixture.revision, fixture.transport, findings);
    assert.equal(checks.length, findings.length);
    assert.equal(new Set(checks.map((c) => c.id)).size, checks.length);
    assert.deepEqual(
      checks.filter((c) => c.id.startsWith('CANCEL-NO-RESPONSE')).map((c) => [c.id, c.status]),
      [
        ['CANCEL-NO-RESPONSE#1', 'WARNING'],
        ['CANCEL-NO-RESPONSE#2', 'WARNING'],
      ],
    );
    const timestamp = '2026-01-01T00:00:00.000Z';
    const json = toChecksJson(CATALOG, fixture.revision, fixture.transport, findings, { timestamp });
    assert.equal(json, toChecksJson(CATALOG, fixture.revision, fixture.transport, findings, { timestamp }));
    const stamped = toChecks(CATALOG, fixture.revision, fixture.transport, findings, { timestamp });
    assert.ok(stamped.every((c) => c.timestamp === timestamp));
    for (const c of JSON.parse(json) as { status: string; specReferences: unknown[] }[]) {
      assert.ok(['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED', 'INFO'].includes(c.status));
      assert.ok(Array.isArray(c.specReferences));
    }
  });
});
