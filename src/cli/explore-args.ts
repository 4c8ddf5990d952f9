/**
 * `cancel-lab explore`'s words: its usage and its arguments (main.ts hands it the arguments
 * after `explore`).
 */
import { DEFAULT_BUDGET, type Shard } from '../explore/index.ts';
import { FORMATS, isFormat, type Format } from './output.ts';

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
  const args: ExploreArgs = { inputs: [], merge: false, format: 'text' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag = '', inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg];
    const value = (): string | undefined => inline ?? argv[++i];
    if (arg === '--help' || arg === '-h') return { ok: true, info: 'help' };
    if (arg === '--merge') args.merge = true;
    else if (arg === '--json') args.format = 'json';
    else if (flag === '--budget') {
      const n = positiveInt(value());
      if (n === null) return { ok: false, error: '--budget takes a whole number of schedules, 1 or more' };
      args.budget = n;
    } else if (flag === '--seconds') {
      const s = Number(value());
      if (!Number.isFinite(s) || s <= 0 || s > 86_400) return { ok: false, error: '--seconds takes a number of seconds above 0 (a day at most)' };
      args.seconds = s;
    } else if (flag === '--seed') {
      const seed = value();
      if (seed === undefined || seed === '' || seed.length > 100) return { ok: false, error: '--seed takes a word (100 characters at most)' };
      args.seed = seed;
    } else if (flag === '--shard') {
      const m = /^([1-9]\d{0,3})\/([1-9]\d{0,3})$/.exec(value() ?? '');
      const k = Number(m?.[1]);
      const n = Number(m?.[2]);
      if (!m || k > n) return { ok: false, error: '--shard takes K/N, with 1 ≤ K ≤ N' };
      args.shard = { k, n };
    } else if (flag === '--format') {
      const f = value();
      if (f === undefined || !isFormat(f)) return { ok: false, error: `--format takes one of ${FORMATS.join(', ')}` };
      args.format = f;
    } else if (flag === '--site') {
      const site = value();
      if (site === undefined || !/^https?:\/\//.test(site)) return { ok: false, error: "--site takes the site's address, http(s)://…" };
      args.site = site.replace(/\/+$/, '');
    } else if (arg.startsWith('-') && arg !== '-') return { ok: false, error: `unknown option ${arg}` };
    else args.inputs.push(arg);
  }
  if (args.budget !== undefined && args.seconds !== undefined) return { ok: false, error: 'give --budget or --seconds, not both' };
  if (args.merge) {
    if (args.inputs.length === 0) return { ok: false, error: '--merge takes the shard files to join' };
    if (args.shard !== undefined || args.budget !== undefined || args.seconds !== undefined || args.seed !== undefined) return { ok: false, error: '--merge takes the search as the shard files recorded it: no --shard, --budget, --seconds or --seed' };
  } else if (args.inputs.length !== 1) return { ok: false, error: args.inputs.length === 0 ? 'no scenario given' : 'explore takes one scenario' };
  return { ok: true, args };
}
