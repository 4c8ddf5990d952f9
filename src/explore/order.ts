/**
 * The one order the explorer takes schedules in; like the order witnesses are compared by
 * (compareChoices, with the schedule strings in src/scenario), it is a function of the schedule
 * alone, so a budget cuts the same schedules in one process, across worker pairs, and across
 * shards merged.
 */
import { choicesOf, compareChoices } from '../scenario/index.ts';
import type { ScheduleRecord } from './run-one.ts';

/** The search's order: a random search's by schedule number, an exhaustive one's by compareChoices. */
export function compareRecords(a: ScheduleRecord, b: ScheduleRecord): number {
  if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
  return compareChoices(choicesOf(a.schedule), choicesOf(b.schedule));
}
