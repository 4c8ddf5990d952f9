/**
 * Zod builds no code from strings in a run: it parses without compiling its fast paths
 * (src/trace/zod-jitless.ts), which a fresh pair's first run would otherwise spend a fifth of
 * its time on. Every `new Function` of this process is watched from before the engine, the
 * layers' schemas or the sides are loaded, so a schema built before the setting would show here;
 * the whole library is run, to reach every schema of both SDKs a scenario parses with. (The
 * SDK's Ajv compiles the JSON Schema of an elicitation's form from a string, as it must: that is
 * not zod's, and not counted.)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';

const built: string[] = [];
const RealFunction = Function;
globalThis.Function = new Proxy(RealFunction, {
  construct(target, args: unknown[]) {
    const stack = new Error().stack ?? '';
    if (stack.includes('/node_modules/zod/')) built.push(stack.split('\n').slice(2, 6).join('\n'));
    return Reflect.construct(target, args) as object;
  },
});

// Loaded only now, so that what their modules build as they load is counted too.
const { createNodeSides, runHeadless } = await import('../../src/host/node.ts');
const { parseScenario } = await import('../../src/scenario/index.ts');

const sides = createNodeSides();
after(() => sides.close());

test("no library scenario makes zod compile code from a string, in the SDK's schemas or the lab's", async () => {
  const dir = new URL('../../content/scenarios/', import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  assert.ok(files.length > 50, `${files.length} library scenarios`);
  for (const file of files) {
    const parsed = parseScenario((JSON.parse(await readFile(new URL(file, dir), 'utf8')) as { scenario: unknown }).scenario);
    assert.ok(parsed.ok, file);
    await runHeadless(parsed.scenario, sides);
    assert.deepEqual(built, [], `${file}: code built from strings at\n${built.join('\n---\n')}`);
  }
});
