/**
 * `npm run record-library`: runs every scenario of content/scenarios/ headlessly (the real SDK
 * in this process, each side with its own virtual clock) and writes its trace hash into the file's "trace" field, and re-makes the
 * `v1.` permalinks the lessons embed (`<Scenario src="v1.…">`: each carries the engine version
 * and its run's trace hash). Run it after an engine or SDK change that is meant to change traces
 * (and bumps ENGINE_VERSION), or after adding a scenario.
 *
 *   npm run record-library              rewrite the "trace" fields that changed
 *   npm run record-library -- --check   change nothing; exit 1 if a recorded hash is stale
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createNodeSides, runHeadless } from '../src/host/index.ts';
import { LIBRARY } from '../src/scenario/index.ts';
import { decodeLink, parseScenario, permalinkOf } from '../src/scenario/index.ts';
import { traceHash } from '../src/trace/index.ts';
import { violatedRules } from '../src/rules/index.ts';

const dir = fileURLToPath(new URL('../content/scenarios/', import.meta.url));
const checkOnly = process.argv.includes('--check');

const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
const listed = new Set(LIBRARY.map((entry) => entry.id));
const sides = createNodeSides();
let stale = 0;
let failed = 0;
try {
  for (const file of files) {
    const path = `${dir}${file}`;
    const entry = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const parsed = parseScenario(entry.scenario);
    if (!parsed.ok) {
      console.error(`${file}: invalid scenario: ${parsed.errors.join('; ')}`);
      failed++;
      continue;
    }
    if (entry.id !== file.slice(0, -'.json'.length)) console.warn(`${file}: its "id" (${String(entry.id)}) should be the file name without .json`);
    if (!listed.has(file.slice(0, -'.json'.length))) console.warn(`${file}: not listed in src/scenario/library.ts; import it there`);
    const trace = await runHeadless(parsed.scenario, sides);
    const hash = await traceHash(trace);
    // The MUST and SHOULD rules the run breaks: the rule reference links each rule to a scenario that breaks it.
    const violates = violatedRules(parsed.scenario, trace);
    if (entry.trace === hash && JSON.stringify(entry.violates) === JSON.stringify(violates)) {
      console.log(`${file}: ${hash} (unchanged)`);
      continue;
    }
    stale++;
    if (checkOnly) {
      console.log(`${file}: ${hash} (recorded ${String(entry.trace) || 'nothing'})`);
      continue;
    }
    const before = typeof entry.trace === 'string' && entry.trace !== '' ? entry.trace : 'nothing';
    entry.trace = hash;
    entry.violates = violates;
    await writeFile(path, `${JSON.stringify(entry, null, 2)}\n`);
    console.log(`${file}: ${hash} (updated; was ${before})`);
  }
  // The lessons' permalink embeds: re-made from a fresh run when the engine or the trace moved.
  const lessons = fileURLToPath(new URL('../content/docs/lessons/', import.meta.url));
  for (const file of (await readdir(lessons)).filter((f) => f.endsWith('.mdx')).sort()) {
    const path = `${lessons}${file}`;
    const text = await readFile(path, 'utf8');
    let next = text;
    for (const [, link] of text.matchAll(/<Scenario\b[^>]*?\bsrc="(v1\.[^"]+)"/g)) {
      if (link === undefined) continue;
      const decoded = await decodeLink(link);
      if (!decoded.ok) {
        console.error(`${file}: a permalink embed does not open: ${decoded.error}`);
        failed++;
        continue;
      }
      const fresh = await permalinkOf(decoded.scenario, await traceHash(await runHeadless(decoded.scenario, sides)));
      if (fresh === link) continue;
      stale++;
      console.log(`${file}: a permalink embed is stale (${decoded.meta?.engine ?? 'no'} engine, trace ${decoded.meta?.trace ?? 'none'})`);
      next = next.replace(link, fresh);
    }
    if (!checkOnly && next !== text) await writeFile(path, next);
  }
} finally {
  await sides.close();
}
if (failed) process.exitCode = 2;
else if (checkOnly && stale) {
  console.error(`${stale} recorded trace hash${stale === 1 ? ' is' : 'es are'} stale: run npm run record-library`);
  process.exitCode = 1;
} else console.log(checkOnly ? 'every recorded trace hash and lesson permalink matches' : `${files.length} scenarios and the lessons' permalinks: ${stale} updated`);
