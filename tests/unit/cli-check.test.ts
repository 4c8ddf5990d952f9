/**
 * `cancel-lab check`: an imported trace judged with run's exit codes and formats. The samples
 * are those of tests/fixtures/import/ (see the README there); the bin is spawned once, to see
 * the exit code reach the shell.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJunit } from 'junit2json';
import type { Log } from 'sarif';
import { checkCommand, parseCheckArgs } from '../../src/cli/check-command.ts';
import type { ConformanceCheck } from '../../src/report/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = 'tests/fixtures/import/';
const run = (...args: string[]) => checkCommand(args, ROOT);

describe('cancel-lab check: exit codes', () => {
  test('0 for a clean trace, 1 for a broken MUST, in text with the setting and where it came from', async () => {
    const clean = await run(`${FIXTURES}stdio-r2-clean.log`);
    assert.equal(clean.exitCode, 0, clean.stderr.join('\n'));
    assert.match(clean.stdout[0] ?? '', /^Trace from tests\/fixtures\/import\/stdio-r2-clean.log: a stdio log .*, \d+ events \(6 frames\)$/);
    assert.equal(clean.stdout[1], 'Judged by the rules of 2025-11-25 (from the trace) on stdio (from the trace)');
    assert.match(clean.stdout[2] ?? '', /^Observed from outside the lab’s sides/);
    assert.equal(clean.stdout.at(-1), 'Exit 0: no MUST or MUST NOT rule is violated.');
    const broken = await run(`${FIXTURES}stdio-cancel-initialize.log`);
    assert.equal(broken.exitCode, 1);
    assert.ok(broken.stdout.some((l) => /MUST broken\s+CANCEL-NO-INITIALIZE:/.test(l)), broken.stdout.join('\n'));
  });
  test('2 when the trace does not show its transport, until the flag says it', async () => {
    const asked = await run(`${FIXTURES}inspector-sdk-v2-stdio.json`);
    assert.equal(asked.exitCode, 2);
    assert.deepEqual(asked.stderr, [
      "cancel-lab: tests/fixtures/import/inspector-sdk-v2-stdio.json (the MCP Inspector's protocol log export) does not record its transport (it holds messages without their framing), so name it with --transport.",
    ]);
    const told = await run(`${FIXTURES}inspector-sdk-v2-stdio.json`, '--transport', 'stdio');
    assert.equal(told.exitCode, 0);
    assert.equal(told.stdout[1], 'Judged by the rules of 2025-11-25 (from the trace) on stdio (from the flag)');
  });
  test('2 for a missing file, a broken log (naming format and line), a bad flag', async () => {
    assert.deepEqual((await run('nope.log')).stderr, ['cancel-lab: Cannot read nope.log: no such file.']);
    const forced = await run(`${FIXTURES}stdio-r2-clean.log`, '--as', 'mcpsnoop');
    assert.equal(forced.exitCode, 2);
    assert.match(forced.stderr[0] ?? '', /Not mcpsnoop's JSONL session log: line 1 is not a JSON object/);
    const flag = await run(`${FIXTURES}stdio-r2-clean.log`, '--revision', '2099-01-01');
    assert.equal(flag.exitCode, 2);
    assert.match(flag.stderr[0] ?? '', /--revision takes one of 2024-11-05/);
  });
  test('3 for a lab trace whose run ended in an engine error, with the error', async () => {
    const lines = (await readFile(join(ROOT, FIXTURES, 'lab-python-v1-code-0.jsonl'), 'utf8')).trimEnd().split('\n');
    const last: { t: number } = JSON.parse(lines.at(-1) ?? '{}');
    lines.push(JSON.stringify({ kind: 'error', message: 'the server side threw', seq: lines.length, t: last.t }));
    const dir = await mkdtemp(join(tmpdir(), 'cancel-lab-check-'));
    try {
      await writeFile(join(dir, 'failed.jsonl'), lines.join('\n'));
      const out = await checkCommand([join(dir, 'failed.jsonl')], ROOT);
      assert.equal(out.exitCode, 3);
      assert.match(out.stderr[0] ?? '', /The recorded run reported an engine error at \d+ ms: the server side threw/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  test('the bin exits with the code', async () => {
    const code = await new Promise<number>((done) => {
      execFile(process.execPath, ['bin/cancel-lab.mjs', 'check', `${FIXTURES}mcpsnoop-second-response.jsonl`, '--format', 'json'], { cwd: ROOT }, (error) => done(error ? Number(error.code) : 0));
    });
    assert.equal(code, 1);
  });
});

describe('cancel-lab check: formats', () => {
  const file = `${FIXTURES}har-streamable-http-lost-cancel.har`;
  test('checks: SKIPPED with the reason for a rule only the lab’s sides can judge', async () => {
    const out = await run(file, '--format', 'checks');
    const checks: ConformanceCheck[] = JSON.parse(out.stdout.join('\n'));
    const close = checks.find((c) => c.id === 'CANCEL-RECV-STOP');
    assert.equal(close?.status, 'SKIPPED');
    assert.match(String(close?.details.why), /^Can’t tell from this trace: it was observed from outside/);
    assert.equal(out.exitCode, 0);
  });
  test('json: the trace events, then the verdict line with the format and setting', async () => {
    const out = await run(file, '--format', 'json');
    const last: { exitCode: number; format: string; revision: string; transport: string; outside: boolean } = JSON.parse(out.stdout.at(-1) ?? '{}');
    assert.deepEqual([last.exitCode, last.format, last.revision, last.transport, last.outside], [0, 'har', '2025-11-25', 'streamable-http', true]);
    assert.equal(JSON.parse(out.stdout[0] ?? '{}').kind, 'observed');
  });
  test('junit and sarif parse', async () => {
    const junit = await parseJunit((await run(file, '--format', 'junit')).stdout.join('\n'));
    assert.ok(junit);
    const sarif: Log = JSON.parse((await run(file, '--format', 'sarif')).stdout.join('\n'));
    assert.equal(sarif.version, '2.1.0');
  });
  test('arguments: one file, flags in either spelling', () => {
    assert.deepEqual(parseCheckArgs(['a.log', '--as=stdio-log', '--revision', '2025-06-18', '--transport=stdio']), {
      ok: true,
      args: { input: 'a.log', format: 'text', all: false, as: 'stdio-log', revision: '2025-06-18', transport: 'stdio' },
    });
    assert.deepEqual(parseCheckArgs(['a.log', 'b.log']), { ok: false, error: 'check takes one trace file' });
  });
});
