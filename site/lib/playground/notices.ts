/** What the page says it did with the user's work: replayed it under a new setting, or restored it after a reload. */
import type { Scenario } from '../../../src/scenario/index.ts';
import { describeChange, type Notice } from './panels/connection.ts';
import { savedEditorText } from './saved.ts';
import { plural } from '../../../src/trace/index.ts';

const steps = (n: number): string => plural(n, 'step');

/** "Replayed your 3 steps under Streamable HTTP (sessionful)", and how many the engine refused there. */
export function replayNotice(from: Scenario, next: Scenario): Notice {
  const n = steps(next.steps.length);
  const under = describeChange(from, next);
  return {
    run: null,
    say(view, live) {
      if (live.phase === 'replaying') return `Replaying your ${n} under ${under}…`;
      const refused = view.errors.length;
      return `Replayed your ${n} under ${under}.${refused > 0 ? ` ${refused} could not apply on this setting: they are kept, and the engine says why under Engine errors.` : ''}`;
    },
  };
}

export function restoreNotice(scenario: Scenario, startFresh: () => void): Notice {
  const editor = savedEditorText() === null ? '' : ', and your unsaved editor text';
  return {
    run: null,
    say: () => `Restored your scenario from before the reload (${steps(scenario.steps.length)}${editor}).`,
    button: { label: 'Start fresh', onClick: startFresh },
  };
}
