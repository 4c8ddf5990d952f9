/**
 * The one description of each concept (src/views/): finding labels, counts, order and badges;
 * the reproduction verdict; the cells of a wire row; an embed's summary. Asserted as the words
 * a user reads, on hand-made findings and rows and on real runs of library scenarios.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { checkRun, type Finding } from '../../src/rules/index.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';
import { defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { embedSummary, setupRows } from '../../src/views/embed-summary.ts';
import { findingBadges, findingLabel, findingSummary, isNotable, sortFindings } from '../../src/views/findings.ts';
import { reproduction } from '../../src/views/reproduction.ts';
import { deriveRunView, runViewSteps } from '../../src/views/run-view.ts';
import { wireCells } from '../../src/views/wire-cells.ts';
import { wireRows } from '../../src/views/wire-rows.ts';
import { handshake, toolCall, traceBuilder } from './fixtures/trace-builder.ts';

const SETTING = { revision: '2025-11-25', transport: 'stdio' } as const;

function finding(rule: string, severity: Finding['severity'], verdict: Finding['verdict'], witnesses: number[] = []): Finding {
  return { rule, severity, verdict, witnesses, why: `${rule} because` };
}

const ERROR = finding('CANCEL-NO-INITIALIZE', 'error', 'violated', [0, 4]);
const WARNING = finding('CANCEL-NO-RESPONSE', 'warning', 'violated', [7]);
const OPEN_POINT = finding('CANCEL-RACE-GRACEFUL', 'info', 'violated', [9]);
/** A MUST rule judged info because of timing: a race the spec allows. */
const RACE = finding('CANCEL-REF-INPROGRESS', 'info', 'satisfied', [4, 5]);
/** A descriptive info rule: every cancel satisfies it; nothing to point at. */
const DESCRIPTIVE = finding('CANCEL-WHO', 'info', 'satisfied', [4]);
const SATISFIED = finding('CANCEL-RECV-STOP', 'warning', 'satisfied', [3]);
const CANNOT = finding('TIMEOUT-MAX', 'warning', 'cannot-tell');
const NA = finding('TASK-ERRORS', 'error', 'not-applicable');
const ALL = [NA, CANNOT, SATISFIED, DESCRIPTIVE, RACE, OPEN_POINT, WARNING, ERROR];

describe('findings in words', () => {
  test('labels: one per bucket, and the two kinds of info told apart', () => {
    assert.deepEqual(
      ALL.map((f) => findingLabel(f, SETTING)),
      ['not applicable', 'can’t tell', 'satisfied', 'satisfied', 'allowed race', 'open point', 'SHOULD not followed', 'MUST broken'],
    );
  });

  test('notable: violations and allowed races, not the descriptive info rules', () => {
    assert.deepEqual(
      ALL.filter((f) => isNotable(f, SETTING)).map((f) => f.rule),
      ['CANCEL-REF-INPROGRESS', 'CANCEL-RACE-GRACEFUL', 'CANCEL-NO-RESPONSE', 'CANCEL-NO-INITIALIZE'],
    );
  });

  test('the listing order: errors, warnings, info, then the rest; the checker’s order within each', () => {
    assert.deepEqual(
      sortFindings(ALL, SETTING).map((f) => f.rule),
      ['CANCEL-NO-INITIALIZE', 'CANCEL-NO-RESPONSE', 'CANCEL-REF-INPROGRESS', 'CANCEL-RACE-GRACEFUL', 'CANCEL-RECV-STOP', 'CANCEL-WHO', 'TIMEOUT-MAX', 'TASK-ERRORS'],
    );
  });

  test('the counts: every finding in exactly one bucket, in one line', () => {
    const summary = findingSummary(ALL, SETTING);
    assert.deepEqual(summary.counts, { error: 1, warning: 1, race: 2, satisfied: 2, 'cannot-tell': 1, 'not-applicable': 1 });
    assert.equal(summary.total, ALL.length);
    assert.equal(summary.mustBroken, true);
    assert.equal(
      summary.text,
      '1 error (MUST broken) · 1 warning (SHOULD not followed) · 2 allowed races and open points (info) · 2 rules satisfied · 1 can’t tell from this trace · 1 not applicable',
    );
    assert.deepEqual(
      summary.notable.map((f) => f.rule),
      ['CANCEL-NO-INITIALIZE', 'CANCEL-NO-RESPONSE', 'CANCEL-REF-INPROGRESS', 'CANCEL-RACE-GRACEFUL'],
    );
    assert.equal(findingSummary([WARNING], SETTING).mustBroken, false);
  });

  test('badges: one per tone and rule on each witness, only for notable findings', () => {
    const badges = findingBadges(ALL, SETTING);
    assert.deepEqual(
      badges.get(4)?.map((b) => b.text),
      ['ℹ CANCEL-REF-INPROGRESS', '✖ CANCEL-NO-INITIALIZE'],
    );
    assert.deepEqual(
      badges.get(7)?.map((b) => `${b.title} = ${b.key}`),
      ['warning: CANCEL-NO-RESPONSE = warning:CANCEL-NO-RESPONSE'],
    );
    assert.equal(badges.get(3), undefined, 'a satisfied SHOULD has no badge');
  });
});

describe('the reproduction verdict', () => {
  test('exact, differs, recorded with another engine, nothing recorded', () => {
    const here = { engine: ENGINE_VERSION, sdk: SDK_VERSION };
    assert.deepEqual(reproduction({ trace: 'aaaa', ...here }, 'aaaa'), {
      kind: 'exact',
      headline: 'Reproduced exactly',
      detail: `trace aaaa, engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`,
      text: `Reproduced exactly — trace aaaa, engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`,
    });
    assert.equal(reproduction({ trace: 'aaaa' }, 'aaaa').kind, 'exact', 'a library file records the hash alone');
    assert.equal(reproduction({ trace: 'aaaa', engine: '0.0.1', sdk: '2.0.0' }, 'aaaa').detail, `trace aaaa, engine ${ENGINE_VERSION} and SDK ${SDK_VERSION} (recorded with engine 0.0.1 and SDK 2.0.0).`);
    const differs = reproduction({ trace: 'aaaa', ...here }, 'bbbb');
    assert.equal(differs.kind, 'differs');
    assert.equal(differs.text, `The trace differs from the recorded one — recorded aaaa with engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}; now bbbb with engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`);
    assert.equal(reproduction({ trace: 'aaaa' }, 'bbbb').detail, `recorded aaaa; now bbbb with engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`);
    const other = reproduction({ trace: 'aaaa', engine: '0.0.1', sdk: SDK_VERSION }, 'bbbb');
    assert.equal(other.kind, 'other-engine');
    assert.match(other.text, /^The trace differs from the one recorded with another engine — recorded aaaa with engine 0\.0\.1 and SDK /);
    for (const recorded of [null, { trace: '', ...here }]) {
      assert.deepEqual(reproduction(recorded, 'cccc').kind, 'not-recorded');
      assert.equal(reproduction(recorded, 'cccc').text, "No recorded trace — this run's trace is cccc; nothing was recorded to compare it with.");
    }
  });
});

describe('the cells of a wire row', () => {
  test('delivered, in flight, held, dropped by a fault, dropped on arrival', () => {
    const b = traceBuilder();
    handshake(b);
    const call = toolCall(b, 'A', 1);
    const late = b.result('s2c', 1, { content: [{ type: 'text', text: 'x'.repeat(200) }] });
    const held = b.notify('s2c', 'notifications/message', { level: 'info' });
    held.deliverAt = null;
    held.fault = 'held';
    const dropped = b.notify('c2s', 'notifications/cancelled', { requestId: 1 });
    dropped.deliverAt = null;
    dropped.fault = 'dropped';
    const stale = b.frame('c2s', null, { raw: '' });
    stale.eof = true;
    b.trace.push({ seq: b.trace.length, kind: 'delivery', t: b.now + 5, frame: stale.frame, dir: 'c2s', dropped: 'its connection was closed before it arrived' });
    const cells = wireRows(b.trace).map((r) => wireCells(r));
    assert.deepEqual(
      cells.map((c) => `${c.frame} ${c.sent} ${c.delivered} ${c.delivery} ${c.stream} ${c.what} ${c.id}`),
      [
        '0 0 5 delivered — initialize 0',
        '1 5 10 delivered — result of initialize 0',
        '2 10 15 delivered — notifications/initialized ',
        `3 15 20 delivered — tools/call 1`,
        '4 20 in flight in-flight — result of tools/call 1',
        '5 20 held held — notifications/message ',
        '6 20 never (dropped) dropped — notifications/cancelled 1',
        '7 20 never (its connection was closed before it arrived) dropped — end of stream (EOF) ',
      ],
    );
    assert.equal(call.frame, 3);
    const result = cells[late.frame];
    assert.ok(result);
    assert.equal(result.excerpt.length, 141);
    assert.ok(result.excerpt.endsWith('…'));
    assert.ok(!result.summary.endsWith('\n'));
    assert.match(result.pretty, /^\{\n {2}"jsonrpc": "2.0",/);
    assert.equal(cells[7]?.summary, '(no bytes: end of stream)');
    assert.deepEqual(
      cells[6]?.badges.map((x) => `${x.kind} ${x.text}`),
      ['fault dropped'],
    );
  });

  test('HTTP: stream, framing and headers; injected and finding badges from the write and the delivery', () => {
    const b = traceBuilder();
    const post = b.post(1, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    const delivered = b.deliver(post);
    const head = b.head(1, 200);
    const forged = b.chunk(1, { jsonrpc: '2.0', id: 0, result: {} });
    forged.injected = true;
    const badges = findingBadges([finding('CANCEL-NO-INITIALIZE', 'error', 'violated', [post.seq, delivered.seq]), finding('CANCEL-NO-RESPONSE', 'warning', 'violated', [delivered.seq])], SETTING);
    const [postCells, headCells, chunkCells] = wireRows(b.trace).map((r) => wireCells(r, badges));
    assert.ok(postCells && headCells && chunkCells);
    assert.deepEqual([postCells.stream, postCells.framing, postCells.what], ['#1', 'POST /mcp', 'initialize']);
    assert.deepEqual(postCells.headers, ['accept: application/json, text/event-stream', 'content-type: application/json']);
    assert.deepEqual(
      postCells.badges.map((x) => x.text),
      ['✖ CANCEL-NO-INITIALIZE', '⚠ CANCEL-NO-RESPONSE'],
    );
    assert.deepEqual([headCells.framing, headCells.what, headCells.framingOnly], ['200 text/event-stream', '', true]);
    assert.equal(head.http?.part, 'response-head');
    assert.deepEqual(
      chunkCells.badges.map((x) => `${x.kind} ${x.text} (${x.title})`),
      ['injected injected (Forged by the user, not written by the SDK)'],
    );
    assert.equal(chunkCells.framing, 'SSE event: message');
  });
});

describe('an embed’s summary', () => {
  const sides = createNodeSides();
  after(() => sides.close());
  const runs = new Map<string, { scenario: Scenario; trace: TraceEvent[] }>();
  before(async () => {
    for (const id of ['stop-after-commit-is-not-rollback', 'seed-000-strict-host-python-v1', 'race-r5-cancel-initialize']) {
      const entry = libraryEntry(id);
      assert.ok(entry, id);
      runs.set(id, { scenario: entry.scenario, trace: await runHeadless(entry.scenario, sides) });
    }
  });
  const lines = (id: string): string[] => {
    const r = runs.get(id);
    assert.ok(r, id);
    return embedSummary(deriveRunView(r.scenario, r.trace)).lines.map((l) => `${l.kind}${l.tone ? `/${l.tone}` : ''}: ${l.text}`);
  };

  test('calls, their handlers over time, the ledger line, and the verdict when nothing is broken', () => {
    assert.deepEqual(lines('stop-after-commit-is-not-rollback'), [
      'call: A ledger_write: client STOPPED_LOCALLY, server response suppressed',
      'server: A on the server: running at 25 ms → cancellation seen at 205 ms → threw at 205 ms → response suppressed at 205 ms',
      'ledger: ledger: order-42 = paid committed at 125 ms — Stop at 200 ms — not rolled back (request 1, call A)',
      'verdict/ok: No MUST or SHOULD rule is broken.',
    ]);
  });

  test('a broken SHOULD and a broken MUST are named with their label; allowed races are left to the playground', () => {
    const seed = lines('seed-000-strict-host-python-v1');
    assert.equal(seed.length, 9);
    assert.match(seed[6] ?? '', /^finding\/error: MUST broken: CANCEL-RACE-GRACEFUL: The client did not handle a cancellation race gracefully/);
    assert.match(seed[7] ?? '', /^finding\/warning: SHOULD not followed: CANCEL-NO-RESPONSE: The server wrote a response to request 1/);
    assert.deepEqual(lines('race-r5-cancel-initialize'), ['finding/error: MUST broken: CANCEL-NO-INITIALIZE: The client\'s cancel in frame 2 names its initialize request 0 (frame 0).']);
  });

  test('a result with nowhere to go is told from one suppressed after a cancel', async () => {
    const entry = libraryEntry('race-r7-http-disconnect-is-not-cancel');
    assert.ok(entry);
    const disconnect = embedSummary(deriveRunView(entry.scenario, await runHeadless(entry.scenario, sides))).lines.find((l) => l.kind === 'server');
    assert.equal(disconnect?.text, 'A on the server: running at 105 ms → returned at 405 ms → result undeliverable at 405 ms');
    assert.match(lines('stop-after-commit-is-not-rollback').find((l) => l.startsWith('server:')) ?? '', /cancellation seen at 205 ms → threw at 205 ms → response suppressed at 205 ms$/);
  });

  test('what the run left open is listed, and the rows before the first action are the setup an embed folds', async () => {
    const entry = libraryEntry('sdk-sessionful-http-stream-left-open');
    assert.ok(entry);
    const view = deriveRunView(entry.scenario, await runHeadless(entry.scenario, sides));
    const summary = embedSummary(view);
    assert.ok(summary.lines.some((l) => l.kind === 'open' && l.text === 'Still open when the run ended: stream #3 (GET: the server’s own event stream); stream #4 (tools/call id 1).'));
    // The setup is every row written before the user's first action, and nothing after it.
    const first = view.trace.find((e) => e.kind === 'user-action')?.seq ?? -1;
    assert.ok(setupRows(view) > 0);
    assert.ok(view.wire.slice(0, setupRows(view)).every((row) => row.seq < first));
    assert.ok(view.wire.slice(setupRows(view)).every((row) => row.seq > first));
    assert.deepEqual(view.wire.slice(0, setupRows(view)).filter((r) => r.carriesMessage).map((r) => r.what).slice(0, 2), ['initialize', 'result of initialize']);
  });

  test('what an embed’s wire log shows: the cells of each row, in wire order', () => {
    const r = runs.get('stop-after-commit-is-not-rollback');
    assert.ok(r);
    const view = deriveRunView(r.scenario, r.trace);
    assert.equal(view.cells.length, view.wire.length);
    assert.deepEqual(
      view.cells.map((c) => `${c.sent} ${c.direction} ${c.what} ${c.id}`).slice(-2),
      ['20 client → server tools/call 1', '200 client → server notifications/cancelled 1'],
    );
  });

  test('a long run’s view derived a step at a time (as a page derives it) is the view derived at once, in several steps', async () => {
    const scenario: Scenario = { ...defaultScenario(), steps: [{ at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps: 3000, stepMs: 1 } } }], endAt: 3200 };
    const trace = await runHeadless(scenario, sides);
    assert.ok(trace.length > 9000, `${trace.length} events`);
    const steps = runViewSteps(scenario, trace);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    // Indexing alone pauses every 2,000 events; then rules, wire rows, and cells and calls.
    assert.ok(pauses >= Math.floor(trace.length / 2000) + 3, `${pauses} pauses`);
    const whole = deriveRunView(scenario, trace);
    assert.deepEqual(step.value, whole);
    assert.equal(whole.calls[0]?.progress, 3000);
  });

  test('the run view judges with the trace index it built: the same findings as checkRun building its own', () => {
    for (const [id, r] of runs) assert.deepEqual(deriveRunView(r.scenario, r.trace).findings, checkRun(r.scenario, r.trace), id);
  });

  test('the run view’s verdict counts what the checker found, and its cells carry the badges', () => {
    const r = runs.get('race-r5-cancel-initialize');
    assert.ok(r);
    const view = deriveRunView(r.scenario, r.trace);
    assert.equal(view.verdict.counts.error, 1);
    assert.equal(view.verdict.counts.race, 1);
    assert.deepEqual(
      view.cells.filter((c) => c.badges.length > 0).map((c) => `${c.frame}: ${c.badges.map((x) => x.text).join(' ')}`),
      ['0: ✖ CANCEL-NO-INITIALIZE', '1: ℹ CANCEL-REF-INPROGRESS', '2: ℹ CANCEL-REF-INPROGRESS ✖ CANCEL-NO-INITIALIZE'],
    );
  });
});
