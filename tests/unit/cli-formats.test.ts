/**
 * The formats a CI reads, as a CI reads them: `--format checks` in the conformance suite's
 * checks.json shape (its ConformanceCheck type,
 * https://github.com/modelcontextprotocol/conformance/blob/c321dd32035556e6769d3724a8ee97d87c3faaac/src/types.ts#L5-L33),
 * `--format junit` parsed by a JUnit reader (junit2json), `--format sarif` validated against
 * the OASIS SARIF 2.1.0 schema. Strings a run carries (forged ids, error messages) must come
 * out as the same text, whatever markup they hold; a trace far past the stack's argument limit
 * must format in every output.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft4 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { parse as parseJunit, type TestSuites } from 'junit2json';
import type { Log } from 'sarif';
import { createNodeSides } from '../../src/host/node.ts';
import { runScenarioFile, type Judged } from '../../src/cli/run.ts';
import { render } from '../../src/cli/output.ts';
import { bugReport, toJunitXml, toSarif, type RunOutcome } from '../../src/report/index.ts';
import { checkRun, ruleById } from '../../src/rules/index.ts';
import type { Finding } from '../../src/rules/index.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { call, scenario, stop } from './trace-helpers.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';

const sides = createNodeSides();
after(() => sides.close());

const NOW = new Date('2026-12-01T10:00:00.000Z');
let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cancel-lab-formats-'));
  await writeFile(join(dir, 'violates.json'), JSON.stringify(scenario([call(20, 'A', 'quick'), { at: 50, action: { type: 'inject-cancel', initialize: true } }], { endAt: 1000 })));
  await writeFile(join(dir, 'clean.json'), JSON.stringify(scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(240, 'A')], { endAt: 1000 })));
});
after(() => rm(dir, { recursive: true, force: true }));

const run = (input: string, format: 'checks' | 'junit' | 'sarif') => runScenarioFile(input, { format, sides, cwd: dir, now: () => NOW });

/** The fields a ConformanceCheck may have (src/types.ts:17-33 at the commit above). */
const CHECK_FIELDS = new Set(['id', 'name', 'description', 'status', 'timestamp', 'specReferences', 'source', 'details', 'metadata', 'errorMessage', 'logs']);
const STATUSES = new Set(['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED', 'INFO']);

function assertCheckShape(value: unknown): void {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value));
  const check = value as Record<string, unknown>;
  for (const key of Object.keys(check)) assert.ok(CHECK_FIELDS.has(key), `unexpected field ${key}`);
  for (const key of ['id', 'name', 'description', 'timestamp']) assert.equal(typeof check[key], 'string', key);
  assert.ok(STATUSES.has(String(check.status)), String(check.status));
  assert.ok(!Number.isNaN(Date.parse(String(check.timestamp))));
  if (check.specReferences !== undefined) {
    assert.ok(Array.isArray(check.specReferences));
    for (const ref of check.specReferences as Record<string, unknown>[]) {
      assert.equal(typeof ref.id, 'string');
      if (ref.url !== undefined) assert.equal(typeof ref.url, 'string');
    }
  }
  if (check.errorMessage !== undefined) assert.equal(typeof check.errorMessage, 'string');
  if (check.details !== undefined) assert.equal(typeof check.details, 'object');
}

describe('--format checks: the conformance suite’s checks.json', () => {
  test('one scenario: an array of checks in exactly its shape, each stamped with the time the run started', async () => {
    const result = await run('violates.json', 'checks');
    assert.equal(result.exitCode, 1);
    const checks = JSON.parse(result.stdout.join('\n')) as Record<string, unknown>[];
    assert.ok(Array.isArray(checks) && checks.length === result.findings.length);
    checks.forEach(assertCheckShape);
    assert.ok(checks.every((c) => c.timestamp === NOW.toISOString()));
    const broken = checks.find((c) => c.id === 'CANCEL-NO-INITIALIZE');
    assert.equal(broken?.status, 'FAILURE');
    assert.equal(typeof broken?.errorMessage, 'string');
  });

  test('bad input: the run’s own check, FAILURE, with the reason', async () => {
    const result = await run('nope.json', 'checks');
    assert.equal(result.exitCode, 2);
    const checks = JSON.parse(result.stdout.join('\n')) as Record<string, unknown>[];
    checks.forEach(assertCheckShape);
    assert.deepEqual(
      checks.map((c) => [c.id, c.status, c.errorMessage]),
      [['cancel-lab-run', 'FAILURE', 'Cannot read nope.json: no such file.']],
    );
  });
});

/** A finding that carries markup and characters XML cannot hold, and cites an open point. */
const HOSTILE: Finding = {
  rule: 'CANCEL-NO-RESPONSE',
  severity: 'warning',
  verdict: 'violated',
  witnesses: [3, 7],
  why: 'The server answered id "<b>x</b>&amp;]]></failure>\u0000\u0007\'" after its cancel (U-3).',
};
const HOSTILE_OUTCOME: RunOutcome = {
  name: 'scenarios/a <b>"weird"</b> name.json',
  setting: { revision: '2025-11-25', transport: 'stdio' },
  findings: [HOSTILE, { rule: 'CANCEL-NO-INITIALIZE', severity: 'error', verdict: 'cannot-tell', witnesses: [], why: 'no cancel' }],
  problem: null,
  exitCode: 0,
  timestamp: NOW.toISOString(),
};

describe('--format junit, read by a JUnit reader', () => {
  test('a testsuite per scenario, a testcase per rule judged, a failure for the broken MUST', async () => {
    const result = await run('violates.json', 'junit');
    const parsed = (await parseJunit(result.stdout.join('\n'))) as TestSuites;
    const suite = parsed.testsuite?.[0];
    assert.ok(suite);
    assert.equal(suite.name, 'violates.json');
    const rules = new Set(result.findings.filter((f) => ruleById(f.rule)?.judged === true).map((f) => f.rule));
    assert.ok(rules.size < new Set(result.findings.map((f) => f.rule)).size, 'the rules the checker cannot judge are no testcases');
    assert.equal(suite.testcase?.length, rules.size);
    assert.equal(suite.tests, rules.size);
    const broken = suite.testcase?.find((c) => c.name?.startsWith('CANCEL-NO-INITIALIZE: '));
    assert.equal(broken?.failure?.[0]?.type, 'MUST');
    assert.equal(suite.failures, suite.testcase?.filter((c) => c.failure).length);
    assert.equal(suite.skipped, suite.testcase?.filter((c) => c.skipped).length);
    assert.ok(suite.properties?.some((p) => p.name === 'revision' && p.value === '2025-11-25'));
  });

  test('markup and control characters in a finding read back as the same text; an open point cites its page', async () => {
    const parsed = (await parseJunit(toJunitXml([HOSTILE_OUTCOME], { site: 'https://lab.example' }))) as TestSuites;
    const suite = parsed.testsuite?.[0];
    assert.equal(suite?.name, HOSTILE_OUTCOME.name);
    const failure = suite?.testcase?.find((c) => c.failure)?.failure?.[0];
    assert.equal(failure?.type, 'SHOULD');
    assert.equal(failure?.message, HOSTILE.why.replace('\u0000\u0007', '\uFFFD\uFFFD'));
    assert.match(failure?.inner ?? '', /\(U-3 \(https:\/\/lab\.example\/reference\/open-points\/#u-3\)\)/);
    assert.deepEqual(suite?.testcase?.find((c) => c.name?.startsWith('CANCEL-NO-INITIALIZE'))?.skipped, [{ message: 'cannot tell from this trace' }]);
  });

  test('a run that could not complete is an error, not a failure', async () => {
    const xml = toJunitXml([{ ...HOSTILE_OUTCOME, findings: [], setting: null, exitCode: 3, problem: { kind: 'hang', message: 'The run did not finish.', exitCode: 3 } }]);
    const suite = ((await parseJunit(xml)) as TestSuites).testsuite?.[0];
    assert.equal(suite?.errors, 1);
    assert.deepEqual(suite?.testcase?.[0]?.error?.[0], { type: 'hang', message: 'The run did not finish.', inner: 'The run did not finish.' });
  });
});

describe('--format sarif, valid SARIF 2.1.0', () => {
  const validate = async () => {
    const schema = JSON.parse(await readFile(new URL('./fixtures/schemas/sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const ajv = new AjvDraft4({ allErrors: true, strict: false });
    addFormats(ajv);
    return ajv.compile(schema);
  };

  test('a run’s violations are results with rule ids, levels, the spec link, and the scenario file as location', async () => {
    const validator = await validate();
    const result = await run('violates.json', 'sarif');
    const log = JSON.parse(result.stdout.join('\n')) as Log;
    assert.ok(validator(log), JSON.stringify(validator.errors, null, 2));
    const sarifRun = log.runs[0];
    assert.ok(sarifRun);
    const rules = sarifRun.tool.driver.rules ?? [];
    const broken = sarifRun.results?.find((r) => r.ruleId === 'CANCEL-NO-INITIALIZE');
    assert.equal(broken?.level, 'error');
    assert.equal(rules[broken?.ruleIndex ?? -1]?.id, 'CANCEL-NO-INITIALIZE');
    assert.match(rules[broken?.ruleIndex ?? -1]?.helpUri ?? '', /^https:\/\/github\.com\/modelcontextprotocol\/modelcontextprotocol\/blob\/b0f60ba5409db7a6582440a7b473cc0398890f15\/docs\/specification\/2025-11-25\//);
    assert.equal(broken?.locations?.[0]?.physicalLocation?.artifactLocation?.uri, 'violates.json');
    assert.equal(sarifRun.results?.length, result.findings.filter((f) => f.verdict === 'violated').length);
    assert.equal(sarifRun.invocations?.[0]?.exitCode, 1);
  });

  test('hostile strings, a permalink, and a run that failed still validate', async () => {
    const validator = await validate();
    const failed: RunOutcome = { name: 'https://lab.example/playground/#v1.abc', setting: null, findings: [], problem: { kind: 'run-failed', message: 'The run failed: boom.', exitCode: 3 }, exitCode: 3, timestamp: NOW.toISOString() };
    const log = toSarif([HOSTILE_OUTCOME, failed], { site: 'https://lab.example' });
    assert.ok(validator(log), JSON.stringify(validator.errors, null, 2));
    const results = log.runs[0]?.results ?? [];
    assert.equal(results[0]?.message.markdown?.includes('[U-3](https://lab.example/reference/open-points/#u-3)'), true);
    assert.equal(results[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri, 'scenarios/a%20%3Cb%3E%22weird%22%3C/b%3E%20name.json');
    assert.equal(results[1]?.ruleId, 'cancel-lab-run');
    assert.equal(log.runs[0]?.invocations?.[0]?.executionSuccessful, false);
  });
});

describe('outputs of a run', () => {
  test('the text output says when the run was judged by another revision than the scenario asks for', () => {
    const s = defaultScenario();
    const judged: Judged = { input: 'x.json', exitCode: 0, scenario: s, what: 'x.json', revision: '2025-06-18', trace: [], findings: [], traceHash: '0', recorded: null, reproduction: null, problem: null, startedAt: NOW.toISOString() };
    const text = render([judged], { format: 'text' }).stdout;
    assert.ok(text.includes('Judged by the rules of 2025-06-18, the revision the run negotiated (the scenario asks for 2025-11-25).'));
    const json = JSON.parse(render([judged], { format: 'json' }).stdout.at(-1) ?? '{}') as { judgedRevision?: string };
    assert.equal(json.judgedRevision, '2025-06-18');
  });

  test('with --site, the text output follows each open point a finding cites with its page', () => {
    const s = defaultScenario();
    const openPoint: Finding = { rule: 'CANCEL-REF-INPROGRESS', severity: 'info', verdict: 'violated', witnesses: [4], why: 'A second cancel (R3, U-9).' };
    const judged: Judged = { input: 'x.json', exitCode: 0, scenario: s, what: 'x.json', revision: s.revision, trace: [], findings: [openPoint], traceHash: '0', recorded: null, reproduction: null, problem: null, startedAt: NOW.toISOString() };
    const line = (site?: string) => render([judged], { format: 'text', ...(site !== undefined && { site }) }).stdout.find((l) => l.includes('CANCEL-REF-INPROGRESS'));
    assert.match(line('https://lab.example/') ?? '', /\(R3, U-9 \(https:\/\/lab\.example\/reference\/open-points\/#u-9\)\)\./);
    assert.match(line() ?? '', /\(R3, U-9\)\./);
  });

  test('a trace of 130,000 events formats in every output without overflowing the call stack', () => {
    const s = defaultScenario();
    const b = traceBuilder();
    handshake(b);
    toolCall(b, 'A', 1, { token: 'p', params: { arguments: {} } });
    for (let i = 1; b.trace.length < 130_000; i++) b.deliver(b.progress('s2c', 'p', i));
    const trace = b.trace;
    const findings = checkRun(s, trace);
    const judged: Judged = { input: 'long.json', exitCode: 0, scenario: s, what: 'long.json', revision: s.revision, trace, findings, traceHash: '0', recorded: null, reproduction: null, problem: null, startedAt: NOW.toISOString() };
    const text = render([judged], { format: 'text' }).stdout;
    assert.equal(text.filter((line) => line.startsWith('#')).length, trace.length);
    assert.equal(render([judged], { format: 'json' }).stdout.length, trace.length + 1);
    for (const format of ['checks', 'junit', 'sarif'] as const) assert.ok(render([judged], { format }).stdout.length > 0);
    assert.ok(bugReport({ scenario: s, trace, findings, link: null, traceHash: '0' }).length > 0);
  });
});
