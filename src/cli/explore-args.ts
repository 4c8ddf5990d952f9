/**
 * `cancel-lab explore`'s words: its usage and its arguments (main.ts hands it the arguments
 * after `explore`).
 */
import { DEFAULT_BUDGET, type Shard } from '../explore/index.ts';
import { outputFlags, readFlags, stringFlag } from './flags.ts';
import type { Format } from './output.ts';

export const EXPLORE_USAGE = `Usage: cancel-lab explore <scenario.json | permalink> [--budget N | --seconds S] [--seed S] [--shard K/N] [--format F] [--site URL]
       cancel-lab explore --merge <shard file>… [--format F] [--site URL]

Searches the schedule space a scenario declares in its "explore" field (latency ranges, windows
for a step's time, same-instant reorders, drop or duplicate choices): runs many schedules of it
and judges each. Small spaces are searched whole, the default schedule first, then every
schedule one choice away from it, and so on; large ones at random, seeded. Prints how many
schedules ran and how many distinct traces they made, each outcome class (how each call ended,
whether the server survived, whether the ledger committed) with its count, and for each rule
broken its count and its smallest witness, shrunk, as a permalink that replays that run
(cancel-lab run takes it, the playground opens it).

  --budget N       run at most N schedules (default ${DEFAULT_BUDGET}); the same N gives the same result anywhere
  --seconds S      start no schedule after S seconds (the result then depends on the machine)
  --seed S         the random search's seed (default 0)
  --shard K/N      search only part K of N of the space; --format json prints the shard file
  --merge FILE…    join the shard files of one search (all N of them): the unsharded result
  --format text|json|checks|junit|sarif   text by default; checks, junit and sarif judge the witnesses

Exit status: 0 no explored schedule violates a MUST / MUST NOT rule; 1 one does (the witness
links are printed); 2 bad input or usage; 3 no schedule could be judged.`;

export interface ExploreArgs {
  inputs: string[];
  merge: boolean;
  budget?: number;
  seconds?: number;
  seed?: string;
  shard?: Shard;
  format: Format;
  site?: string;
}

export type ParsedExploreArgs = { ok: true; args: ExploreArgs } | { ok: false; error: string } | { ok: true; info: 'help' };

function positiveInt(text: string | undefined): number | null {
  return text !== undefined && /^[1-9]\d{0,8}$/.test(text) ? Number(text) : null;
}

export function parseExploreArgs(argv: readonly string[]): ParsedExploreArgs {
  const read = readFlags(argv, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    site: { type: 'string' },
    merge: { type: 'boolean' },
    budget: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string' },
    shard: { type: 'string' },
  });
  if (!read.ok) return read;
  if (read.help) return { ok: true, info: 'help' };
  const { values } = read;
  const output = outputFlags(values);
  if (!output.ok) return output;
  const args: ExploreArgs = { inputs: read.words, merge: values.merge === true, format: output.format, ...(output.site !== undefined && { site: output.site.replace(/\/+$/, '') }) };
  const budget = stringFlag(values, 'budget');
  if (budget !== undefined) {
    const n = positiveInt(budget);
    if (n === null) return { ok: false, error: '--budget takes a whole number of schedules, 1 or more' };
    args.budget = n;
  }
  const seconds = stringFlag(values, 'seconds');
  if (seconds !== undefined) {
    const s = Number(seconds);
    if (!Number.isFinite(s) || s <= 0 || s > 86_400) return { ok: false, error: '--seconds takes a number of seconds above 0 (a day at most)' };
    args.seconds = s;
  }
  const seed = stringFlag(values, 'seed');
  if (seed !== undefined) {
    if (seed === '' || seed.length > 100) return { ok: false, error: '--seed takes a word (100 characters at most)' };
    args.seed = seed;
  }
  const shard = stringFlag(values, 'shard');
  if (shard !== undefined) {
    const m = /^([1-9]\d{0,3})\/([1-9]\d{0,3})$/.exec(shard);
    const k = Number(m?.[1]);
    const n = Number(m?.[2]);
    if (!m || k > n) return { ok: false, error: '--shard takes K/N, with 1 ≤ K ≤ N' };
    args.shard = { k, n };
  }
  if (args.budget !== undefined && args.seconds !== undefined) return { ok: false, error: 'give --budget or --seconds, not both' };
  if (args.merge) {
    if (args.inputs.length === 0) return { ok: false, error: '--merge takes the shard files to join' };
    if (args.shard !== undefined || args.budget !== undefined || args.seconds !== undefined || args.seed !== undefined) return { ok: false, error: '--merge takes the search as the shard files recorded it: no --shard, --budget, --seconds or --seed' };
  } else if (args.inputs.length !== 1) return { ok: false, error: args.inputs.length === 0 ? 'no scenario given' : 'explore takes one scenario' };
  return { ok: true, args };
}
