/**
 * The one way product code judges a run: the catalog's rules for the scenario's revision and
 * transport, applied to its trace (and to its index, when the caller has built it already).
 */
import type { Scenario } from '../scenario/index.ts';
import type { TraceEvent, TraceIndex } from '../trace/index.ts';
import { CATALOG } from './catalog.ts';
import { check, type Finding } from './checker.ts';

export function checkRun(scenario: Pick<Scenario, 'revision' | 'transport'>, trace: readonly TraceEvent[], index?: TraceIndex): Finding[] {
  return check(CATALOG, scenario.revision, scenario.transport, trace, index);
}

/** The rules a run breaks (MUST / SHOULD violated, not info): what a library file's `violates` records. */
export function violatedRules(scenario: Pick<Scenario, 'revision' | 'transport'>, trace: readonly TraceEvent[]): string[] {
  const rules = checkRun(scenario, trace)
    .filter((f) => f.verdict === 'violated' && f.severity !== 'info')
    .map((f) => f.rule);
  return [...new Set(rules)].sort();
}
