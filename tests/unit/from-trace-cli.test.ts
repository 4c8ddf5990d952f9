/**
 * `cancel-lab check <file> --scenario OUT.json`: the scenario file it writes, the match and the
 * permalink it prints, and its exit codes; and `cancel-lab export`, the other way round.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCommand } from '../../src/cli/check-command.ts';
import { exportCommand } from '../../src/cli/export.ts';
import { decodeLink, parseScenario } from '../../src/scenario/index.ts';
import { importTrace } from '../../src/trace/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = 'tests/fixtures/import/';
let dir = '';
before(async () => (dir = await mkdtemp(join(tmpdir(), 'cancel-lab-from-trace-'))));
after(() => rm(dir, { recursive: true, force: true }));

describe('cancel-lab check --scenario', () => {
  test('writes the scenario, prints the match and a permalink that decodes to it; the exit code stays the verdict’s', async () => {
    const out = join(dir, 'r2.json');
    const r = await checkCommand([`${FIXTURES}stdio-r2-clean.log`, '--scenario', out, '--site', 'https://lab.example'], ROOT);
    assert.equal(r.exitCode, 0, r.stderr.join('\n'));
    const written = parseScenario(JSON.parse(await readFile(out, 'utf8')));
    assert.ok(written.ok);
    assert.equal(written.scenario.steps.length, 2);
    assert.ok(r.stdout.includes('Its run against the trace: 6 of 6 frames match.'), r.stdout.join('\n'));
    const replay = r.stdout.find((l) => l.startsWith('Replay it: '));
    assert.match(replay ?? '', /^Replay it: https:\/\/lab\.example\/playground\/#v1\./);
    const decoded = await decodeLink(replay?.slice(replay.indexOf('#')) ?? '');
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.scenario, written.scenario);
    const broken = await checkCommand([`${FIXTURES}stdio-cancel-initialize.log`, '--scenario', join(dir, 'init.json')], ROOT);
    assert.equal(broken.exitCode, 1);
    assert.ok(broken.stdout.includes('Its run against the trace: 3 of 3 frames match.'));
  });

  test('in a machine format the scenario lines go to stderr, and stdout stays that format', async () => {
    const r = await checkCommand([`${FIXTURES}har-http-sse-cancel.har`, '--format', 'checks', '--scenario', join(dir, 'sse.json')], ROOT);
    assert.equal(r.exitCode, 0);
    assert.ok(Array.isArray(JSON.parse(r.stdout.join('\n'))));
    assert.ok(r.stderr.includes('Its run against the trace: 17 of 18 frames match; 1 missing from the run.'), r.stderr.join('\n'));
    assert.ok(r.stderr.includes('  missing  frame 14: server → client HTTP end of GET'));
  });

  test('a real Inspector export: the run gives each answer the time the Inspector saw it, and names the one frame it cannot, the client’s own notifications/initialized', async () => {
    const out = join(dir, 'inspector.json');
    const r = await checkCommand([`${FIXTURES}inspector-sdk-v2-stdio.json`, '--transport', 'stdio', '--scenario', out], ROOT);
    assert.equal(r.exitCode, 0, r.stderr.join('\n'));
    assert.ok(r.stdout.includes('Its run against the trace: 8 of 9 frames match; 1 differ.'), r.stdout.join('\n'));
    assert.ok(r.stdout.includes('  differs  frame 2: client → server notifications/initialized — written at 375 ms in the run, 397 ms in the log (-22 ms)'));
    assert.ok(r.stdout.some((l) => l.includes('the lab\'s client writes it as the answer arrives')));
    const tee = await checkCommand([`${FIXTURES}stdio-sdk-v2-tee.log`, '--scenario', join(dir, 'tee.json')], ROOT);
    assert.ok(tee.stdout.includes('Its run against the trace: 10 of 10 frames match.'), tee.stdout.join('\n'));
  });

  test('2 for a file it cannot write, or a trace that does not import; no file then', async () => {
    const r = await checkCommand([`${FIXTURES}stdio-r2-clean.log`, '--scenario', join(dir, 'no', 'such', 'dir.json')], ROOT);
    assert.equal(r.exitCode, 2);
    assert.match(r.stdout.join('\n'), /Cannot write .*dir\.json/);
    const bad = await checkCommand([`${FIXTURES}README.md`, '--scenario', join(dir, 'readme.json')], ROOT);
    assert.equal(bad.exitCode, 2);
    await assert.rejects(readFile(join(dir, 'readme.json')));
    assert.equal((await checkCommand([`${FIXTURES}stdio-r2-clean.log`, '--scenario'], ROOT)).exitCode, 2);
  });
});

describe('cancel-lab export', () => {
  test('a stdio scenario as mcpsnoop JSONL on stdout, which imports back to the same frames', async () => {
    const r = await exportCommand(['content/scenarios/race-r2-response-crosses-cancel.json', '--as', 'mcpsnoop'], ROOT);
    assert.equal(r.exitCode, 0, r.stderr.join('\n'));
    const back = importTrace(r.stdout.join('\n'));
    assert.ok(back.ok);
    assert.equal(back.format, 'mcpsnoop');
    assert.equal(back.trace.filter((e) => e.kind === 'frame').length, 6);
  });

  test('an HTTP scenario as a HAR file with --out; exit 2 for a format the transport has none of, a missing format or file', async () => {
    const out = join(dir, 'run.har');
    const r = await exportCommand(['content/scenarios/sdk-stateless-http-loses-cancel.json', '--as', 'har', '--out', out], ROOT);
    assert.equal(r.exitCode, 0, r.stderr.join('\n'));
    const back = importTrace(await readFile(out, 'utf8'));
    assert.ok(back.ok);
    assert.deepEqual([back.format, back.transport], ['har', 'streamable-http']);
    const wrong = await exportCommand(['content/scenarios/race-r2-response-crosses-cancel.json', '--as', 'har'], ROOT);
    assert.deepEqual([wrong.exitCode, wrong.stderr], [2, ['cancel-lab: a stdio run has no HAR 1.2; use --as mcpsnoop.']]);
    assert.equal((await exportCommand(['content/scenarios/race-r2-response-crosses-cancel.json'], ROOT)).exitCode, 2);
    assert.equal((await exportCommand(['nope.json', '--as', 'har'], ROOT)).exitCode, 2);
  });
});
