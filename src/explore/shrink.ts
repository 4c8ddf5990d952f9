/**
 * Shrinking a witness: from a schedule that breaks a rule, a smaller one that still breaks it —
 * fewer steps first, then fewer choices away from the default, then smaller choices. Each try
 * is a run; a try is kept only when it still breaks the rule, with a verdict, and is smaller.
 */
import { compareChoices, parseScenario, stepOfKey, type Scenario } from '../scenario/index.ts';
import { runJob, type Lane } from './lane.ts';
import type { Ran } from './run-one.ts';

/** The most runs one witness's shrinking may take. */
export const SHRINK_RUNS = 100;

export interface Shrunk {
  scenario: Scenario;
  ran: Ran;
}

/** The scenario without step `i`, its windows renumbered, and the choices without that step's window; null when the scenario is then not valid. */
function withoutStep(scenario: Scenario, choices: readonly number[], i: number): { scenario: Scenario; choices: number[] } | null {
  const at = scenario.explore?.at ?? {};
  const windowed = Object.keys(at)
    .map((key) => stepOfKey(key, scenario.steps))
    .filter((s): s is number => s !== null)
    .sort((a, b) => a - b);
  const renamed: Record<string, NonNullable<typeof at>[string]> = {};
  for (const [key, r] of Object.entries(at)) {
    const step = stepOfKey(key, scenario.steps);
    if (step === null || step === i) continue;
    renamed[/^\d+$/.test(key) && step > i ? String(step - 1) : key] = r;
  }
  const space = { ...scenario.explore };
  delete space.at;
  const explore = Object.keys(renamed).length > 0 ? { ...space, at: renamed } : space;
  const candidate = { ...scenario, steps: scenario.steps.filter((_, j) => j !== i), ...(scenario.explore !== undefined && { explore }) };
  const parsed = parseScenario(candidate);
  if (!parsed.ok) return null;
  const w = windowed.indexOf(i);
  return { scenario: parsed.scenario, choices: w < 0 ? [...choices] : choices.filter((_, j) => j !== w) };
}

function smaller(a: Shrunk, b: Shrunk): boolean {
  if (a.scenario.steps.length !== b.scenario.steps.length) return a.scenario.steps.length < b.scenario.steps.length;
  return compareChoices(a.ran.choices, b.ran.choices) < 0;
}

export async function shrinkWitness(start: Shrunk, rule: string, lane: Lane, runs: number = SHRINK_RUNS): Promise<Shrunk> {
  let best = start;
  let left = runs;
  const attempt = async (scenario: Scenario, choices: readonly number[]): Promise<boolean> => {
    if (left <= 0) return false;
    left--;
    const ran = await runJob(lane, scenario, { forced: choices });
    // Sides that failed or hung may be stuck: no more tries on them (a runner has replaced its own by now, but the budget of tries is spent alike), the witness is what it is.
    if (ran.broken) left = 0;
    const tried = { scenario, ran };
    if (ran.record.problem !== undefined || !ran.record.violated.includes(rule) || !smaller(tried, best)) return false;
    best = tried;
    return true;
  };
  for (let i = best.scenario.steps.length - 1; i >= 0; i--) {
    const without = withoutStep(best.scenario, best.ran.choices, i);
    if (without !== null) await attempt(without.scenario, without.choices);
  }
  for (let j = 0; j < best.ran.choices.length; j++) {
    const c = best.ran.choices[j] ?? 0;
    if (c === 0 || (await attempt(best.scenario, best.ran.choices.map((v, k) => (k === j ? 0 : v))))) continue;
    // The smallest choice at j that still breaks the rule, searched as if breaking it were monotonic; each find is checked by its run.
    let lo = 1;
    let hi = c - 1;
    while (lo <= hi && left > 0) {
      const mid = Math.floor((lo + hi) / 2);
      if (await attempt(best.scenario, best.ran.choices.map((v, k) => (k === j ? mid : v)))) hi = mid - 1;
      else lo = mid + 1;
    }
  }
  return best;
}
