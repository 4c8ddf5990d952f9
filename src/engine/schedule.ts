/**
 * The run's decision points (src/scenario/space.ts says which there are): where a scenario
 * with a schedule space could go more than one way, the run asks a chooser which way it goes.
 * Choice 0 is always what the scenario alone does, so a run whose chooser answers 0 everywhere
 * is the scenario's own run, byte for byte, and a scenario without a space asks nothing.
 */
import { optionsWith, parseSchedule, stepOfKey, type ExploreSpace, type FrameRule, type Scenario, type Step } from '../scenario/index.ts';
import type { Direction, JsonRpcMessage } from '../trace/index.ts';

export type DecisionKind = 'at' | 'latency' | 'fate' | 'tie';

/** One decision point as the run met it: what it decides, and how many ways it could go. */
export interface Decision {
  kind: DecisionKind;
  /** In words: "the latency of frame 4 (c2s tools/call)". */
  what: string;
  options: number;
}

/** Answers the run's decisions: an index in 0 … options − 1 (anything else counts as 0 and is reported). */
export interface Chooser {
  choose(decision: Decision): number;
}

/** What may happen to a matched frame besides its latency. */
export type Fate = 'deliver' | 'drop' | 'duplicate';

/** A chooser that replays a list of choices, then answers 0. */
export function replaying(choices: readonly number[]): Chooser {
  let next = 0;
  return { choose: () => choices[next++] ?? 0 };
}

function methodOf(msg: JsonRpcMessage | null): string | undefined {
  if (!msg) return undefined;
  return msg.method ?? (msg.id !== undefined ? 'response' : undefined);
}

/**
 * The decisions of one run: it holds the space, counts the frame rules' matches, and keeps the
 * decisions met and the choices taken, which make the run's schedule.
 */
export class Schedule {
  private readonly space: ExploreSpace | undefined;
  private readonly chooser: Chooser | null;
  private readonly ruleHits: number[];
  /** Every decision met, with the choice taken, in order. */
  readonly taken: { decision: Decision; choice: number }[] = [];
  /** A choice the chooser gave that the decision does not have (a schedule made for another run). */
  private problem: string | null = null;
  private problemSaid = false;

  /** `chooser` overrides the scenario's own `explore.schedule`. */
  constructor(scenario: Scenario, chooser?: Chooser) {
    this.space = scenario.explore;
    const own = this.space?.schedule === undefined ? null : parseSchedule(this.space.schedule);
    this.chooser = chooser ?? (this.space === undefined ? null : replaying(own?.ok === true ? own.choices : []));
    this.ruleHits = (this.space?.frames ?? []).map(() => 0);
  }

  /** The first bad choice, once: null before it and after it was taken. */
  takeProblem(): string | null {
    if (this.problem === null || this.problemSaid) return null;
    this.problemSaid = true;
    return this.problem;
  }

  /** Does the space let same-instant events run out of the tie rule's order? */
  get ties(): boolean {
    return this.space?.ties === true;
  }

  /** Asks the chooser; a single option is no decision. */
  choose(kind: DecisionKind, options: number, what: () => string): number {
    if (this.chooser === null || options < 2) return 0;
    const decision = { kind, what: what(), options };
    const asked = this.chooser.choose(decision);
    const choice = Number.isInteger(asked) && asked >= 0 && asked < options ? asked : 0;
    if (choice !== asked) this.problem ??= `the schedule's choice ${asked} at decision ${this.taken.length + 1} (${decision.what}) is not one of its ${options} options`;
    this.taken.push({ decision, choice });
    return choice;
  }

  /** The steps as the run schedules them: each step with a window at the `at` chosen for it. */
  steps(steps: readonly Step[]): Step[] {
    const windows = new Map<number, [string, NonNullable<ExploreSpace['at']>[string]]>();
    for (const [key, r] of Object.entries(this.space?.at ?? {})) {
      const i = stepOfKey(key, steps);
      if (i !== null) windows.set(i, [key, r]);
    }
    return steps.map((step, i) => {
      const window = windows.get(i);
      if (window === undefined) return step;
      const options = optionsWith(step.at, window[1]);
      const at = options[this.choose('at', options.length, () => `the time of step ${i} (${step.action.type}${'call' in step.action ? ` ${step.action.call}` : ''})`)] ?? step.at;
      return { ...step, at };
    });
  }

  /** The first frame rule a frame written `dir` matches (counting its matches), or null. */
  private rule(dir: Direction, msg: JsonRpcMessage | null): FrameRule | null {
    for (const [i, rule] of (this.space?.frames ?? []).entries()) {
      if (rule.dir !== dir || (rule.match !== undefined && rule.match !== methodOf(msg))) continue;
      const hit = (this.ruleHits[i] ?? 0) + 1;
      this.ruleHits[i] = hit;
      if (rule.nth === undefined || rule.nth === hit) return rule;
    }
    return null;
  }

  /**
   * The latency and the fate of frame `frame` written `dir` (`own` is the scenario's latency).
   * Frame rules match what the sides write, as faults do (their nth counts those frames only); a
   * forged frame, or a fault's duplicate, takes the direction's range and is never dropped.
   */
  frame(frame: number, dir: Direction, msg: JsonRpcMessage | null, own: number, forged: boolean): { latency: number; fate: Fate } {
    if (this.space === undefined) return { latency: own, fate: 'deliver' };
    const rule = forged ? null : this.rule(dir, msg);
    const r = rule?.ms ?? this.space[dir];
    const what = (): string => `frame ${frame} (${dir} ${methodOf(msg) ?? 'non-JSON-RPC'})`;
    let latency = own;
    if (r !== undefined) {
      const options = optionsWith(own, r);
      latency = options[this.choose('latency', options.length, () => `the latency of ${what()}`)] ?? own;
    }
    const fates: Fate[] = ['deliver', ...(rule?.drop === true ? ['drop' as const] : []), ...(rule?.duplicate === true ? ['duplicate' as const] : [])];
    const fate = fates[this.choose('fate', fates.length, () => `the fate of ${what()} (${fates.join(', ')})`)] ?? 'deliver';
    return { latency, fate };
  }

  /** The least latency any frame can take each way: what the lookahead may count on. */
  minLatency(own: Record<Direction, number>): Record<Direction, number> {
    const least = (dir: Direction): number => {
      const lows = [own[dir], this.space?.[dir]?.[0], ...(this.space?.frames ?? []).filter((r) => r.dir === dir).map((r) => r.ms?.[0])];
      return Math.min(...lows.filter((v): v is number => v !== undefined));
    };
    return { c2s: least('c2s'), s2c: least('s2c') };
  }
}
