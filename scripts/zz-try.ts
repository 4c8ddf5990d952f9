import { explore, summarize } from '../src/explore/index.ts';
import { createNodeSides } from '../src/host/index.ts';
import { libraryEntry, parseScenario } from '../src/scenario/index.ts';
const [id, spaceJson, budget = '200'] = process.argv.slice(2);
const entry = libraryEntry(id!);
if (!entry) throw new Error('no ' + id);
if (spaceJson === 'show') { console.log(JSON.stringify(entry.scenario, null, 1)); process.exit(0); }
const parsed = parseScenario({ ...entry.scenario, explore: JSON.parse(spaceJson!) });
if (!parsed.ok) throw new Error(parsed.errors.join('; '));
const sides = createNodeSides();
const t = performance.now();
const r = await summarize(await explore(parsed.scenario, { lanes: [sides], budget: Number(budget) }), [sides]);
console.log(`${r.schedules} schedules (${r.strategy}, exhausted ${r.exhausted}, noVerdict ${r.noVerdict}) in ${(performance.now() - t).toFixed(0)} ms`);
for (const x of r.rules) console.log('  rule', x.rule, x.must ? 'MUST' : 'SHOULD', x.schedules, 'witness', x.witness.schedule, x.witness.steps);
for (const c of r.classes) console.log('  class', c.schedules, c.outcome, c.witness.schedule);
await sides.close(); process.exit(0);
