/**
 * `cancel-lab explore`: a scenario's schedule space searched on a pool of worker threads, one
 * per core, each running whole schedules (both sides and the coordinator in it), or shard files merged; the tally and the witnesses printed in the format asked for, each
 * witness replayed from its permalink as `cancel-lab run` would (so the link is checked to
 * reproduce its run, and checks, JUnit and SARIF judge it with the report writers of `run`).
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Sides } from '../engine/index.ts';
import { explore, isRunner, mergeExplorations, PooledLane, readExploration, summarize, type Exploration, type ExploreResult, type Lane, type Witness } from '../explore/index.ts';
import { createNodeSides, startExploreWorker, type NodeSides } from '../host/index.ts';
import { parseExploreArgs, EXPLORE_USAGE, type ExploreArgs } from './explore-args.ts';
import { exploreText, witnessUrl } from './explore-text.ts';
import { judgeInput, type Judged } from './judge.ts';
import { loadScenario } from './load.ts';
import { render } from './output.ts';
import type { Printed } from './text.ts';

export interface ExploreCommandOptions {
  cwd?: string;
  /** Warm lanes to run on (tests); by default a pool of one worker per core, closed at the end. */
  lanes?: Lane[];
}

export interface ExploreOutcome extends Printed {
  exitCode: number;
  exploration: Exploration | null;
  result: ExploreResult | null;
  /** Each witness (one per schedule, for every rule it is the witness of), replayed from its link and judged. */
  witnesses: Judged[];
}

type Got = { ok: true; exploration: Exploration; what: string } | { ok: false; error: string };

async function shardFiles(inputs: readonly string[], cwd: string): Promise<Got> {
  const parts: Exploration[] = [];
  for (const input of inputs) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(resolve(cwd, input), 'utf8'));
    } catch (error) {
      return { ok: false, error: `Cannot read ${input} as JSON: ${error instanceof Error ? error.message : String(error)}.` };
    }
    const read = readExploration(value, input);
    if (!read.ok) return read;
    parts.push(read.exploration);
  }
  const merged = mergeExplorations(parts);
  return merged.ok ? { ok: true, exploration: merged.exploration, what: `${inputs.length} shard files` } : { ok: false, error: `Cannot merge: ${merged.error}.` };
}

async function search(args: ExploreArgs, cwd: string, lanes: Lane[]): Promise<Got> {
  const input = args.inputs[0] ?? '';
  const loaded = await loadScenario(input, cwd);
  if (!loaded.ok) return loaded;
  const exploration = await explore(loaded.scenario, {
    lanes,
    ...(args.budget !== undefined && { budget: args.budget }),
    ...(args.seconds !== undefined && { seconds: args.seconds }),
    ...(args.seed !== undefined && { seed: args.seed }),
    ...(args.shard !== undefined && { shard: args.shard }),
  });
  return { ok: true, exploration, what: loaded.what };
}

/**
 * The runs the formats of `run` judge: each witness once, named for the rules it breaks (two
 * rules often share their smallest witness, and judged twice it would report each finding
 * twice), else the default schedule's (a run with nothing broken).
 */
function judgedWitnesses(result: ExploreResult): { name: string; witness: Witness }[] {
  if (result.rules.length === 0) {
    const first = result.classes.find((c) => c.witness.deviations === 0) ?? result.classes[0];
    return first ? [{ name: `default schedule (${first.witness.schedule})`, witness: first.witness }] : [];
  }
  const bySchedule = new Map<string, { rules: string[]; witness: Witness }>();
  for (const r of result.rules) {
    const known = bySchedule.get(r.witness.schedule);
    if (known) known.rules.push(r.rule);
    else bySchedule.set(r.witness.schedule, { rules: [r.rule], witness: r.witness });
  }
  return [...bySchedule.values()].map(({ rules, witness }) => ({ name: `witness ${witness.schedule} (${rules.join(', ')})`, witness }));
}

function printed(args: ExploreArgs, what: string, exploration: Exploration, result: ExploreResult, witnesses: { schedule: string; judged: Judged }[], exitCode: number): Printed {
  const site = args.site !== undefined ? { site: args.site } : {};
  switch (args.format) {
    case 'text':
      return exploreText(what, exploration, result, new Map(witnesses.map((w) => [w.schedule, w.judged])), exitCode, args.site);
    case 'json': {
      const replayed = witnesses.map(({ judged: j }) => ({ name: j.input, exitCode: j.exitCode, ...(j.reproduction && { reproduction: j.reproduction }) }));
      const urls = result.rules.map((r) => witnessUrl(r.witness, args.site));
      return { stdout: [JSON.stringify({ exitCode, exploration, result, witnesses: replayed })], stderr: urls.length > 0 ? [`cancel-lab: witnesses: ${urls.join(' ')}`] : [] };
    }
    default:
      // One entry per witness whatever their number, so that the checks' shape never depends on the verdict.
      return render(witnesses.map((w) => w.judged), { format: args.format, grouped: true, ...site });
  }
}

export async function exploreCommand(argv: readonly string[], opts: ExploreCommandOptions = {}): Promise<ExploreOutcome> {
  const none = { exploration: null, result: null, witnesses: [] };
  const parsed = parseExploreArgs(argv);
  if (!parsed.ok) return { ...none, exitCode: 2, stdout: [], stderr: [`cancel-lab: ${parsed.error}.`, '', EXPLORE_USAGE] };
  if ('info' in parsed) return { ...none, exitCode: 0, stdout: [EXPLORE_USAGE], stderr: [] };
  const args = parsed.args;
  const cwd = opts.cwd ?? process.cwd();
  // A lane of our own replaces its worker when a run broke it; the witnesses' replays run on
  // sides in this thread, as `cancel-lab run` runs them.
  const own = opts.lanes ? [] : Array.from({ length: Math.max(1, availableParallelism()) }, () => new PooledLane(startExploreWorker));
  const lanes: Lane[] = opts.lanes ?? [...own];
  const given = opts.lanes?.find((l): l is Sides => !isRunner(l));
  let mine: NodeSides | null = null;
  try {
    const got = args.merge ? await shardFiles(args.inputs, cwd) : await search(args, cwd, lanes);
    if (!got.ok) return { ...none, exitCode: 2, stdout: [], stderr: [`cancel-lab: ${got.error}`] };
    const result = await summarize(got.exploration, lanes);
    const sides = given ?? (mine = createNodeSides());
    const witnesses: { schedule: string; judged: Judged }[] = [];
    // CI formats place a witness's findings at the scenario explored: its file (or link), or,
    // merged from shard files, the witness's own link.
    const explored = args.merge ? null : (args.inputs[0] ?? null);
    for (const { name, witness } of judgedWitnesses(result)) {
      const judged = await judgeInput(`#${witness.link}`, { sides, cwd });
      witnesses.push({ schedule: witness.schedule, judged: { ...judged, input: name, at: explored ?? `#${witness.link}` } });
    }
    const exitCode = result.schedules === result.noVerdict ? 3 : result.mustBroken ? 1 : 0;
    const printedOut = printed(args, got.what, got.exploration, result, witnesses, exitCode);
    return { exploration: got.exploration, result, witnesses: witnesses.map((w) => w.judged), exitCode, ...printedOut };
  } finally {
    await Promise.all(own.map((l) => l.close()));
    await mine?.close();
  }
}
