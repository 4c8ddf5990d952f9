/**
 * `cancel-lab explore`'s human-readable output: what was searched, the outcome classes with
 * their counts, and each rule broken with its count and its shrunk witness's link.
 */
import { settingLine } from '../scenario/index.ts';
import type { Exploration, ExploreResult, Witness } from '../explore/index.ts';
import type { Judged } from './judge.ts';
import type { Printed } from './text.ts';
import { plural } from '../trace/index.ts';
import { grouped } from '../trace/index.ts';

/** A witness's link: on the site's playground when its address is known, else the bare fragment `cancel-lab run` takes. */
export function witnessUrl(w: Witness, site: string | undefined): string {
  return site === undefined ? `#${w.link}` : `${site}/playground/#${w.link}`;
}

function searched(e: Exploration, r: ExploreResult): string {
  const shard = e.shard === null ? '' : `, shard ${e.shard.k}/${e.shard.n}`;
  // A search the clock ended ran as many as this machine managed then: said, as the cut of an exhaustive one is.
  const clock = e.budget === null && e.seconds !== null ? `, as many as ${e.seconds} s allowed` : '';
  if (r.strategy === 'random') return `${plural(r.schedules, 'schedule')} drawn at random (seed ${e.seed}${shard}${clock}) from a space too large to run whole`;
  return r.exhausted ? `the whole space: ${plural(r.schedules, 'schedule')}${shard}` : `${plural(r.schedules, 'schedule')} nearest the default (cut at ${e.budget === null ? `the time limit of ${e.seconds ?? '?'} s` : `the budget of ${e.budget}`}${shard})`;
}

function witnessLine(w: Witness, replayed: Judged | undefined): string {
  const replay = replayed?.reproduction ? (replayed.reproduction.exact ? ', its link replays the same trace' : `, BUT its link replayed another trace (${replayed.reproduction.now})`) : '';
  return `smallest witness ${w.schedule}: ${plural(w.steps, 'step')}, ${plural(w.deviations, 'choice')} off the default${replay}`;
}

/** `replayed`: each witness's replay from its link, by its schedule. */
export function exploreText(what: string, e: Exploration, r: ExploreResult, replayed: ReadonlyMap<string, Judged>, exitCode: number, site?: string): Printed {
  const s = e.scenario;
  const stdout = [
    `Explored ${what}: ${settingLine(s)}, until ${s.endAt} ms`,
    `Searched ${searched(e, r)}; ${plural(r.distinctTraces, 'distinct trace')}${r.noVerdict > 0 ? `; ${plural(r.noVerdict, 'schedule')} without a verdict (an engine error or a bound)` : ''}.`,
    ...(s.explore === undefined ? ['The scenario declares no schedule space ("explore"): its one schedule is its own run.'] : []),
    '',
    'Outcome classes (schedules, smallest schedule):',
  ];
  const width = Math.max(...r.classes.map((c) => String(c.schedules).length));
  for (const c of r.classes) stdout.push(`  ${String(c.schedules).padStart(width)}  ${c.outcome}   ${c.witness.schedule}`);
  stdout.push('');
  if (r.rules.length === 0) stdout.push('No explored schedule breaks a rule.');
  else stdout.push('Rules broken:');
  for (const t of r.rules) {
    stdout.push(`  ${t.rule} (${t.must ? 'MUST' : 'SHOULD'}): ${grouped(t.schedules)} of ${plural(r.schedules, 'schedule')}; ${witnessLine(t.witness, replayed.get(t.witness.schedule))}`);
    stdout.push(`    ${witnessUrl(t.witness, site)}`);
  }
  stdout.push('');
  stdout.push(exitCode === 1 ? 'Exit 1: an explored schedule violates a MUST or MUST NOT rule.' : exitCode === 3 ? 'Exit 3: no explored schedule could be judged.' : 'Exit 0: no explored schedule violates a MUST or MUST NOT rule.');
  return { stdout, stderr: [] };
}
