/**
 * The headless runner: `runScenarioFile` as a function, and the real `cancel-lab` bin spawned
 * as a child process. The exit code follows the findings (1 when a MUST / MUST NOT rule is
 * violated or the client never connected, else 0), `--json` prints JSON Lines, bad input (a
 * setting the playground does not offer, too) exits 2 with one clear line, a run that cannot
 * complete exits 3, never 1, and a permalink's recorded trace hash is compared with the run's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeSides } from '../../src/host/node.ts';
import { formatFindings } from '../../src/cli/format.ts';
import { runScenarioFile, type RunResult } from '../../src/cli/run.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { LIBRARY } from '../../src/scenario/library.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';
import { whyNot } from '../../src/scenario/combinations.ts';
import { checkRun } from '../../src/rules/check-run.ts';
import { CATALOG } from '../../src/rules/catalog.ts';
import { check } from '../../src/rules/checker.ts';
import type { SideApi, Sides, StepResult } from '../../src/engine/index.ts';
import { call, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const BIN = fileURLToPath(new URL('../../bin/cancel-lab.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A forged cancel of initialize on 2025-11-25 stdio: CANCEL-NO-INITIALIZE (MUST NOT). */
const FORGED_INIT_CANCEL: Scenario = scenario([call(20, 'A', 'quick'), { at: 50, action: { type: 'inject-cancel', initialize: true } }], { endAt: 1000 });
/** slow_count and Stop on the real SDK on both sides: nothing a MUST forbids. */
const CLEAN: Scenario = scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(240, 'A')], { endAt: 1000 });

let dir = '';
const file = (name: string): string => join(dir, name);
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cancel-lab-cli-'));
  await writeFile(file('violates.json'), JSON.stringify(FORGED_INIT_CANCEL));
  await writeFile(file('clean.json'), JSON.stringify(CLEAN, null, 2));
  await writeFile(file('broken.json'), '{"version": 1, "revision": ');
  await writeFile(file('invalid.json'), JSON.stringify({ ...CLEAN, latency: { c2s: -5, s2c: 5 }, steps: [{ at: 0, action: { type: 'stop' } }] }));
  await writeFile(file('sse-2025.json'), JSON.stringify({ ...CLEAN, transport: 'http-sse' }));
  await writeFile(file('py-v1-2026.json'), JSON.stringify({ ...CLEAN, revision: '2026-07-28', serverProfile: 'py-v1' }));
  await writeFile(file('ts-v1-2026.json'), JSON.stringify({ ...CLEAN, revision: '2026-07-28', clientProfile: 'ts-v1' }));
  await writeFile(file('stop-unknown.json'), JSON.stringify(scenario([call(20, 'A', 'quick'), stop(50, 'Z')], { endAt: 500 })));
  await writeFile(file('stop-before-call.json'), JSON.stringify(scenario([stop(10, 'A'), call(20, 'A', 'quick')], { endAt: 500 })));
  await writeFile(file('call-twice.json'), JSON.stringify(scenario([call(20, 'A', 'quick'), call(30, 'A', 'quick')], { endAt: 500 })));
  await writeFile(
    file('forged-unknown.json'),
    JSON.stringify(scenario([call(20, 'A', 'quick'), { at: 30, action: { type: 'inject-progress', call: 'A', onStreamOf: 'B' } }, { at: 40, after: { method: 'response', call: 'C' }, action: { type: 'disconnect' } }], { endAt: 500 })),
  );
  await writeFile(file('crash-over-http.json'), JSON.stringify(scenario([call(20, 'A', 'quick'), { at: 30, action: { type: 'crash-server' } }], { transport: 'streamable-http', endAt: 500 })));
  // Progress forged on HTTP before the call's POST has a stream: only the run can tell.
  await writeFile(file('progress-no-stream.json'), JSON.stringify(scenario([call(0, 'A', 'quick'), { at: 0, action: { type: 'inject-progress', call: 'A' } }], { transport: 'streamable-http', endAt: 500 })));
});
after(() => rm(dir, { recursive: true, force: true }));

const run = (input: string, json = false): Promise<RunResult> => runScenarioFile(input, { json, sides, cwd: dir });

function mustViolations(result: RunResult): string[] {
  return result.findings.filter((f) => f.severity === 'error' && f.verdict === 'violated').map((f) => f.rule);
}

describe('runScenarioFile', () => {
  test('a scenario that violates a MUST exits 1 (forged cancel of initialize → CANCEL-NO-INITIALIZE)', async () => {
    const result = await run('violates.json');
    assert.equal(result.exitCode, 1);
    assert.equal(result.error, null);
    assert.ok(mustViolations(result).includes('CANCEL-NO-INITIALIZE'), mustViolations(result).join(', '));
    assert.ok(result.trace.length > 0);
    const text = result.stdout.join('\n');
    assert.match(text, /^ {2}MUST broken +CANCEL-NO-INITIALIZE: /m);
    assert.match(text, /user: forge a cancel for initialize/);
    assert.match(text, /^Exit 1: /m);
  });

  test('a clean scenario exits 0, and the text output shows the trace and the findings', async () => {
    const result = await run(file('clean.json'));
    assert.equal(result.exitCode, 0);
    assert.deepEqual(mustViolations(result), []);
    const text = result.stdout.join('\n');
    assert.match(text, new RegExp(`^Trace \\(${result.trace.length} events, hash ${result.traceHash ?? ''}\\):$`, 'm'));
    assert.match(text, /notifications\/cancelled of id 1 \(reason "user pressed Stop"\)/);
    assert.match(text, /call A \(id 1\): RUNNING → CANCEL_REQUESTED \(Stop pressed\)/);
    assert.match(text, /^Findings \(\d+\): 0 errors \(MUST broken\) · 0 warnings \(SHOULD not followed\) · /m);
    assert.deepEqual(result.stderr, []);
  });

  test('--json: one JSON line per trace event, then {"findings", "exitCode"}', async () => {
    const result = await run('violates.json', true);
    const lines = result.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(lines.length, result.trace.length + 1);
    lines.slice(0, -1).forEach((event, i) => {
      assert.equal(event.seq, i);
      assert.equal(typeof event.kind, 'string');
    });
    const last = lines.at(-1) as { findings: unknown[]; exitCode: number; traceHash: string };
    assert.equal(last.exitCode, 1);
    assert.deepEqual(last.findings, JSON.parse(JSON.stringify(result.findings)));
    assert.equal(last.traceHash, result.traceHash);
  });

  test('a library file is a scenario too, and its recorded trace hash is checked', async () => {
    const entry = LIBRARY.find((e) => e.id === 'race-r2-response-crosses-cancel');
    assert.ok(entry);
    const result = await runScenarioFile(fileURLToPath(new URL(`../../content/scenarios/${entry.id}.json`, import.meta.url)), { sides });
    assert.deepEqual(result.reproduction, { recorded: entry.trace, now: entry.trace, exact: true });
    assert.ok(result.stdout.includes(`Reproduced exactly — trace ${entry.trace}, engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`), result.stdout.slice(-3).join('\n'));
  });

  test('a permalink (URL, #fragment or bare) runs, and says whether it reproduced the recorded trace', async () => {
    const first = await run('clean.json');
    const hash = first.traceHash ?? '';
    const link = await encodeLink(CLEAN, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: hash });
    for (const input of [`http://localhost:4321/playground/#${link}`, `#${link}`, link]) {
      const result = await run(input);
      assert.equal(result.exitCode, 0, input.slice(0, 40));
      assert.equal(result.traceHash, hash);
      assert.deepEqual(result.reproduction, { recorded: hash, now: hash, exact: true, engine: ENGINE_VERSION, sdk: SDK_VERSION });
      assert.ok(result.stdout.includes(`Reproduced exactly — trace ${hash}, engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`));
    }
    const stale = await encodeLink(CLEAN, { engine: '0.0.9', sdk: '2.3.0', trace: '0000000000000000' });
    const differs = await run(stale);
    assert.equal(differs.reproduction?.exact, false);
    assert.ok(
      differs.stdout.includes(
        `The trace differs from the one recorded with another engine — recorded 0000000000000000 with engine 0.0.9 and SDK 2.3.0; now ${hash} with engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`,
      ),
      differs.stdout.slice(-3).join('\n'),
    );
    const jsonDiffers = await run(stale, true);
    assert.deepEqual((JSON.parse(jsonDiffers.stdout.at(-1) ?? '{}') as { reproduction: unknown }).reproduction, {
      recorded: '0000000000000000',
      now: hash,
      exact: false,
      engine: '0.0.9',
      sdk: '2.3.0',
    });
    assert.match(jsonDiffers.stderr.join('\n'), /^cancel-lab: The trace differs from the one recorded with another engine — /);
  });

  const bad: [string, string, RegExp][] = [
    ['a missing file', 'nope.json', /^Cannot read nope\.json: no such file\.$/],
    ['a directory', '.', /^Cannot read \.: it is a directory\.$/],
    ['invalid JSON', 'broken.json', /^broken\.json is not valid JSON: .+\.$/],
    ['a scenario the schema refuses (with paths)', 'invalid.json', /^invalid\.json is not a valid scenario: latency\.c2s: .+; steps\.0\.action\.call: .+\.$/],
    ['a Stop for a call the scenario never makes', 'stop-unknown.json', /^stop-unknown\.json is not a valid scenario: steps\.1\.action\.call: Stop names call "Z", which no "call" step of this scenario makes\.$/],
    ['a Stop before its call is made', 'stop-before-call.json', /^stop-before-call\.json is not a valid scenario: steps\.0\.action\.call: Stop at 10 ms names call "A" before it is made \(steps\.1, at 20 ms\)\.$/],
    ['a call name used twice', 'call-twice.json', /^call-twice\.json is not a valid scenario: steps\.1\.action\.call: call "A" is already made by steps\.0: each call needs a name of its own\.$/],
    [
      'a forged frame and a trigger naming unknown calls',
      'forged-unknown.json',
      /^forged-unknown\.json is not a valid scenario: steps\.1\.action\.onStreamOf: the forged progress names call "B", which no "call" step of this scenario makes; steps\.2\.after\.call: waits for call "C", which no "call" step of this scenario makes\.$/,
    ],
    [
      'a crash a Streamable HTTP server cannot take',
      'crash-over-http.json',
      /^crash-over-http\.json is not a valid scenario: steps\.1\.action\.type: only a stdio server process can be made to crash; this scenario runs over streamable-http\.$/,
    ],
    ['a broken link', 'v1.AAAA', /^This link is damaged or cut short: it does not decompress\.$/],
    ['a link of another format', 'v9.AAAA', /^This link is not a Cancel Lab scenario: it should start with "v1\."\.$/],
    ['a URL without a fragment', 'https://example.test/playground/', /^This URL has no #fragment: .+\.$/],
    ['nothing', '  ', /^No scenario given: .+\.$/],
  ];
  for (const [name, input, message] of bad) {
    test(`bad input exits 2 with one clear line: ${name}`, async () => {
      const result = await run(input);
      assert.equal(result.exitCode, 2);
      assert.match(result.error ?? '', message);
      assert.deepEqual(result.stderr, [`cancel-lab: ${result.error ?? ''}`]);
      assert.deepEqual(result.stdout, []);
      assert.deepEqual(result.trace, []);
      const json = await run(input, true);
      assert.deepEqual(
        json.stdout.map((line) => JSON.parse(line) as unknown),
        [{ findings: [], exitCode: 2, error: result.error }],
      );
    });
  }
});

describe('a scenario mistake is refused the same way in a file and in a link', () => {
  test('a link whose scenario stops a call it never makes exits 2 with the path and the reason', async () => {
    const link = await encodeLink(scenario([call(20, 'A', 'quick'), stop(50, 'Z')], { endAt: 500 }), { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' });
    const result = await run(link);
    assert.equal(result.exitCode, 2);
    assert.equal(result.error, 'This link\'s scenario is not valid: steps.1.action.call: Stop names call "Z", which no "call" step of this scenario makes');
    assert.deepEqual(result.trace, []);
  });
});

/** A side that answers nothing: `init` is what the test makes of it; everything after it is quiet. */
function fakeSide<A>(init: () => Promise<StepResult>): SideApi<A> {
  const quiet = (): Promise<StepResult> => Promise.resolve({ out: [], nextTimerAt: null });
  return { init, deliver: quiet, fireTimer: quiet, act: quiet };
}

function fakeSides(init: () => Promise<StepResult>): Sides {
  return { client: fakeSide(init), server: fakeSide(init) };
}

describe('what the runner refuses, and how a run that cannot complete ends', () => {
  const refused: [string, string, Parameters<typeof whyNot>][] = [
    ['HTTP+SSE on 2025-11-25', 'sse-2025.json', ['2025-11-25', 'http-sse']],
    ['a python-sdk 1.x server on 2026-07-28', 'py-v1-2026.json', ['2026-07-28', 'stdio', undefined, { server: 'py-v1' }]],
    ['a TypeScript SDK v1 client on 2026-07-28', 'ts-v1-2026.json', ['2026-07-28', 'stdio', undefined, { client: 'ts-v1' }]],
  ];
  for (const [name, input, setting] of refused) {
    test(`a setting the pickers disable exits 2 with the pickers' reason: ${name}`, async () => {
      const reason = whyNot(...setting);
      assert.ok(reason !== null);
      const result = await run(input);
      assert.equal(result.exitCode, 2);
      assert.equal(result.error, `${input} asks for a setting the playground does not offer: ${reason}`);
      assert.deepEqual(result.trace, []);
      assert.deepEqual(result.stderr, [`cancel-lab: ${result.error ?? ''}`]);
    });
  }

  test('a client that never connected is a finding (exit 1), not a silent 0', async () => {
    const path = fileURLToPath(new URL('../../content/scenarios/sdk-ts-v2-connect-timeout-sends-no-cancel.json', import.meta.url));
    const result = await runScenarioFile(path, { sides });
    assert.equal(result.exitCode, 1);
    assert.equal(result.problem?.kind, 'not-connected');
    assert.equal(mustViolations(result).length, 0, 'no MUST is broken: the exit code comes from the missing connection');
    assert.equal(result.stdout.at(-1), 'Exit 1: the client never connected, so nothing the scenario asks for was judged.');
  });

  test('an engine error (progress forged before any stream can carry it) exits 3 with the engine\'s message', async () => {
    const result = await run('progress-no-stream.json');
    assert.equal(result.exitCode, 3);
    assert.equal(result.problem?.kind, 'engine-error');
    assert.match(result.error ?? '', /^The engine reported an error at 0 ms: no open SSE stream can carry \{.+\}\. /);
    assert.deepEqual(result.stderr, [`cancel-lab: ${result.error ?? ''}`]);
  });

  test('a worker that fails exits 3, never 1', async () => {
    const crashing = fakeSides(() => Promise.reject(new Error('worker exited with code 1')));
    const result = await runScenarioFile('violates.json', { sides: crashing, cwd: dir });
    assert.equal(result.exitCode, 3);
    assert.equal(result.problem?.kind, 'run-failed');
    assert.equal(result.error, 'The run stopped because a side failed: the server failed in starting: worker exited with code 1.');
    // What ran is judged, but it is not a verdict: the exit code is 3 whatever the findings say.
    assert.equal(result.stdout.at(-1), 'Exit 3: the run could not complete, so the findings cover only the trace above.');
  });

  test('a worker that never answers hangs only until the wall-clock bound, then exits 3', async () => {
    const silent = fakeSides(() => new Promise<StepResult>(() => {}));
    const started = Date.now();
    const result = await runScenarioFile('clean.json', { sides: silent, cwd: dir, wallClockMs: 300, json: true });
    assert.ok(Date.now() - started < 5000);
    assert.equal(result.exitCode, 3);
    assert.equal(result.problem?.kind, 'hang');
    assert.match(result.error ?? '', /^The run did not finish within its wall-clock bound of 300 ms: /);
    assert.deepEqual(JSON.parse(result.stdout.at(-1) ?? '{}'), { findings: [], exitCode: 3, error: result.error });
  });
});

describe('a run is judged by the revision it negotiated', () => {
  test('a 2025-11-25 trace judged for a scenario that asks for 2026-07-28 gets the 2025-11-25 rules', async () => {
    const result = await run('clean.json');
    assert.equal(result.scenario?.revision, '2025-11-25');
    const asks2026 = { ...CLEAN, revision: '2026-07-28' as const };
    const judged = checkRun(asks2026, result.trace);
    assert.deepEqual(judged, check(CATALOG, '2025-11-25', 'stdio', result.trace));
    assert.notDeepEqual(judged, check(CATALOG, '2026-07-28', 'stdio', result.trace), 'the two revisions judge this trace differently, so the test can tell them apart');
  });
});

describe('formatFindings', () => {
  const f = (rule: string, severity: 'error' | 'warning' | 'info', verdict: 'violated' | 'satisfied' | 'cannot-tell' | 'not-applicable', witnesses: number[] = []) => ({ rule, severity, verdict, witnesses, why: 'why' });
  const findings = [f('CANCEL-WHO', 'info', 'satisfied', [4]), f('CANCEL-NO-RESPONSE', 'warning', 'violated', [7, 9]), f('CANCEL-REF-INPROGRESS', 'info', 'satisfied', [4]), f('TIMEOUT-MAX', 'warning', 'cannot-tell')];
  const setting = { revision: '2025-11-25', transport: 'stdio' } as const;

  test('the counts, then the notable findings in listing order, labels aligned', () => {
    assert.deepEqual(formatFindings(findings, setting), [
      'Findings (4): 0 errors (MUST broken) · 1 warning (SHOULD not followed) · 1 allowed race or open point (info) · 1 rule satisfied · 1 can’t tell from this trace · 0 not applicable',
      '  SHOULD not followed CANCEL-NO-RESPONSE: why [events #7 #9]',
      '  allowed race        CANCEL-REF-INPROGRESS: why [events #4]',
    ]);
  });

  test('--all: every finding, the rest after the notable ones', () => {
    assert.deepEqual(formatFindings(findings, setting, true).slice(3), ['  satisfied           CANCEL-WHO: why [events #4]', '  can’t tell          TIMEOUT-MAX: why']);
  });
});

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnBin(node: string, args: string[]): Promise<Spawned> {
  return new Promise((resolve) => {
    execFile(node, [BIN, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the cancel-lab bin (spawned)', () => {
  test('run <file> --json: exit 1 on a MUST violation, and every stdout line is JSON', async () => {
    const { code, stdout, stderr } = await spawnBin(process.execPath, ['run', file('violates.json'), '--json']);
    assert.equal(code, 1, stderr);
    const lines = stdout.trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const last = parsed.at(-1) as { exitCode: number; findings: { rule: string; severity: string; verdict: string }[] };
    assert.equal(last.exitCode, 1);
    assert.ok(last.findings.some((f) => f.rule === 'CANCEL-NO-INITIALIZE' && f.severity === 'error' && f.verdict === 'violated'));
    assert.ok(parsed.slice(0, -1).every((event, i) => event.seq === i));
    assert.equal(stderr, '');
  });

  test('run <clean file>: exit 0, human-readable trace', async () => {
    const { code, stdout } = await spawnBin(process.execPath, ['run', file('clean.json')]);
    assert.equal(code, 0);
    assert.match(stdout, /^Trace \(\d+ events, hash [0-9a-f]{16}\):$/m);
    assert.match(stdout, /^Exit 0: /m);
  });

  test('bad input and bad usage: exit 2 with a clear message on stderr', async () => {
    const missing = await spawnBin(process.execPath, ['run', file('missing.json')]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `cancel-lab: Cannot read ${file('missing.json')}: no such file.\n`);
    assert.equal(missing.stdout, '');
    const usage = await spawnBin(process.execPath, ['frobnicate']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^cancel-lab: unknown command "frobnicate"\.\n\nUsage: cancel-lab run /);
  });

  test('a reader that stops early (`| head -1`) ends the output quietly, with the run\'s exit code', async () => {
    // The pipe is closed at the first chunk, as head closes it after its line: the rest of the
    // trace is written into a closed pipe (EPIPE), which printed a stack trace and exited 1.
    // 400 progress frames: a JSON trace of some 200 KB, more than the pipe holds.
    await writeFile(file('long.json'), JSON.stringify(scenario([call(20, 'A', 'slow_count', { steps: 400, stepMs: 1 })], { endAt: 1000 })));
    const child = spawn(process.execPath, [BIN, 'run', file('long.json'), '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p));
  test('started by an older system Node, the launcher re-executes on node_modules/node', { skip: oldNode === undefined && 'no system Node here' }, async () => {
    const { code, stdout } = await spawnBin(oldNode as string, ['run', file('clean.json'), '--json']);
    assert.equal(code, 0);
    assert.equal((JSON.parse(stdout.trimEnd().split('\n').at(-1) ?? '{}') as { exitCode: number }).exitCode, 0);
  });
});
