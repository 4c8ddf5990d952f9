/**
 * Many scenarios in one process: `cancel-lab run a.json b.json folder/` runs each (a folder
 * stands for its *.json files, in name order), prints each one's findings and a summary table,
 * and exits with the highest exit code, so a repository's whole scenario folder is one CI step.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJunit, type TestSuites } from 'junit2json';
import { createNodeSides } from '../../src/host/node.ts';
import { expandInputs, runScenarios } from '../../src/cli/run.ts';
import { USAGE, parseArgs } from '../../src/cli/args.ts';
import { CATALOG } from '../../src/rules/catalog.ts';
import { call, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const BIN = fileURLToPath(new URL('../../bin/cancel-lab.mjs', import.meta.url));
let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cancel-lab-many-'));
  await mkdir(join(dir, 'scenarios'));
  await writeFile(join(dir, 'scenarios', 'b-violates.json'), JSON.stringify(scenario([call(20, 'A', 'quick'), { at: 50, action: { type: 'inject-cancel', initialize: true } }], { endAt: 1000 })));
  await writeFile(join(dir, 'scenarios', 'a-clean.json'), JSON.stringify(scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(240, 'A')], { endAt: 1000 })));
  await writeFile(join(dir, 'scenarios', 'notes.txt'), 'not a scenario');
  await writeFile(join(dir, 'clean.json'), JSON.stringify(scenario([call(20, 'A', 'quick')], { endAt: 500 })));
});
after(() => rm(dir, { recursive: true, force: true }));

describe('runScenarios', () => {
  test('a folder stands for its *.json files in name order; other inputs stand for themselves', async () => {
    assert.deepEqual(await expandInputs(['clean.json', 'scenarios', 'missing.json'], dir), ['clean.json', join('scenarios', 'a-clean.json'), join('scenarios', 'b-violates.json'), 'missing.json']);
  });

  test('files and a folder: each scenario’s findings, a summary table, and the highest exit code', async () => {
    const result = await runScenarios(['clean.json', 'scenarios'], { sides, cwd: dir });
    assert.deepEqual(
      result.runs.map((r) => [r.input, r.exitCode]),
      [
        ['clean.json', 0],
        [join('scenarios', 'a-clean.json'), 0],
        [join('scenarios', 'b-violates.json'), 1],
      ],
    );
    assert.equal(result.exitCode, 1);
    const text = result.stdout.join('\n');
    assert.match(text, /^== scenarios\/b-violates\.json: 2025-11-25 · stdio$/m);
    assert.match(text, /^ {2}MUST broken +CANCEL-NO-INITIALIZE: /m);
    assert.match(text, /^Summary \(3 scenarios\): 2 passed · 1 MUST broken · 0 never connected · 0 bad input · 0 could not complete$/m);
    assert.match(text, /^exit +outcome +MUST +SHOULD +revision +scenario$/m);
    assert.match(text, /^1 +MUST broken +[1-9]\d* +\d+ +2025-11-25 +scenarios\/b-violates\.json$/m);
    assert.equal(result.stdout.at(-1), 'Exit 1: the highest exit code of the scenarios (a MUST or MUST NOT rule is violated, or a client never connected).');
    assert.ok(!text.includes('Trace ('), 'many scenarios print no traces');
  });

  test('bad input outranks a broken MUST, and is named on stderr', async () => {
    const result = await runScenarios(['scenarios', 'missing.json'], { sides, cwd: dir });
    assert.equal(result.exitCode, 2);
    assert.deepEqual(result.stderr, ['cancel-lab: missing.json: Cannot read missing.json: no such file.']);
    assert.match(result.stdout.join('\n'), /^2 +bad input +- +- +- +missing\.json$/m);
  });

  test('--format checks: the conformance suite’s list of results; --format junit: a testsuite each; --format json: a line each', async () => {
    const checks = JSON.parse((await runScenarios(['scenarios'], { sides, cwd: dir, format: 'checks' })).stdout.join('\n')) as { scenario: string; checks: { id: string }[] }[];
    assert.deepEqual(
      checks.map((c) => c.scenario),
      [join('scenarios', 'a-clean.json'), join('scenarios', 'b-violates.json')],
    );
    assert.ok(checks[1]?.checks.some((c) => c.id === 'CANCEL-NO-INITIALIZE'));
    const junit = (await parseJunit((await runScenarios(['scenarios'], { sides, cwd: dir, format: 'junit' })).stdout.join('\n'))) as TestSuites;
    assert.equal(junit.testsuite?.length, 2);
    assert.equal(junit.failures, junit.testsuite?.reduce((sum, s) => sum + (s.failures ?? 0), 0));
    const json = (await runScenarios(['scenarios'], { sides, cwd: dir, format: 'json' })).stdout.map((l) => JSON.parse(l) as { scenario?: string; exitCode: number; scenarios?: number });
    assert.deepEqual(
      json.map((l) => [l.scenario, l.exitCode]),
      [
        [join('scenarios', 'a-clean.json'), 0],
        [join('scenarios', 'b-violates.json'), 1],
        [undefined, 1],
      ],
    );
    assert.equal(json.at(-1)?.scenarios, 2);
  });
});

describe('the command line', () => {
  test('arguments: formats, the older --json, unknown options and formats', () => {
    assert.deepEqual(parseArgs(['run', 'a.json', 'b/', '--format', 'sarif']), { ok: true, args: { inputs: ['a.json', 'b/'], format: 'sarif', all: false } });
    assert.deepEqual(parseArgs(['run', 'a.json', '--format=junit', '--all']), { ok: true, args: { inputs: ['a.json'], format: 'junit', all: true } });
    assert.deepEqual(parseArgs(['run', 'a.json', '--json']), { ok: true, args: { inputs: ['a.json'], format: 'json', all: false } });
    assert.deepEqual(parseArgs(['run', 'a.json', '--format', 'xml']), { ok: false, error: '--format takes one of text, json, checks, junit, sarif, not "xml"' });
    assert.deepEqual(parseArgs(['run', 'a.json', '--frob']), { ok: false, error: 'unknown option --frob' });
    assert.deepEqual(parseArgs(['run']), { ok: false, error: 'no scenario given' });
  });

  test('the usage says how many rules are judged, counted from the catalog', () => {
    const judged = CATALOG.filter((r) => r.judged).length;
    assert.ok(judged > 0 && judged < CATALOG.length);
    assert.ok(USAGE.includes(`the checker judges ${judged} of the catalog's ${CATALOG.length} rules from the trace`));
    // The README says the same number, in its "In CI" section.
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    assert.ok(readme.includes(`the checker judges **${judged} of the catalog's ${CATALOG.length} rules**`), 'README.md states the current count');
  });

  test('the bin runs a folder with --format junit and exits with the highest code', async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) => {
      execFile(process.execPath, [BIN, 'run', 'scenarios', '--format', 'junit'], { cwd: dir, timeout: 60_000 }, (error, out) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out });
      });
    });
    assert.equal(code, 1);
    const parsed = (await parseJunit(stdout)) as TestSuites;
    assert.deepEqual(
      parsed.testsuite?.map((s) => s.name),
      [join('scenarios', 'a-clean.json'), join('scenarios', 'b-violates.json')],
    );
  });
});
