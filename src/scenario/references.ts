/**
 * The mistakes in a scenario that only the whole scenario shows: a call name used twice, a step
 * that names a call no step makes or that comes before the call is made, and a step only a stdio
 * server process can take on another transport. Each would otherwise reach the engine and end
 * the run with an error (exit 3) instead of being refused as bad input (exit 2); the schema
 * refuses them here, so links, files, the editor and the runner refuse them alike, each at the
 * path of what is wrong.
 */
import type { UserAction } from '../trace/index.ts';

interface StepLike {
  at: number;
  after?: { call?: string | undefined } | undefined;
  action: UserAction;
}

export interface ReferenceProblem {
  path: (string | number)[];
  message: string;
}

interface Made {
  index: number;
  at: number;
  /** Made on a trigger: its time is known only when the run gets there. */
  triggered: boolean;
}

/** The calls a step's action names, with the field that names each. */
function namedCalls(action: UserAction): { field: string; call: string }[] {
  switch (action.type) {
    case 'stop':
    case 'inject-response':
    case 'inject-cancel':
      return action.call === undefined ? [] : [{ field: 'call', call: action.call }];
    case 'inject-progress':
      return [{ field: 'call', call: action.call }, ...(action.onStreamOf === undefined ? [] : [{ field: 'onStreamOf', call: action.onStreamOf }])];
    default:
      return [];
  }
}

const WHAT: Partial<Record<UserAction['type'], string>> = {
  stop: 'Stop',
  'inject-response': 'the forged response',
  'inject-cancel': 'the forged cancel',
  'inject-progress': 'the forged progress',
};

/** Every reference mistake in `steps`, in step order. */
export function referenceProblems(steps: readonly StepLike[]): ReferenceProblem[] {
  const made = new Map<string, Made>();
  const problems: ReferenceProblem[] = [];
  steps.forEach((step, index) => {
    if (step.action.type !== 'call') return;
    const first = made.get(step.action.call);
    if (first) {
      problems.push({
        path: ['steps', index, 'action', 'call'],
        message: `call "${step.action.call}" is already made by steps.${first.index}: each call needs a name of its own`,
      });
    } else made.set(step.action.call, { index, at: step.at, triggered: step.after !== undefined });
  });
  steps.forEach((step, index) => {
    const trigger = step.after?.call;
    if (trigger !== undefined && !made.has(trigger)) {
      problems.push({ path: ['steps', index, 'after', 'call'], message: `waits for call "${trigger}", which no "call" step of this scenario makes` });
    }
    for (const { field, call } of namedCalls(step.action)) {
      const path = ['steps', index, 'action', field];
      const what = WHAT[step.action.type] ?? step.action.type;
      const target = made.get(call);
      if (!target) {
        problems.push({ path, message: `${what} names call "${call}", which no "call" step of this scenario makes` });
        continue;
      }
      // Steps at one instant run in the order listed; a triggered step's time is not known here.
      const before = step.at < target.at || (step.at === target.at && index < target.index);
      if (!target.triggered && step.after === undefined && before) {
        problems.push({ path, message: `${what} at ${step.at} ms names call "${call}" before it is made (steps.${target.index}, at ${target.at} ms)` });
      }
    }
  });
  return problems;
}

/** What only a stdio server process can do, in the engine's words. */
const STDIO_ONLY: Partial<Record<UserAction['type'], string>> = {
  'crash-server': 'only a stdio server process can be made to crash',
  reconnect: 'only a stdio server process can be restarted (a reconnect)',
};

/** Every step that only a stdio server process can take, on another transport. */
export function transportProblems(transport: string, steps: readonly StepLike[]): ReferenceProblem[] {
  if (transport === 'stdio') return [];
  return steps.flatMap((step, index): ReferenceProblem[] => {
    const action = step.action;
    const only = STDIO_ONLY[action.type];
    if (only) return [{ path: ['steps', index, 'action', 'type'], message: `${only}; this scenario runs over ${transport}` }];
    if (action.type === 'inject-response' && action.to === 'server') {
      return [{ path: ['steps', index, 'action', 'to'], message: `a forged response to the server is offered on stdio only; this scenario runs over ${transport}` }];
    }
    return [];
  });
}
