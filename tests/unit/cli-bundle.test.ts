/**
 * The command line's bundle (scripts/build-cli.ts) prints what the TypeScript source prints for
 * a library scenario and an explored one (on the pool's worker threads), its sides in worker
 * threads run from their bundled entries with the source's trace, the launcher (bin/cancel-lab.mjs) runs the bundle only while every file
 * that went into it is older than the build, and its settings for a short process (V8's flags,
 * zod without compiled parsers: bin/short-process.mjs) reach zod and leave every trace as recorded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { runHeadless } from '../../src/host/index.ts';
import { libraryEntry } from '../../src/scenario/index.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCENARIO = join(ROOT, 'content/scenarios/race-r1-cancel-after-response.json');
const EXPLORED = join(ROOT, 'tests/fixtures/explore/r2-latency-range.json');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cancel-lab-bundle-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** stdout and exit code of a command that may exit non-zero (a run that breaks a MUST exits 1). */
async function output(file: string, args: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await run(process.execPath, [file, ...args], { cwd: ROOT });
    return { stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; code?: number };
    return { stdout: failed.stdout ?? '', code: failed.code ?? -1 };
  }
}

test('the bundle prints, for a library scenario, what the source prints, and lists the files that went in', async () => {
  const out = join(dir, 'dist-cli');
  await run(process.execPath, [join(ROOT, 'scripts/build-cli.ts'), out], { cwd: ROOT });
  const manifest = JSON.parse(await readFile(join(out, 'inputs.json'), 'utf8')) as { builtAt: number; inputs: string[] };
  for (const file of ['src/cli/main.ts', 'workers/sides.node.ts', 'workers/runtime.ts', 'workers/explore.node.ts', 'package-lock.json']) assert.ok(manifest.inputs.includes(file), file);
  // The explorer's worker threads have their own bundled entry beside the command line's.
  assert.ok((await readdir(out)).includes('explore.node.mjs'));
  for (const args of [['run', SCENARIO], ['run', SCENARIO, '--json'], ['explore', EXPLORED, '--budget', '40', '--format', 'json']]) {
    const fromBundle = await output(join(out, 'main.mjs'), args);
    const fromSource = await output(join(ROOT, 'src/cli/main.ts'), args);
    assert.ok(fromSource.stdout.length > 100, fromSource.stdout);
    assert.deepEqual(fromBundle, fromSource, args.join(' '));
  }
});

test("the bundle's sides in worker threads load their bundled entries and give the source's trace", async () => {
  const out = join(dir, 'dist-cli-threads');
  await run(process.execPath, [join(ROOT, 'scripts/build-cli.ts'), out], { cwd: ROOT });
  const scenario = libraryEntry('race-r1-cancel-after-response')?.scenario;
  assert.ok(scenario);
  const expected = await runHeadless(scenario);
  // The scratch folder holds no workers/: a thread that reached for the TypeScript entry would die.
  const child = join(dir, 'threads-child.mjs');
  await writeFile(
    child,
    [
      "import module from 'node:module';",
      "import { readFileSync } from 'node:fs';",
      'module.enableCompileCache();',
      `const host = await import(${JSON.stringify(pathToFileURL(join(out, 'host.mjs')).href)});`,
      'const sides = host.createNodeSides({ threads: true });',
      "const trace = await host.runHeadless(JSON.parse(readFileSync(process.argv[2], 'utf8')), sides);",
      'await sides.close();',
      'process.stdout.write(JSON.stringify(trace));',
      '',
    ].join('\n'),
  );
  const scenarioFile = join(dir, 'threads-scenario.json');
  await writeFile(scenarioFile, JSON.stringify(scenario));
  const { stdout } = await run(process.execPath, [child, scenarioFile], { cwd: dir });
  assert.equal(stdout, JSON.stringify(expected));
});

test('the launcher runs the bundle while it is fresh, and the source once a file that went in is newer', async () => {
  const root = join(dir, 'launcher');
  await mkdir(join(root, 'dist-cli'), { recursive: true });
  await mkdir(join(root, 'src/cli'), { recursive: true });
  await cp(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  await writeFile(join(root, 'dist-cli/main.mjs'), "console.log('bundle', process.argv.slice(2).join(' '));\n");
  await writeFile(join(root, 'src/cli/main.ts'), "console.log('source', process.argv.slice(2).join(' '));\n");
  const builtAt = Date.now();
  await writeFile(join(root, 'dist-cli/inputs.json'), JSON.stringify({ builtAt, inputs: ['src/cli/main.ts'] }));
  const launch = (): Promise<string> => run(process.execPath, [join(root, 'bin/cancel-lab.mjs'), 'run', 'x.json']).then((r) => r.stdout);
  const before = new Date(builtAt - 60_000);
  await utimes(join(root, 'src/cli/main.ts'), before, before);
  assert.equal(await launch(), 'bundle run x.json\n');
  const later = new Date(builtAt + 60_000);
  await utimes(join(root, 'src/cli/main.ts'), later, later);
  assert.equal(await launch(), 'source run x.json\n');
  await rm(join(root, 'dist-cli/inputs.json'));
  await utimes(join(root, 'src/cli/main.ts'), before, before);
  assert.equal(await launch(), 'source run x.json\n', 'no manifest, no bundle');
});

test("a short command's process has zod parse without compiling its fast paths; explore's keeps them", async () => {
  // In a process of its own, as the launcher sets one up: every `new Function` counted while an
  // object schema built afterwards parses (zod compiles its fast path at the first parse).
  const compiles = async (command: string): Promise<number> => {
    const script = [
      `import { setUpProcessFor } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin/short-process.mjs')).href)};`,
      `setUpProcessFor(${JSON.stringify(command)});`,
      'let built = 0;',
      'globalThis.Function = new Proxy(Function, { construct: (target, args) => (built++, Reflect.construct(target, args)) });',
      "const z = await import('zod/v4');",
      "z.object({ id: z.number(), name: z.string() }).parse({ id: 1, name: 'a' });",
      'console.log(built);',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    return Number(stdout.trim());
  };
  assert.equal(await compiles('run'), 0, 'run: no parser compiled');
  assert.ok((await compiles('explore')) > 0, 'explore: the parser is compiled');
});

test('the launcher, with its settings for a short process, reproduces every library trace', async () => {
  const library = join(ROOT, 'content/scenarios');
  // Exit 1 (some library scenarios break a MUST on purpose); about 1 MB of JSON Lines.
  const { stdout } = await run(process.execPath, [join(ROOT, 'bin/cancel-lab.mjs'), 'run', library, '--format', 'json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { scenario?: string; reproduction?: { exact: boolean } });
  const runs = lines.filter((line) => line.scenario !== undefined);
  assert.equal(runs.length, (await readdir(library)).filter((name) => name.endsWith('.json')).length);
  for (const run of runs) assert.equal(run.reproduction?.exact, true, run.scenario);
});

test('npm install links cancel-lab in node_modules/.bin, and `npx cancel-lab run` runs the launcher from there', async () => {
  // No bin of the project's own: npx would install the project into its cache first (scripts/link-bin.ts).
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin?: unknown; scripts: Record<string, string> };
  assert.equal(pkg.bin, undefined);
  assert.match(pkg.scripts.prepare ?? '', /scripts\/link-bin\.ts/);
  assert.equal(await realpath(join(ROOT, 'node_modules/.bin/cancel-lab')), await realpath(join(ROOT, 'bin/cancel-lab.mjs')), 'run npm install to link it');
  const { stdout } = await run('npx', ['cancel-lab', 'run', SCENARIO], { cwd: ROOT });
  assert.match(stdout, /Reproduced exactly — trace [0-9a-f]{16}/);
});
