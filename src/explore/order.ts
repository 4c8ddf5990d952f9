/**
 * The one order the explorer takes schedules in, and the order witnesses are compared by; both
 * are functions of the schedule alone, so a budget cuts the same schedules in one process, across
 * worker pairs, and across shards merged.
 */
import { parseSchedule } from '../scenario/index.ts';
import type { ScheduleRecord } from './run-one.ts';

export function choicesOf(schedule: string): number[] {
  const parsed = parseSchedule(schedule);
  return parsed.ok ? parsed.choices : [];
}

/** The choices that are not the default. */
export function deviations(choices: readonly number[]): number {
  return choices.filter((c) => c !== 0).length;
}

/** Fewest deviations first, then the smaller choices, position by position (a missing choice is 0). */
export function compareChoices(a: readonly number[], b: readonly number[]): number {
  const d = deviations(a) - deviations(b);
  if (d !== 0) return d;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = (a[i] ?? 0) - (b[i] ?? 0);
    if (c !== 0) return c;
  }
  return 0;
}

/** The search's order: a random search's by schedule number, an exhaustive one's by compareChoices. */
export function compareRecords(a: ScheduleRecord, b: ScheduleRecord): number {
  if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
  return compareChoices(choicesOf(a.schedule), choicesOf(b.schedule));
}
