/**
 * `cancel-lab explore`: a scenario's schedule space searched on one pair of worker threads per
 * core, or shard files merged; the tally and the witnesses printed in the format asked for, each
 * witness replayed from its permalink as `cancel-lab run` would (so the link is checked to
 * reproduce its run, and checks, JUnit and SARIF judge it with the report writers of `run`).
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Sides } from '../engine/index.ts';
import { explore, mergeExplorations, readExploration, summarize, type Exploration, type ExploreResult, type Witness } from '../explore/index.ts';
import { createNodeSides, type NodeSides } from '../host/index.ts';
import { parseExploreArgs, EXPLORE_USAGE, type ExploreArgs } from './explore-args.ts';
import { exploreText, witnessUrl } from './explore-text.ts';
import { judgeInput, type Judged } from './judge.ts';
import { loadScenario } from './load.ts';
import { render } from './output.ts';
import type { Printed } from './text.ts';

export interface ExploreCommandOptions {
  cwd?: string;
  /** Warm pairs of sides to run on (tests); by default one new pair per core, closed at the end. */
  lanes?: Sides[];
}

export interface ExploreOutcome extends Printed {
  exitCode: number;
  exploration: Exploration | null;
  result: ExploreResult | null;
  /** Each rule's witness, replayed from its link and judged. */
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

async function search(args: ExploreArgs, cwd: string, lanes: Sides[], renew: ((broken: Sides) => Promise<Sides>) | undefined): Promise<Got> {
  const input = args.inputs[0] ?? '';
  const loaded = await loadScenario(input, cwd);
  if (!loaded.ok) return loaded;
  const exploration = await explore(loaded.scenario, {
    lanes,
    ...(renew !== undefined && { renew }),
    ...(args.budget !== undefined && { budget: args.budget }),
    ...(args.seconds !== undefined && { seconds: args.seconds }),
    ...(args.seed !== undefined && { seed: args.seed }),
    ...(args.shard !== undefined && { shard: args.shard }),
  });
  return { ok: true, exploration, what: loaded.what };
}

/** The witnesses the formats of `run` judge: each rule's, else the default schedule's (a run with nothing broken). */
function judgedWitnesses(result: ExploreResult): { name: string; witness: Witness }[] {
  if (result.rules.length > 0) return result.rules.map((r) => ({ name: `${r.rule} witness (${r.witness.schedule})`, witness: r.witness }));
  const first = result.classes.find((c) => c.witness.deviations === 0) ?? result.classes[0];
  return first ? [{ name: `default schedule (${first.witness.schedule})`, witness: first.witness }] : [];
}

function printed(args: ExploreArgs, what: string, exploration: Exploration, result: ExploreResult, witnesses: Judged[], exitCode: number): Printed {
  const site = args.site !== undefined ? { site: args.site } : {};
  switch (args.format) {
    case 'text':
      return exploreText(what, exploration, result, witnesses, exitCode, args.site);
    case 'json': {
      const replayed = witnesses.map((j) => ({ name: j.input, exitCode: j.exitCode, ...(j.reproduction && { reproduction: j.reproduction }) }));
      const urls = result.rules.map((r) => witnessUrl(r.witness, args.site));
      return { stdout: [JSON.stringify({ exitCode, exploration, result, witnesses: replayed })], stderr: urls.length > 0 ? [`cancel-lab: witnesses: ${urls.join(' ')}`] : [] };
    }
    default:
      return render(witnesses, { format: args.format, ...site });
  }
}

export async function exploreCommand(argv: readonly string[], opts: ExploreCommandOptions = {}): Promise<ExploreOutcome> {
  const none = { exploration: null, result: null, witnesses: [] };
  const parsed = parseExploreArgs(argv);
  if (!parsed.ok) return { ...none, exitCode: 2, stdout: [], stderr: [`cancel-lab: ${parsed.error}.`, '', EXPLORE_USAGE] };
  if ('info' in parsed) return { ...none, exitCode: 0, stdout: [EXPLORE_USAGE], stderr: [] };
  const args = parsed.args;
  const cwd = opts.cwd ?? process.cwd();
  const own: NodeSides[] = opts.lanes ? [] : Array.from({ length: Math.max(1, availableParallelism()) }, () => createNodeSides());
  const lanes = opts.lanes ?? [...own];
  // A pair of our own that failed or hung in a run is closed and replaced (a given pair is the caller's).
  const renew = opts.lanes
    ? undefined
    : async (broken: Sides): Promise<Sides> => {
        const i = own.findIndex((s) => s === broken);
        if (i >= 0) await own.splice(i, 1)[0]?.close();
        const fresh = createNodeSides();
        own.push(fresh);
        return fresh;
      };
  try {
    const got = args.merge ? await shardFiles(args.inputs, cwd) : await search(args, cwd, lanes, renew);
    if (!got.ok) return { ...none, exitCode: 2, stdout: [], stderr: [`cancel-lab: ${got.error}`] };
    const result = await summarize(got.exploration, lanes);
    const sides = lanes[0] as Sides;
    const witnesses: Judged[] = [];
    for (const { name, witness } of judgedWitnesses(result)) witnesses.push({ ...(await judgeInput(`#${witness.link}`, { sides, cwd })), input: name });
    const exitCode = result.schedules === result.noVerdict ? 3 : result.mustBroken ? 1 : 0;
    return { exploration: got.exploration, result, witnesses, exitCode, ...printed(args, got.what, got.exploration, result, witnesses, exitCode) };
  } finally {
    await Promise.all(own.map((s) => s.close()));
  }
}
