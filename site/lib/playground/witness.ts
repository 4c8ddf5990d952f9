import type { Scenario } from '../../../src/scenario/index.ts';

/**
 * The scenario without the schedule it was opened with. A schedule is the choices of one run of
 * one scenario (an explorer's witness): once the user changes the scenario (the editor, a
 * picker, a fault), the run meets other decisions, and the old choices would replay into an
 * engine error, or a run nobody asked for.
 */
export function withoutSchedule(scenario: Scenario): Scenario {
  if (scenario.explore?.schedule === undefined) return scenario;
  const space = { ...scenario.explore };
  delete space.schedule;
  return { ...scenario, explore: space };
}
