/**
 * A scenario's schedule space (the optional `explore` field): what the explorer may vary about
 * a run, and which schedule of that space a run takes. Without the field a scenario is one
 * schedule, as it always was.
 *
 * A schedule is the list of choices taken at the run's decision points, in the order the run
 * meets them; choice 0 is always the scenario's own behaviour (its latency, the engine's tie
 * rule, the step's own `at`, no drop), so the all-zero schedule is the scenario's own run. The
 * decision points, in order: first each step with an `at` window (in step order), then, as the
 * run goes, each frame written that a latency range or a frame rule matches (its latency, then
 * its fate), and each instant where events that touch the same request are due together.
 */
import * as z from 'zod/v4';
import { grouped, directionSchema as direction, msSchema as ms } from '../trace/index.ts';

/** The most values one range may stand for: a range is a choice at a decision point, not a sweep of the clock. */
export const MAX_RANGE_VALUES = 10_000;

/** `[low, high]` or `[low, high, every]`: the values low, low + every, … up to high. */
const range = z
  .union([z.tuple([ms, ms]), z.tuple([ms, ms, z.number().int().min(1).max(86_400_000)])])
  .describe('A range of virtual ms: [low, high], or [low, high, every] for every `every` ms from low.')
  .superRefine((r, ctx) => {
    const [low, high, every = 1] = r;
    if (low > high) ctx.addIssue({ code: 'custom', message: `a range runs from low to high: ${low} is above ${high}` });
    else if (Math.floor((high - low) / every) + 1 > MAX_RANGE_VALUES) {
      ctx.addIssue({ code: 'custom', message: `a range stands for ${grouped(MAX_RANGE_VALUES)} values at most (widen "every")` });
    }
  });

export type MsRange = z.infer<typeof range>;

/**
 * Frames the sides write one way that match (a method, or "response"; any frame when absent),
 * only the nth match when set: as a wire fault matches, forged frames apart.
 */
const frameRule = z.strictObject({
  dir: direction,
  match: z.string().min(1).max(100).optional().describe('A JSON-RPC method, or "response"; any frame when absent.'),
  nth: z.number().int().min(1).max(10_000).optional().describe('Only the nth matching frame (1-based); every matching frame when absent.'),
  ms: range.optional().describe("The latency of each matched frame, in place of the direction's range."),
  drop: z.boolean().optional().describe('The matched frame may be dropped, as a choice.'),
  duplicate: z.boolean().optional().describe('The matched frame may be duplicated, as a choice.'),
});

export type FrameRule = z.infer<typeof frameRule>;

/** `s1` then the choices in base 36, dot-separated; `-k` (k in base 36) stands for k zeros. Trailing zeros are left off. */
/** More choices than any run of the engine's bounds can take (each is one event's decision). */
export const MAX_SCHEDULE_CHOICES = 100_000;

export const SCHEDULE_PATTERN = /^s1(\.-?[0-9a-z]{1,8})*$/;

export const exploreSchema = z
  .strictObject({
    c2s: range.optional().describe('A latency range from client to server: each frame written that way takes one value of it.'),
    s2c: range.optional().describe('A latency range from server to client: each frame written that way takes one value of it.'),
    frames: z.array(frameRule).max(20).optional().describe('Rules for matched frames, the first match winning: a latency range of their own, and drop or duplicate as choices.'),
    ties: z.boolean().optional().describe("Events due at one virtual ms that touch the same request may run in any order, not only the tie rule's."),
    at: z.record(z.string().min(1).max(40), range).optional().describe('A window for a step\'s "at", keyed by the step\'s index ("2") or by the call a step makes ("A").'),
    schedule: z
      .string()
      .max(4000)
      .regex(SCHEDULE_PATTERN, 'a schedule string: "s1", then ".n" per choice in base 36 ("-k" for k zeros)')
      .optional()
      .describe('The schedule this run takes (an explorer\'s witness): "s1", then ".n" per choice in base 36, "-k" for k zeros; the default schedule when absent.'),
  })
  .describe('The schedule space `cancel-lab explore` searches, and the schedule this run takes in it.');

export type ExploreSpace = z.infer<typeof exploreSchema>;

/** The values a range stands for, low first. */
export function rangeValues(r: MsRange): number[] {
  const [low, high, every = 1] = r;
  const values: number[] = [];
  for (let v = low; v <= high; v += every) values.push(v);
  return values;
}

/** A decision's options: the scenario's own value first (choice 0), then the range's other values. */
export function optionsWith(own: number, r: MsRange): number[] {
  return [own, ...rangeValues(r).filter((v) => v !== own)];
}

/** The step index an `at` key names: a decimal index, or the step that makes that call; null when it names none. */
export function stepOfKey(key: string, steps: readonly { action: { type: string; call?: string } }[]): number | null {
  if (/^\d+$/.test(key)) {
    const i = Number(key);
    return i < steps.length ? i : null;
  }
  const i = steps.findIndex((s) => s.action.type === 'call' && s.action.call === key);
  return i >= 0 ? i : null;
}

/** What the scenario's `explore` field gets wrong that its schema alone cannot see, with paths. */
export function spaceProblems(scenario: { explore?: ExploreSpace | undefined; steps: readonly { action: { type: string; call?: string } }[] }): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const keys = new Map<number, string>();
  for (const key of Object.keys(scenario.explore?.at ?? {})) {
    const i = stepOfKey(key, scenario.steps);
    if (i === null) problems.push({ path: ['explore', 'at', key], message: `"${key}" names no step: a step's index (0 to ${scenario.steps.length - 1}) or a call a step makes` });
    else if (keys.has(i)) problems.push({ path: ['explore', 'at', key], message: `step ${i} already has a window ("${keys.get(i) ?? ''}")` });
    else keys.set(i, key);
  }
  for (const [i, rule] of (scenario.explore?.frames ?? []).entries()) {
    if (rule.ms === undefined && rule.drop !== true && rule.duplicate !== true) problems.push({ path: ['explore', 'frames', i], message: 'a frame rule gives a latency range ("ms"), or "drop" or "duplicate", or it chooses nothing' });
  }
  const schedule = scenario.explore?.schedule;
  const parsed = schedule === undefined ? null : parseSchedule(schedule);
  if (parsed?.ok === false) problems.push({ path: ['explore', 'schedule'], message: parsed.error });
  return problems;
}

export type ParsedSchedule = { ok: true; choices: number[] } | { ok: false; error: string };

/** The choices a schedule string stands for; a sentence when it is not one. */
export function parseSchedule(text: string): ParsedSchedule {
  if (!SCHEDULE_PATTERN.test(text)) return { ok: false, error: `"${text.slice(0, 40)}" is not a schedule string: it is "s1", then ".n" per choice in base 36 ("-k" for k zeros)` };
  const choices: number[] = [];
  for (const token of text.split('.').slice(1)) {
    // A run of zeros is counted before it is made: "-zzzzzzzz" stands for 2.8 trillion of them.
    const zeros = token.startsWith('-') ? parseInt(token.slice(1), 36) : 0;
    if (choices.length + Math.max(zeros, 1) > MAX_SCHEDULE_CHOICES) return { ok: false, error: `this schedule string stands for more than ${grouped(MAX_SCHEDULE_CHOICES)} choices` };
    if (token.startsWith('-')) for (let i = 0; i < zeros; i++) choices.push(0);
    else choices.push(parseInt(token, 36));
  }
  return { ok: true, choices };
}

/** The schedule string of a list of choices: trailing zeros left off, runs of zeros folded. */
export function formatSchedule(choices: readonly number[]): string {
  let end = choices.length;
  while (end > 0 && choices[end - 1] === 0) end--;
  const tokens: string[] = [];
  for (let i = 0; i < end; ) {
    let zeros = 0;
    while (i + zeros < end && choices[i + zeros] === 0) zeros++;
    if (zeros > 1) {
      tokens.push(`-${zeros.toString(36)}`);
      i += zeros;
    } else {
      tokens.push((choices[i] ?? 0).toString(36));
      i++;
    }
  }
  return ['s1', ...tokens].join('.');
}

/** The scenario with its space set to run `choices` (no `schedule` for the default one). */
export function withSchedule<S extends { explore?: ExploreSpace | undefined }>(scenario: S, choices: readonly number[]): S {
  const space = { ...scenario.explore };
  delete space.schedule;
  const schedule = formatSchedule(choices);
  return { ...scenario, explore: { ...space, ...(schedule !== 's1' && { schedule }) } };
}

/** The choices of a schedule string; none for one that is not (parseSchedule says why). */
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
