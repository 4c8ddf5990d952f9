/**
 * One schedule, run and judged: the choices the run took at each of its decision points (the
 * forced ones, then the chooser's), its trace hash, the rules it breaks, its outcome class.
 */
import { Run, haltOf, type Chooser, type Decision, type Sides } from '../engine/index.ts';
import { checkRun } from '../rules/index.ts';
import { formatSchedule, type Scenario } from '../scenario/index.ts';
import { traceHash, type TraceEvent } from '../trace/index.ts';
import { outcomeClass } from './outcome.ts';

/** One schedule's run, as the explorer keeps it (and a shard file carries it). */
export interface ScheduleRecord {
  /** The choices taken, as a schedule string. */
  schedule: string;
  /** Its number in the random search (absent in the exhaustive one). */
  n?: number;
  traceHash: string;
  /** Rules the run breaks (MUST and SHOULD), and those of them that are MUSTs; both sorted. */
  violated: string[];
  must: string[];
  outcome: string;
  /** Why the run is no verdict (an engine error, a bound, a side that failed); its rules are not counted then. */
  problem?: string;
}

/** What a run tells the search besides its record: how many options each decision had. */
export interface Ran {
  record: ScheduleRecord;
  choices: number[];
  options: number[];
  /** The sides failed or hung in it: they may be stuck or gone, and should not run another schedule. */
  broken: boolean;
}

/** After the forced choices, `then` answers (0 when absent); a forced choice a decision lacks is 0. */
function recording(forced: readonly number[], then: ((decision: Decision) => number) | null, choices: number[], options: number[]): Chooser {
  return {
    choose(decision) {
      const i = choices.length;
      const wanted = i < forced.length ? (forced[i] ?? 0) : then === null ? 0 : then(decision);
      const choice = wanted < decision.options ? wanted : 0;
      choices.push(choice);
      options.push(decision.options);
      return choice;
    },
  };
}

function problemOf(trace: readonly TraceEvent[]): string | undefined {
  const halt = haltOf(trace);
  if (halt !== null) return halt.message;
  const error = trace.find((e) => e.kind === 'error');
  // A client that never connected is judged all the same (its outcome class says so): the
  // handshake has rules of its own (a cancel of initialize, race R5), as the command line judges them.
  return error?.kind === 'error' ? `engine error at ${error.t} ms: ${error.message}` : undefined;
}

/** A run that failed before it ended: no verdict, and sides that should not run another schedule. */
export function failedRun(choices: readonly number[], why: string): Ran {
  const record = { schedule: formatSchedule(choices), traceHash: '', violated: [], must: [], outcome: 'run failed', problem: `the run failed: ${why}` };
  return { record, choices: [...choices], options: [], broken: true };
}

/**
 * Runs `scenario` on `sides` with the forced choices, then `then`'s; never throws for a run that
 * fails (its record says so).
 */
export async function runSchedule(scenario: Scenario, sides: Sides, forced: readonly number[], then: ((decision: Decision) => number) | null = null): Promise<Ran> {
  const choices: number[] = [];
  const options: number[] = [];
  let run: Run;
  try {
    run = await Run.start(scenario, sides, { chooser: recording(forced, then, choices, options) });
    await run.runToEnd();
  } catch (error) {
    return { ...failedRun(choices, error instanceof Error ? error.message : String(error)), options };
  }
  // The run's own index, grown with its trace: not built again for the checker and the outcome.
  const { trace, index } = run;
  const problem = problemOf(trace);
  const broken = problem === undefined ? checkRun(scenario, trace, index).filter((f) => f.verdict === 'violated' && f.severity !== 'info') : [];
  const record: ScheduleRecord = {
    schedule: formatSchedule(choices),
    traceHash: await traceHash(trace),
    violated: [...new Set(broken.map((f) => f.rule))].sort(),
    must: [...new Set(broken.filter((f) => f.severity === 'error').map((f) => f.rule))].sort(),
    outcome: problem === undefined ? outcomeClass(trace, index) : 'no verdict',
    ...(problem !== undefined && { problem }),
  };
  const halt = haltOf(trace);
  return { record, choices, options, broken: halt?.reason === 'side-busy' || halt?.reason === 'side-failed' };
}
