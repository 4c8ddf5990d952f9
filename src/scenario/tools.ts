/**
 * The server's tools as data: names, what they do, their arguments with the playground form's
 * labels and defaults, and the zod schema of their arguments. Every server registers its tools
 * from this list, in its order (the order of tools/list), with exactly these schemas, so what the
 * call form and the editor accept is what the server accepts, and a tool added here reaches them all.
 */
import * as z from 'zod/v4';
import { ASK_REQUESTS } from './reverse.ts';
import { grouped } from '../trace/index.ts';

/** How the `work` tool's handler meets a cancellation (issue 4's handler behaviours). */
export const ON_CANCEL = ['observe', 'ignore', 'swallow', 'shield'] as const;

/** A duration in virtual milliseconds: whole, and at most an hour (a scenario runs in seconds). */
const ms = z.number().int().min(0).max(3_600_000);

/** Each tool's arguments, as the server validates them. */
export const TOOL_INPUT = {
  // onCancel "ignore" (set in the editor; the form leaves it out): a handler that counts on and
  // keeps reporting progress after its cancel, as a real handler that never reads its signal does.
  slow_count: z.object({ steps: z.number().int().min(1).max(10_000), stepMs: ms, onCancel: z.enum(['stop', 'ignore']).optional() }),
  stubborn: z.object({ ms }),
  ledger_write: z.object({ key: z.string(), value: z.string(), commitAfterMs: ms, totalMs: ms }),
  // unwindMs matters only to `shield`; a call that leaves it out unwinds at once.
  work: z.object({ ms, onCancel: z.enum(ON_CANCEL), unwindMs: ms.default(0) }),
  quick: z.object({}),
  // then "cancel": the server cancels its own request cancelAfterMs after sending it.
  ask_client: z.object({ request: z.enum(ASK_REQUESTS), afterMs: ms, then: z.enum(['wait', 'cancel']), cancelAfterMs: ms.default(0) }),
  background_job: z.object({ ms }),
} as const;

export type ToolName = keyof typeof TOOL_INPUT;

export interface ToolArgSpec {
  name: string;
  label: string;
  default: number | string;
  kind: 'number' | 'string' | 'choice';
  choices?: readonly string[];
}

export interface ToolSpec {
  name: ToolName;
  summary: string;
  /** The form's fields, in order. */
  args: readonly ToolArgSpec[];
  input: (typeof TOOL_INPUT)[ToolName];
  /**
   * How the real TypeScript SDK v1 server offers it: as a tool, as a task tool (2025-11-25 tasks,
   * v1's registerToolTask: workers/v1/background-job.ts), or not at all. The v2 server and the
   * emulations on it offer every tool as a tool.
   */
  v1: 'tool' | 'task' | 'absent';
}

/** A number argument's bounds, as the tool's schema has them: what the form's field says to the browser. */
export function argBounds(tool: ToolSpec, name: string): { min?: number; max?: number } {
  const field = (tool.input.shape as Record<string, z.ZodType>)[name];
  const number = field instanceof z.ZodDefault ? field.unwrap() : field;
  if (!(number instanceof z.ZodNumber)) return {};
  return { ...(number.minValue !== null && { min: number.minValue }), ...(number.maxValue !== null && { max: number.maxValue }) };
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'slow_count',
    summary: 'Counts to `steps`, one step every `stepMs`, reporting progress; stops when cancelled (unless the editor sets `onCancel` to "ignore").',
    args: [
      { name: 'steps', label: 'steps', default: 5, kind: 'number' },
      { name: 'stepMs', label: 'step ms', default: 1000, kind: 'number' },
    ],
    input: TOOL_INPUT.slow_count,
    v1: 'tool',
  },
  {
    name: 'stubborn',
    summary: 'Ignores cancellation and returns after `ms`: the late-result case.',
    args: [{ name: 'ms', label: 'ms', default: 3000, kind: 'number' }],
    input: TOOL_INPUT.stubborn,
    v1: 'tool',
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
    input: TOOL_INPUT.ledger_write,
    v1: 'tool',
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
    input: TOOL_INPUT.work,
    v1: 'tool',
  },
  { name: 'quick', summary: 'Answers at once.', args: [], input: TOOL_INPUT.quick, v1: 'tool' },
  {
    name: 'ask_client',
    summary:
      'After `afterMs`, sends the client `request` (elicitation/create, sampling/createMessage, roots/list or ping) and returns what it answered; with then = cancel, the server cancels its own request `cancelAfterMs` after sending it.',
    args: [
      { name: 'request', label: 'request', default: 'elicitation/create', kind: 'choice', choices: ASK_REQUESTS },
      { name: 'afterMs', label: 'after ms', default: 500, kind: 'number' },
      { name: 'then', label: 'then', default: 'wait', kind: 'choice', choices: ['wait', 'cancel'] },
      { name: 'cancelAfterMs', label: 'cancel after ms', default: 1000, kind: 'number' },
    ],
    input: TOOL_INPUT.ask_client,
    // The lab's v1 server sends the client no requests (reverse.ts askWhyNot).
    v1: 'absent',
  },
  {
    name: 'background_job',
    summary:
      'Works for `ms` in the background and never reads a cancellation. Called as a task (the real v1 SDK), it answers with the task at once; tasks/cancel marks the task cancelled, the work runs on, and its result is refused.',
    args: [{ name: 'ms', label: 'ms', default: 3000, kind: 'number' }],
    input: TOOL_INPUT.background_job,
    v1: 'task',
  },
];

export function defaultArgs(tool: ToolSpec): Record<string, number | string> {
  return Object.fromEntries(tool.args.map((a) => [a.name, a.default]));
}

export type ToolArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; errors: string[] };

/**
 * Checks a call's arguments against its tool's schema (what the server will accept), and also
 * refuses arguments the tool does not have, which the server would silently drop. Each error
 * names the argument.
 */
export function validateToolArgs(tool: string, args: unknown): ToolArgsCheck {
  const spec = TOOLS.find((t) => t.name === tool);
  if (!spec) return { ok: false, errors: [`unknown tool "${tool}" (the tools are ${TOOLS.map((t) => t.name).join(', ')})`] };
  const parsed = spec.input.strict().safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => `${key}: not an argument of ${spec.name}`)
        : [`${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${inWords(issue)}`],
    ),
  };
}

/**
 * What an argument has to be, in words, then the server's own words for the same refusal (it
 * registers these schemas, so its "Input validation error" says them): "at least 1 (the server
 * says "Too small: expected number to be >=1")".
 */
function inWords(issue: z.core.$ZodIssue): string {
  const needed =
    issue.code === 'too_small'
      ? `at least ${grouped(Number(issue.minimum))}`
      : issue.code === 'too_big'
        ? `at most ${grouped(Number(issue.maximum))}`
        : issue.code === 'invalid_type'
          ? ({ int: 'a whole number', number: 'a number', string: 'text', object: 'an object of arguments' } as Record<string, string>)[issue.expected]
          : issue.code === 'invalid_value'
            ? `one of ${issue.values.map((v) => String(v)).join(', ')}`
            : undefined;
  return needed === undefined ? issue.message : `${needed} (the server says "${issue.message}")`;
}
