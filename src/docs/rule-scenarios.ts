/**
 * "Open a scenario that violates it": per rule id, the playground URL of a scenario whose trace
 * violates the rule (a permalink, `/playground/#v1.…`). Rules without an entry link to the bare
 * playground (`/playground/`) for now.
 *
 * To add one: put `'CANCEL-NO-RESPONSE': '/playground/#v1.…'` in VIOLATING_SCENARIO_URL. A rule
 * in the catalog may instead carry the URL itself as an optional `violatingScenarioUrl` field;
 * that wins over this table.
 */
import type { Rule } from '../rules/catalog.ts';

export const VIOLATING_SCENARIO_URL: Readonly<Record<string, string>> = {};

/** The violating scenario's URL for this rule, or undefined when there is none yet. */
export function violatingScenarioUrl(rule: Pick<Rule, 'id'> & { violatingScenarioUrl?: string }): string | undefined {
  return rule.violatingScenarioUrl ?? VIOLATING_SCENARIO_URL[rule.id];
}
