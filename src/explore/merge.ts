/**
 * Shard files and their merge. A shard's file is its Exploration as JSON (what
 * `cancel-lab explore --shard K/N --format json` prints, under "exploration"); merging every
 * shard's file gives the exploration the unsharded search would have made: the records joined,
 * in the search's order, cut at the budget (search.ts says why that is the same cut).
 */
import * as z from 'zod/v4';
import { parseScenario } from '../scenario/index.ts';
import { compareRecords } from './order.ts';
import type { ScheduleRecord } from './run-one.ts';
import type { Exploration } from './search.ts';

const recordSchema = z.strictObject({
  schedule: z.string(),
  n: z.number().int().min(0).optional(),
  traceHash: z.string(),
  violated: z.array(z.string()),
  must: z.array(z.string()),
  outcome: z.string(),
  problem: z.string().optional(),
});

const explorationSchema = z.strictObject({
  scenario: z.unknown(),
  strategy: z.enum(['exhaustive', 'random']),
  seed: z.string(),
  budget: z.number().int().min(1).nullable(),
  seconds: z.number().positive().nullable(),
  shard: z.strictObject({ k: z.number().int().min(1), n: z.number().int().min(1) }).nullable(),
  exhausted: z.boolean(),
  records: z.array(recordSchema),
});

export type ReadExploration = { ok: true; exploration: Exploration } | { ok: false; error: string };

/** A shard file's exploration (the object itself, or an explore JSON output holding it under "exploration"). */
export function readExploration(value: unknown, name: string): ReadExploration {
  const inner = value !== null && typeof value === 'object' && 'exploration' in value ? value.exploration : value;
  const parsed = explorationSchema.safeParse(inner);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${name} is not an explorer's result: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unreadable'}` };
  }
  const scenario = parseScenario(parsed.data.scenario);
  if (!scenario.ok) return { ok: false, error: `${name} holds a scenario that is not valid: ${scenario.errors.slice(0, 2).join('; ')}` };
  const records: ScheduleRecord[] = parsed.data.records.map(({ n, problem, ...rest }) => ({ ...rest, ...(n !== undefined && { n }), ...(problem !== undefined && { problem }) }));
  return { ok: true, exploration: { ...parsed.data, scenario: scenario.scenario, records } };
}

export type Merged = ReadExploration;

/** The shards' explorations as one; refused when they are not the shards of one search, or one is missing. */
export function mergeExplorations(parts: readonly Exploration[]): Merged {
  const [first] = parts;
  if (first === undefined) return { ok: false, error: 'nothing to merge' };
  const same = (e: Exploration): boolean =>
    JSON.stringify(e.scenario) === JSON.stringify(first.scenario) && e.strategy === first.strategy && e.seed === first.seed && e.budget === first.budget && e.seconds === first.seconds;
  if (!parts.every(same)) return { ok: false, error: 'these are not shards of one search: their scenario, strategy, seed, budget or time limit differ' };
  const n = first.shard?.n ?? 1;
  const ks = new Set(parts.map((e) => e.shard?.k ?? 1));
  if (parts.some((e) => (e.shard?.n ?? 1) !== n) || ks.size !== parts.length) return { ok: false, error: 'these are not shards of one search: each shard K/N of one N is given once' };
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !ks.has(k));
  if (missing.length > 0) return { ok: false, error: `shard ${missing.map((k) => `${k}/${n}`).join(', ')} is missing` };
  const seen = new Map<string, ScheduleRecord>();
  for (const r of parts.flatMap((e) => e.records)) seen.set(r.n !== undefined ? `n${r.n}` : r.schedule, r);
  const joined = [...seen.values()].sort(compareRecords);
  const records = first.budget === null ? joined : joined.slice(0, first.budget);
  return { ok: true, exploration: { ...first, shard: null, exhausted: parts.every((e) => e.exhausted) && records.length === joined.length, records } };
}
