/**
 * The scenario library (content/scenarios/, src/scenario/library.ts): every file is listed, parses
 * with the schema, has a unique id, and replays headless to exactly its recorded trace hash.
 * When an engine or SDK change moves a trace on purpose, `npm run record-library` records the
 * new hashes (and the diff shows which scenarios moved).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { LIBRARY, libraryEntry } from '../../src/scenario/library.ts';
import { checkRun, violatedRules } from '../../src/rules/index.ts';
import { parseScenario } from '../../src/scenario/schema.ts';
import { traceHash } from '../../src/trace/hash.ts';
import { assertNoEngineErrors } from './trace-helpers.ts';
import { LIFECYCLE_TABLES } from '../../src/machines/index.ts';

const sides = createNodeSides();
after(() => sides.close());

const DIR = fileURLToPath(new URL('../../content/scenarios/', import.meta.url));
const KEYS = ['id', 'title', 'summary', 'source', 'scenario', 'trace', 'violates'];

test('every file in content/scenarios is in LIBRARY, under its own name, with a unique id', async () => {
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.json')).sort();
  const ids = LIBRARY.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  assert.deepEqual([...ids].sort(), files.map((f) => f.slice(0, -'.json'.length)), 'src/scenario/library.ts imports exactly the files in content/scenarios');
  for (const file of files) {
    const raw = JSON.parse(await readFile(`${DIR}${file}`, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(raw).sort(), [...KEYS].sort(), `${file} has exactly ${KEYS.join(', ')}`);
    const parsed = parseScenario(raw.scenario);
    assert.ok(parsed.ok, `${file}: ${parsed.ok ? '' : parsed.errors.join('; ')}`);
    assert.deepStrictEqual(parsed.scenario, raw.scenario, `${file}: the schema keeps the scenario as written (no stripped keys)`);
  }
});

test('the library covers the seeds, the expressible spec races and the real-SDK surprises', () => {
  const ids = new Set(LIBRARY.map((e) => e.id));
  for (const prefix of ['seed-000', 'seed-004', 'seed-003-request-7', 'seed-003-request-8', 'seed-003-request-9', 'race-r1', 'race-r2', 'race-r3', 'race-r4', 'race-r5', 'race-r6', 'race-r7', 'race-r8']) {
    assert.ok([...ids].some((id) => id.startsWith(prefix)), `a scenario for ${prefix}`);
  }
  for (const id of ['sdk-stateless-http-loses-cancel', 'sdk-max-total-timeout-without-cancel', 'sdk-ts-v1-client-cancels-answered-id']) assert.ok(ids.has(id), id);
});

test('entries are documented: a title, a one-paragraph plain-text summary, a source, a recorded hash', () => {
  for (const entry of LIBRARY) {
    assert.match(entry.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${entry.id}: a kebab-case id`);
    assert.ok(entry.title.length > 10 && !entry.title.includes('\n'), `${entry.id}: title`);
    assert.ok(entry.summary.length > 80 && !entry.summary.includes('\n'), `${entry.id}: one paragraph`);
    assert.doesNotMatch(entry.summary, /<[a-z]|\*\*|`/i, `${entry.id}: plain text (no HTML or Markdown)`);
    assert.ok(entry.source.label.length > 5, `${entry.id}: source`);
    if (entry.source.url !== undefined) assert.match(entry.source.url, /^https:\/\/github\.com\//, `${entry.id}: source URL`);
    assert.match(entry.trace, /^[0-9a-f]{16}$/, `${entry.id}: a recorded trace hash (npm run record-library)`);
  }
});

/** (machine, from, on) of every state change the library's runs record, filled by the replays below. */
const taken = new Set<string>();
const transitionKey = (machine: string, from: string, on: string): string => `${machine}: ${from} --${on}-->`;

for (const entry of LIBRARY) {
  test(`${entry.id} replays in Node to its recorded trace ${entry.trace}`, async () => {
    const trace = await runHeadless(entry.scenario, sides);
    for (const e of trace) {
      if ((e.kind === 'client-state' || e.kind === 'server-state' || e.kind === 'server-request-state' || e.kind === 'client-handler-state' || e.kind === 'connection-state') && e.from !== null && e.on !== null) {
        taken.add(transitionKey(e.machine, e.from, e.on));
      }
    }
    assertNoEngineErrors(trace);
    assert.equal(await traceHash(trace), entry.trace, `${entry.id}: the trace changed; if that is intended, run npm run record-library`);
    assert.deepEqual(violatedRules(entry.scenario, trace), [...entry.violates], `${entry.id}: the rules it breaks changed`);
  });
}

test('every transition of every lifecycle table is taken by at least one library scenario', () => {
  assert.equal(taken.size > 0, true, 'the replays above ran');
  const missing = LIFECYCLE_TABLES.flatMap((def) => def.transitions.map((t) => transitionKey(def.id, t.from, t.on))).filter((key) => !taken.has(key));
  assert.deepEqual(missing, [], 'transitions no library scenario takes: add a scenario that takes each, or remove it from its table');
});

/**
 * The real traces of the profiles come out as the right findings (issue 5): the rule each run
 * is known to break, and never an error for the open points of the spec.
 */
const EXPECTED_VIOLATIONS: Record<string, string[]> = {
  // A cancel with an id is a request to JSON-RPC: the sender broke NOTIFICATION-NO-ID; the server that answered it (Method not found) broke nothing.
  'notification-with-an-id': ['NOTIFICATION-NO-ID'],
  // A cancel in a batch: allowed and honoured on 2025-03-26, a broken MUST on 2025-11-25.
  'cancel-in-a-batch-2025-03-26': [],
  'cancel-in-a-batch-2025-11-25': ['BATCH-HTTP'],
  // A handler that ignores its signal: the SDK still sends its progress, each a broken 2026 MUST NOT.
  // Progress for call A forged on call B's stream: the SHOULD that a stream carries its own request's messages.
  'progress-on-another-requests-stream': ['HTTP-RELATED-MESSAGES'],
  'progress-after-cancel-2026-stdio': ['CANCEL-NO-FURTHER-MESSAGES', 'CANCEL-RECV-STOP'],
  // python-sdk 1.x answers the cancelled request (code 0): a SHOULD, a warning. The strict host
  // does not ignore that late answer: it tears the connection down and fails call B, a MUST.
  'seed-000-strict-host-python-v1': ['CANCEL-IGNORE-LATE-RESPONSE', 'CANCEL-NO-RESPONSE', 'CANCEL-RACE-GRACEFUL'],
  // The handler's late return kills the python-sdk 1.x server, and call B with it: a MUST.
  'seed-004-python-v1-swallowed-cancel-crash': ['CANCEL-NO-RESPONSE', 'CANCEL-RACE-GRACEFUL'],
  'python-v1-answers-cancel-with-code-0': ['CANCEL-NO-RESPONSE'],
  // The TS v1 client cancels initialize on a connect timeout: a MUST NOT.
  'race-r5-cancel-initialize': ['CANCEL-NO-INITIALIZE'],
  // Stateless 2025 HTTP: the cancel is lost and the result is written after it arrived.
  'sdk-stateless-http-loses-cancel': ['CANCEL-NO-RESPONSE', 'CANCEL-RECV-STOP'],
  // 2026-07-28 HTTP: closing the stream is the cancel, and the real SDK honours it.
  'transport-2026-http-close-stream-is-cancel': [],
  'seed-003-request-8-stdio-notification': [],
};

for (const [id, expected] of Object.entries(EXPECTED_VIOLATIONS)) {
  test(`${id}: the checker finds exactly ${expected.length ? expected.join(', ') : 'no violation'}`, () => {
    const entry = libraryEntry(id);
    assert.ok(entry, `${id} is in the library`);
    assert.deepEqual([...entry.violates], expected);
  });
}

test('the TS v1 client’s duplicate cancels and its cancel of an answered id are judged, never as errors of the spec’s open points', async () => {
  for (const id of ['race-r3-duplicate-cancel', 'sdk-ts-v1-client-cancels-answered-id']) {
    const entry = libraryEntry(id);
    assert.ok(entry);
    const findings = checkRun(entry.scenario, await runHeadless(entry.scenario, sides));
    const duplicate = findings.filter((f) => f.verdict === 'violated' && f.severity === 'error' && /duplicate/i.test(f.why));
    assert.deepEqual(duplicate, [], `${id}: a duplicate cancel (U-9) is never an error`);
  }
});
