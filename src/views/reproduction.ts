/**
 * Whether a replay reproduced the trace that was recorded with it (a permalink records its
 * trace hash and the engine and SDK versions; a library file records only the hash), in the
 * words the runner and the playground both say.
 */
import { ENGINE_VERSION, SDK_VERSION } from '../scenario/index.ts';

/** What was recorded: a permalink's LinkMeta, or a library file's hash alone. */
export interface RecordedRun {
  trace: string;
  engine?: string;
  sdk?: string;
}

export type ReproductionKind = 'exact' | 'differs' | 'other-engine' | 'not-recorded';

export interface ReproductionVerdict {
  /**
   * `exact`: the same trace hash; `differs`: another hash on the engine and SDK it was
   * recorded with (or versions unknown); `other-engine`: another hash, recorded with another
   * engine or SDK (a change there may explain it); `not-recorded`: nothing to compare with.
   */
  kind: ReproductionKind;
  headline: string;
  detail: string;
  /** `${headline} — ${detail}` */
  text: string;
}

const HEADLINE: Record<ReproductionKind, string> = {
  exact: 'Reproduced exactly',
  differs: 'The trace differs from the recorded one',
  'other-engine': 'The trace differs from the one recorded with another engine',
  'not-recorded': 'No recorded trace',
};

export function reproduction(recorded: RecordedRun | null, nowHash: string): ReproductionVerdict {
  const here = `engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}`;
  let kind: ReproductionKind;
  let detail: string;
  if (recorded === null || recorded.trace === '') {
    kind = 'not-recorded';
    detail = `this run's trace is ${nowHash}; nothing was recorded to compare it with.`;
  } else {
    const versions = recorded.engine !== undefined && recorded.sdk !== undefined ? `engine ${recorded.engine} and SDK ${recorded.sdk}` : null;
    const otherEngine = versions !== null && (recorded.engine !== ENGINE_VERSION || recorded.sdk !== SDK_VERSION);
    if (recorded.trace === nowHash) {
      kind = 'exact';
      detail = `trace ${nowHash}, ${here}${otherEngine ? ` (recorded with ${versions})` : ''}.`;
    } else {
      kind = otherEngine ? 'other-engine' : 'differs';
      detail = `recorded ${recorded.trace}${versions === null ? '' : ` with ${versions}`}; now ${nowHash} with ${here}.`;
    }
  }
  const headline = HEADLINE[kind];
  return { kind, headline, detail, text: `${headline} — ${detail}` };
}
