/**
 * CANCEL-RACE-GRACEFUL: «Both parties MUST handle these race conditions gracefully», judged by
 * its opposite — a party the race takes down in the step it reaches it. The two seeds break it
 * (seed 000: the strict host tears the connection down on the late answer; seed 004: the
 * python-sdk 1.x server dies of the handler's late return), and their runs exit 1 saying who.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { clauseFor, ruleById, type Rule } from '../../src/rules/index.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import { ruleView } from '../../src/report/rule-reference.ts';
import { REVISIONS, TRANSPORTS, type Revision } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { assertFixture } from './fixtures/check-fixture.ts';
import { RACE_FIXTURES } from './fixtures/judging/races.ts';

const sides = createNodeSides();
after(() => sides.close());

const BIN = fileURLToPath(new URL('../../bin/cancel-lab.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the rule', () => {
  const LINES: Record<Revision, readonly [number, number]> = {
    '2024-11-05': [48, 51],
    '2025-03-26': [47, 50],
    '2025-06-18': [49, 52],
    '2025-11-25': [50, 53],
    '2026-07-28': [86, 89],
  };
  test('is judged, a MUST on every revision and transport, quoted from each revision’s cancellation page', () => {
    const rule = ruleById('CANCEL-RACE-GRACEFUL') as Rule;
    assert.equal(rule.judged, true);
    for (const revision of REVISIONS) {
      for (const transport of TRANSPORTS) {
        const clause = clauseFor(rule, revision, transport);
        assert.equal(clause?.keyword, 'MUST', `${revision} ${transport}`);
        assert.ok(clause.quote.endsWith('Both parties **MUST** handle these race conditions gracefully:'));
        assert.match(clause.source.path, revision === '2026-07-28' ? /2026-07-28\/basic\/patterns\/cancellation\.mdx$/ : new RegExp(`${revision}/basic/utilities/cancellation\\.mdx$`));
        assert.deepEqual(clause.source.lines, LINES[revision], revision);
      }
    }
  });
  test('the rule reference shows it judged, with a library scenario that breaks it', () => {
    const view = ruleView(ruleById('CANCEL-RACE-GRACEFUL') as Rule);
    assert.equal(view.notJudged, undefined);
    assert.equal(view.violating?.id, 'seed-000-strict-host-python-v1');
  });
});

describe('fixture traces', () => {
  for (const fixture of RACE_FIXTURES) test(`${fixture.revision} ${fixture.transport}: ${fixture.name}`, () => void assertFixture(fixture));
});

/** What a witness is, in a few words: a frame's message or end of stream, a delivery, a note, a state. */
function what(trace: readonly TraceEvent[], seq: number): string {
  const e = trace[seq];
  if (!e) return `#${seq}?`;
  switch (e.kind) {
    case 'frame':
      return `${e.dir} ${e.msg ? JSON.stringify(e.msg.error ?? e.msg.method ?? e.msg.result ?? null) : e.eof ? 'EOF' : e.http?.part}`;
    case 'delivery':
      return `delivery ${e.dir}`;
    case 'handler':
      return e.note.type === 'call-settled' ? `${e.note.call} ${e.note.outcome} ${e.note.message ?? ''}` : e.note.type;
    case 'client-state':
      return `${e.call} ${e.to}`;
    case 'server-state':
      return `request ${e.requestId} ${e.to}`;
    default:
      return e.kind;
  }
}

describe('the seeds', () => {
  test('seed 000: the client broke it: the late code-0 answer, then a new connection and call B failed', async () => {
    const entry = libraryEntry('seed-000-strict-host-python-v1');
    assert.ok(entry);
    const trace = await runHeadless(entry.scenario, sides);
    const broken = checkRun(entry.scenario, trace).filter((f) => f.rule === 'CANCEL-RACE-GRACEFUL' && f.verdict === 'violated');
    assert.equal(broken.length, 1);
    const [f] = broken;
    assert.equal(f?.severity, 'error');
    assert.match(f?.why ?? '', /^The client did not handle a cancellation race gracefully/);
    assert.deepEqual(
      f?.witnesses.map((w) => what(trace, w)),
      [
        'c2s "notifications/cancelled"',
        's2c {"code":0,"message":"Request cancelled"}',
        'delivery s2c',
        'c2s "initialize"',
        'B error Connection closed',
        'B FAILED',
      ],
    );
  });

  test('seed 004: the server broke it: the handler returned after the code-0 answer, the process died, call B failed', async () => {
    const entry = libraryEntry('seed-004-python-v1-swallowed-cancel-crash');
    assert.ok(entry);
    const trace = await runHeadless(entry.scenario, sides);
    const broken = checkRun(entry.scenario, trace).filter((f) => f.rule === 'CANCEL-RACE-GRACEFUL' && f.verdict === 'violated');
    assert.equal(broken.length, 1);
    const [f] = broken;
    assert.match(f?.why ?? '', /^The server did not handle a cancellation race gracefully.*the server process died/);
    assert.deepEqual(
      f?.witnesses.map((w) => what(trace, w)),
      [
        'c2s "notifications/cancelled"',
        'delivery c2s',
        's2c {"code":0,"message":"Request cancelled"}',
        'request 1 returned',
        'request 1 crashed',
        'request 2 crashed',
        'delivery s2c',
        'B error Connection closed',
        'B FAILED',
      ],
    );
  });

  test('python-sdk 2.x survives the same swallowed cancel: satisfied', async () => {
    const entry = libraryEntry('seed-004-python-v2-survives-swallowed-cancel');
    assert.ok(entry);
    const findings = checkRun(entry.scenario, await runHeadless(entry.scenario, sides)).filter((f) => f.rule === 'CANCEL-RACE-GRACEFUL');
    assert.ok(findings.length > 0 && findings.every((f) => f.verdict === 'satisfied'), findings.map((f) => f.why).join(' / '));
  });

  for (const [file, party] of [
    ['seed-000-strict-host-python-v1', 'client'],
    ['seed-004-python-v1-swallowed-cancel-crash', 'server'],
  ] as const) {
    test(`cancel-lab run ${file}: exit 1, naming the rule and the ${party}`, async () => {
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        execFile(process.execPath, [BIN, 'run', `content/scenarios/${file}.json`], { cwd: ROOT, timeout: 60_000 }, (error, out) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out }),
        );
      });
      assert.equal(code, 1, stdout);
      assert.match(stdout, new RegExp(`CANCEL-RACE-GRACEFUL: The ${party} did not handle a cancellation race gracefully`));
    });
  }
});

describe('a teardown the user asks for is the user’s, not the party’s', () => {
  const own = createNodeSides();
  after(() => own.close());
  test('the user restarts the server in the very millisecond the code-0 answer reaches the client: the client broke nothing', async () => {
    const base = libraryEntry('python-v1-answers-cancel-with-code-0');
    assert.ok(base);
    const scenario = {
      ...base.scenario,
      steps: [
        { at: 20, action: { type: 'call' as const, call: 'A', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
        { at: 30, action: { type: 'call' as const, call: 'B', tool: 'stubborn', args: { ms: 500 } } },
        { at: 250, action: { type: 'stop' as const, call: 'A' } },
        // The answer arrives at 260 ms; the restart is the user's, at the same instant.
        { at: 260, action: { type: 'reconnect' as const } },
      ],
    };
    const findings = checkRun(scenario, await runHeadless(scenario, own));
    const of = (rule: string) => findings.filter((f) => f.rule === rule && f.verdict === 'violated');
    assert.deepEqual(of('CANCEL-RACE-GRACEFUL'), []);
    assert.deepEqual(of('CANCEL-IGNORE-LATE-RESPONSE'), []);
    // The server's code-0 answer is still its own SHOULD.
    assert.equal(of('CANCEL-NO-RESPONSE').length, 1);
  });
});
