/**
 * "Open a scenario that violates it": for each rule, the first library scenario whose run breaks
 * it (each library file records the rules its run breaks, and the library test re-checks them).
 * Rules no library scenario breaks have no link of their own and open the bare playground.
 */
import { LIBRARY, type LibraryEntry } from '../scenario/index.ts';
import type { Rule } from '../rules/index.ts';

/** The library scenario that violates this rule, or undefined when none does. */
export function violatingScenario(rule: Pick<Rule, 'id'>): LibraryEntry | undefined {
  return LIBRARY.find((entry) => entry.violates.includes(rule.id));
}
