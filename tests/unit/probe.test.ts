/**
 * `cancel-lab probe` against real servers: the TypeScript SDK v2 and v1 over stdio, v2 over
 * Streamable HTTP, and a stdio server that behaves like python-sdk 1.x. Each is probed once
 * by the bin, in parallel, and told apart by its exit code and its verdict per check.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJunit } from 'junit2json';
import type { Log } from 'sarif';
import { checkTraceFile } from '../../src/cli/check.ts';
import { probe } from '../../src/cli/probe/probe.ts';
import { renderProbe } from '../../src/cli/probe/render.ts';
import type { ConformanceCheck } from '../../src/report/index.ts';
import { SLOW, cli, fixture, parseJson, startHttpFixture, statuses, type ResultLine } from './probe-helpers.ts';

/**
 * A good server's statuses. The race is real (wall-clock timers, a real server): the response may
 * beat the cancel to the client (pass: no answer after the cancel) or cross it on the wire (info:
 * an allowed race, CANCEL-NO-RESPONSE). Either way the cancel must have gone out: never MISSED.
 */
function assertGood(result: ResultLine): void {
  const { 'cancel-races-response': race, ...rest } = statuses(result);
  assert.deepEqual(rest, {
    'cancel-after-response': 'pass',
    'cancel-unknown-id': 'pass',
    'cancel-in-flight': 'pass',
    'duplicate-cancel': 'pass',
    'request-timeout': 'pass',
  });
  const story = result.checks.find((c) => c.id === 'cancel-races-response')?.story.join('\n') ?? '';
  assert.ok(race === 'pass' || race === 'info', `${String(race)}: ${story}`);
  assert.match(story, /aborted it \d+ ms later, as its response was due/);
  if (race === 'info') assert.deepEqual(result.checks.find((c) => c.id === 'cancel-races-response')?.rules, ['CANCEL-NO-RESPONSE']);
}

describe('probe tells the fixture servers apart', { concurrency: true }, () => {
  let dir = '';
  let http: { url: string; stop: () => void } | null = null;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'probe-'));
    http = await startHttpFixture();
  });
  after(async () => {
    http?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('in text, the record line says where --trace wrote it (not how to ask for it) when it was given', async () => {
    const trace = join(dir, 'told.jsonl');
    const ran = await cli(['probe', ...SLOW, '--only', 'cancel-in-flight', '--trace', trace, '--', ...fixture('v2-stdio.ts')]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, new RegExp(`^Recorded \\d+ frames \\(\\d+ events, hash [0-9a-f]{16}\\), written to ${trace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} for the playground's Import panel and cancel-lab check ${trace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`, 'm'));
    assert.doesNotMatch(ran.stdout, /--trace FILE writes them/);
  });

  test('TS SDK v2 over stdio: every check passes, exit 0; the trace it writes opens in check', async () => {
    const trace = join(dir, 'v2.jsonl');
    const ran = await cli(['probe', ...SLOW, '--format', 'json', '--trace', trace, '--', ...fixture('v2-stdio.ts')]);
    assert.equal(ran.code, 0, ran.stderr);
    const { events, result } = parseJson(ran.stdout);
    assertGood(result);
    const graceful = result.findings.find((f) => f.rule === 'CANCEL-RACE-GRACEFUL');
    assert.equal(graceful?.verdict, 'satisfied');
    // The in-flight cancel went out on the wire, and no response for its request came back.
    const inFlight = result.checks.find((c) => c.id === 'cancel-in-flight');
    assert.ok(inFlight?.story.some((s) => s.startsWith('The server wrote no response for it after the cancel')), inFlight?.story.join('\n'));
    assert.equal(events[0]?.kind, 'observed');
    assert.match(String(events[0]?.text), /^Recorded by cancel-lab probe at the client's transport/);
    // The probe's own cancels (after the response, for an id never issued, the duplicate) are forged frames; the SDK's are not.
    const cancels = events.filter((e) => e.kind === 'frame' && String(e.raw).includes('"notifications/cancelled"'));
    const forged = cancels.filter((e) => e.injected === true).map((e) => String(e.raw));
    assert.equal(forged.length, 3);
    assert.ok(forged.some((raw) => raw.includes('"requestId":987654321')));
    // The SDK's: in flight, the first of the duplicate, the timeout, and the race's when the response did not win it.
    assert.ok(cancels.length - forged.length >= 3, `${cancels.length - forged.length} cancels from the SDK`);
    const written = await readFile(trace, 'utf8');
    assert.equal(written.trimEnd().split('\n').length, events.length);
    const checked = await checkTraceFile(trace);
    assert.equal(checked.format, 'lab');
    assert.equal(checked.trace.length, events.length);
    assert.equal(checked.exitCode, 0, JSON.stringify(checked.findings.filter((f) => f.verdict === 'violated')));
  });

  test('TS SDK v1 over stdio: every check passes, exit 0', async () => {
    const ran = await cli(['probe', ...SLOW, '--format', 'json', '--', ...fixture('v1-stdio.ts')]);
    assert.equal(ran.code, 0, ran.stderr);
    assertGood(parseJson(ran.stdout).result);
  });

  test('TS SDK v2 over Streamable HTTP: every check passes, exit 0', async () => {
    assert.ok(http);
    const ran = await cli(['probe', ...SLOW, '--format', 'json', '--url', http.url]);
    assert.equal(ran.code, 0, ran.stderr);
    const { result } = parseJson(ran.stdout);
    assertGood(result);
    assert.equal(result.probe, http.url);
  });

  test('python-sdk 1.x alike: the harmless checks pass, a cancel in flight takes it down (exit 1), the rest are not run', async () => {
    const trace = join(dir, 'py.jsonl');
    const ran = await cli(['probe', ...SLOW, '--format', 'json', '--trace', trace, '--', ...fixture('py-v1-like.ts')]);
    assert.equal(ran.code, 1, ran.stderr);
    const { result } = parseJson(ran.stdout);
    assert.deepEqual(statuses(result), {
      'cancel-after-response': 'pass',
      'cancel-unknown-id': 'pass',
      'cancel-in-flight': 'fail',
      'duplicate-cancel': 'not-run',
      'cancel-races-response': 'not-run',
      'request-timeout': 'not-run',
    });
    const inFlight = result.checks.find((c) => c.id === 'cancel-in-flight');
    assert.deepEqual(inFlight?.rules.includes('CANCEL-RACE-GRACEFUL'), true);
    assert.ok(inFlight?.story.some((s) => s.includes('{"code":0,"message":"Request cancelled"}')), inFlight?.story.join('\n'));
    assert.ok(inFlight?.story.includes('The server went during this check: its process exited (code 1).'), inFlight?.story.join('\n'));
    const violated = result.findings.filter((f) => f.verdict === 'violated' && f.severity === 'error').map((f) => f.rule);
    assert.deepEqual(violated, ['CANCEL-RACE-GRACEFUL']);
    // check on the trace it wrote: the same MUST, for the server's exit after the cancel, and not the probe's own cancels.
    const checked = await checkTraceFile(trace);
    assert.equal(checked.exitCode, 1);
    const broken = checked.findings.filter((f) => f.verdict === 'violated' && f.severity === 'error');
    assert.deepEqual(broken.map((f) => f.rule), ['CANCEL-RACE-GRACEFUL']);
    assert.match(broken[0]?.why ?? '', /^Recorded by the probe: after the cancel in frame \d+, the server process exited \(code 1\)/);
  });

  test('python-sdk 1.x alike, a duplicate cancel alone: two code-0 answers for one request, then it exits', async () => {
    const ran = await cli(['probe', ...SLOW, '--only', 'duplicate-cancel', '--format', 'json', '--', ...fixture('py-v1-like.ts')]);
    assert.equal(ran.code, 1, ran.stderr);
    const { result } = parseJson(ran.stdout);
    assert.deepEqual(statuses(result), { 'duplicate-cancel': 'fail' });
    const dup = result.checks[0];
    assert.ok(dup?.story.some((s) => s.startsWith('The server wrote 2 responses for it after the first cancel')), dup?.story.join('\n'));
    const answeredTwice = result.findings.find((f) => f.rule === 'CANCEL-INVALID-IGNORE' && f.verdict === 'violated');
    assert.equal(answeredTwice?.severity, 'warning', JSON.stringify(result.findings.filter((f) => f.verdict === 'violated')));
  });

  test('python-sdk 1.x alike in the CI formats: checks.json, JUnit and SARIF carry the broken MUST', async () => {
    // In-process, one probe for the three formats: the bin's exit code is held by the tests above.
    const [command = '', ...args] = fixture('py-v1-like.ts');
    const probed = await probe({ target: { kind: 'stdio', command, args }, tool: 'slow', args: { ms: 300 }, only: ['request-timeout'] });
    assert.equal(probed.exitCode, 1);
    const list: ConformanceCheck[] = JSON.parse(renderProbe(probed, 'checks').stdout.join('\n'));
    assert.equal(list.find((c) => c.id === 'CANCEL-RACE-GRACEFUL')?.status, 'FAILURE');
    const suites = await parseJunit(renderProbe(probed, 'junit').stdout.join('\n'));
    const cases = suites && 'testsuite' in suites ? (suites.testsuite ?? []).flatMap((suite) => suite.testcase ?? []) : [];
    const failed = cases.filter((c) => (c.failure ?? []).length > 0).map((c) => c.name);
    assert.deepEqual(failed, ['CANCEL-RACE-GRACEFUL: Handle cancellation races gracefully']);
    const log: Log = JSON.parse(renderProbe(probed, 'sarif').stdout.join('\n'));
    const errors = (log.runs[0]?.results ?? []).filter((r) => r.level === 'error').map((r) => r.ruleId);
    assert.deepEqual(errors, ['CANCEL-RACE-GRACEFUL']);
  });
});
