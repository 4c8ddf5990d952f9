/**
 * What a search found: how many schedules ran, how many distinct traces they made, each outcome
 * class with its count and its smallest schedule, and each rule broken with its count and its
 * smallest witness, shrunk, as a permalink that replays exactly that run. A function of the
 * scenario and the records alone (and of runs, which are deterministic), so a merged search
 * gives the unsharded one's result.
 */
import { choicesOf, compareChoices, deviations, formatSchedule, permalinkOf, withSchedule, type Scenario } from '../scenario/index.ts';
import type { Lane } from './lane.ts';
import type { ScheduleRecord } from './run-one.ts';
import type { Exploration, Strategy } from './search.ts';
import { shrinkWitness } from './shrink.ts';

export interface Witness {
  schedule: string;
  steps: number;
  deviations: number;
  traceHash: string;
  /** The scenario that replays it: the explored one (or fewer of its steps) with `explore.schedule` set. */
  scenario: Scenario;
  /** The permalink's fragment (v1.…), stamped with the trace hash the run gave. */
  link: string;
}

export interface RuleTally {
  rule: string;
  /** A MUST / MUST NOT rule (else a SHOULD). */
  must: boolean;
  schedules: number;
  witness: Witness;
}

export interface ClassTally {
  outcome: string;
  schedules: number;
  /** Its smallest schedule as explored (not shrunk). */
  witness: Witness;
}

export interface ExploreResult {
  strategy: Strategy;
  exhausted: boolean;
  schedules: number;
  distinctTraces: number;
  /** Schedules whose run is no verdict (an engine error, a bound, a side that failed). */
  noVerdict: number;
  rules: RuleTally[];
  classes: ClassTally[];
  mustBroken: boolean;
}

async function witnessOf(scenario: Scenario, choices: readonly number[], traceHash: string): Promise<Witness> {
  const replays = withSchedule(scenario, choices);
  const link = await permalinkOf(replays, traceHash);
  return { schedule: formatSchedule(choices), steps: scenario.steps.length, deviations: deviations(choices), traceHash, scenario: replays, link };
}

function smallest(records: readonly ScheduleRecord[]): ScheduleRecord {
  return records.reduce((a, b) => (compareChoices(choicesOf(b.schedule), choicesOf(a.schedule)) < 0 ? b : a));
}

/** Tallies the records and shrinks one witness per rule broken, on the given lanes (one rule per lane at a time). */
export async function summarize(exploration: Exploration, lanes: readonly Lane[]): Promise<ExploreResult> {
  const { scenario, records } = exploration;
  const judged = records.filter((r) => r.problem === undefined);
  const classes: ClassTally[] = [];
  for (const outcome of [...new Set(records.map((r) => r.outcome))].sort()) {
    const of = records.filter((r) => r.outcome === outcome);
    const first = smallest(of);
    classes.push({ outcome, schedules: of.length, witness: await witnessOf(scenario, choicesOf(first.schedule), first.traceHash) });
  }
  const ruleIds = [...new Set(judged.flatMap((r) => r.violated))].sort();
  const rules: (RuleTally | null)[] = ruleIds.map(() => null);
  let next = 0;
  const lane = async (on: Lane): Promise<void> => {
    for (let i = next++; i < ruleIds.length; i = next++) {
      const rule = ruleIds[i] as string;
      const breaking = judged.filter((r) => r.violated.includes(rule));
      const start = smallest(breaking);
      const startRan = { record: start, choices: choicesOf(start.schedule), options: [], broken: false };
      const shrunk = await shrinkWitness({ scenario, ran: startRan }, rule, on);
      const witness = await witnessOf(shrunk.scenario, shrunk.ran.choices, shrunk.ran.record.traceHash);
      rules[i] = { rule, must: breaking.some((r) => r.must.includes(rule)), schedules: breaking.length, witness };
    }
  };
  await Promise.all(lanes.map(lane));
  const tallies = rules.filter((r): r is RuleTally => r !== null);
  return {
    strategy: exploration.strategy,
    exhausted: exploration.exhausted,
    schedules: records.length,
    distinctTraces: new Set(records.map((r) => r.traceHash)).size,
    noVerdict: records.length - judged.length,
    rules: tallies,
    classes,
    mustBroken: tallies.some((r) => r.must),
  };
}
