/**
 * The server's tools as data: names, what they do, their arguments and defaults. The server
 * worker implements them; the playground builds its form from this list.
 */
/** How the `work` tool's handler meets a cancellation (issue 4's handler behaviours). */
export const ON_CANCEL = ['observe', 'ignore', 'swallow', 'shield'] as const;
export type OnCancel = (typeof ON_CANCEL)[number];

export interface ToolArgSpec {
  name: string;
  label: string;
  default: number | string;
  kind: 'number' | 'string' | 'choice';
  choices?: readonly string[];
}

export interface ToolSpec {
  name: 'slow_count' | 'stubborn' | 'ledger_write' | 'work' | 'quick';
  summary: string;
  args: readonly ToolArgSpec[];
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'slow_count',
    summary: 'Counts to `steps`, one step every `stepMs`, reporting progress; stops when cancelled.',
    args: [
      { name: 'steps', label: 'steps', default: 5, kind: 'number' },
      { name: 'stepMs', label: 'step ms', default: 1000, kind: 'number' },
    ],
  },
  {
    name: 'stubborn',
    summary: 'Ignores cancellation and returns after `ms`: the late-result case.',
    args: [{ name: 'ms', label: 'ms', default: 3000, kind: 'number' }],
  },
  {
    name: 'ledger_write',
    summary: 'Commits key=value to the server ledger at `commitAfterMs`, then works on until `totalMs`.',
    args: [
      { name: 'key', label: 'key', default: 'order-42', kind: 'string' },
      { name: 'value', label: 'value', default: 'paid', kind: 'string' },
      { name: 'commitAfterMs', label: 'commit after ms', default: 1000, kind: 'number' },
      { name: 'totalMs', label: 'total ms', default: 4000, kind: 'number' },
    ],
  },
  {
    name: 'work',
    summary:
      'Works for `ms`. On cancellation: observe = stops at once; ignore = finishes and returns; swallow = catches it and returns a result at once; shield = cannot unwind for `unwindMs`, then stops.',
    args: [
      { name: 'ms', label: 'ms', default: 3000, kind: 'number' },
      { name: 'onCancel', label: 'on cancel', default: 'observe', kind: 'choice', choices: ON_CANCEL },
      { name: 'unwindMs', label: 'unwind ms (shield)', default: 1000, kind: 'number' },
    ],
  },
  { name: 'quick', summary: 'Answers at once.', args: [] },
];

export function defaultArgs(tool: ToolSpec): Record<string, number | string> {
  return Object.fromEntries(tool.args.map((a) => [a.name, a.default]));
}
