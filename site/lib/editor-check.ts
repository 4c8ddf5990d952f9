/**
 * What the scenario editor's linter says about a parsed JSON value: the schema's issues (a call
 * name used twice or a Stop for a call no step makes among them), else the calls whose
 * arguments the server would refuse (`validateToolArgs`). Kept apart from the editor so that it
 * loads without CodeMirror (the unit tests read its messages).
 */
import { scenarioSchema, validateToolArgs, type Scenario } from '../../src/scenario/index.ts';

export interface Problem {
  path: readonly PropertyKey[];
  message: string;
}

/** The scenario in `value`, or what is wrong with it: the schema's issues, else the calls whose arguments the server would refuse. */
export function check(value: unknown): { ok: true; scenario: Scenario } | { ok: false; problems: Problem[] } {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) return { ok: false, problems: result.error.issues.map((issue) => ({ path: issue.path, message: issue.message })) };
  const scenario = result.data;
  const problems = scenario.steps.flatMap((step, i): Problem[] => {
    if (step.action.type !== 'call') return [];
    const args = validateToolArgs(step.action.tool, step.action.args);
    return args.ok ? [] : args.errors.map((message) => ({ path: ['steps', i, 'action', 'args'], message }));
  });
  return problems.length === 0 ? { ok: true, scenario } : { ok: false, problems };
}

/** A problem as the editor shows it: its path, then what is wrong. */
export const say = (p: Problem): string => `${p.path.map(String).join('.') || '(root)'}: ${p.message}`;
