/**
 * What the playground's panels share: the page state handed to every panel with the run view,
 * and the intents a panel sends. A panel renders from these alone and never reaches into another.
 */
import type { ClientHandlers, LinkMeta, Scenario, WireFault } from '../../../src/scenario/index.ts';
import type { UserAction } from '../../../src/trace/index.ts';

/** A Stop pressed before the call's request reaches the wire (the call action's `stop`). */
export type StopBeforeWire = NonNullable<Extract<UserAction, { type: 'call' }>['stop']>;
import type { RunView } from '../../../src/views/index.ts';
import type { LiveState, SettledRun } from '../session.ts';

/** The link the page opened: the run that replayed it and what it recorded, or why it would not open. */
/**
 * The link in the fragment: replayed as run `run`, or refused, with what the playground shows
 * instead — a fresh start, the tab's saved work (a reload), or the run it had (a link pasted into
 * the open tab).
 */
export type OpenedLink = { run: number; steps: number; meta: LinkMeta | null } | { error: string; instead: 'fresh' | 'saved' | 'kept' };

export interface PageState {
  readonly live: LiveState;
  /** The trace events the user picked to see (a finding's witnesses). */
  readonly highlight: readonly number[];
  readonly link: OpenedLink | null;
  /** The wire frame the user picked (in the timeline or the wire log); see FrameSelection. */
  readonly selectedFrame: number | null;
}

/**
 * The one frame selected on the page, shared by the timeline and the wire log: either panel
 * calls `select` (through `Actions.selectFrame`), both read `selectedFrame` in their next update.
 */
export interface FrameSelection {
  readonly selectedFrame: number | null;
  select(frame: number | null): void;
  subscribe(listener: (frame: number | null) => void): void;
}

export function createFrameSelection(): FrameSelection {
  let selectedFrame: number | null = null;
  const listeners: ((frame: number | null) => void)[] = [];
  return {
    get selectedFrame() {
      return selectedFrame;
    },
    select(frame) {
      if (frame === selectedFrame) return;
      selectedFrame = frame;
      for (const listener of listeners) listener(frame);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}

/** The part of a scenario the Connection panel sets; changing it starts a new run. */
export type Setting = Pick<Scenario, 'revision' | 'transport' | 'httpServer' | 'serverProfile' | 'clientProfile' | 'latency' | 'negotiation'>;

export interface Actions {
  act(action: UserAction): void;
  /**
   * Calls a tool as the next call (#n); `stop` stops it before the wire, `asTask` makes it
   * task-augmented. Returns why not, when it cannot be made.
   */
  call(tool: string, args: Record<string, unknown>, options?: { stop?: StopBeforeWire | undefined; asTask?: boolean }): string | null;
  togglePlay(): void;
  step(): void;
  setSpeed(speed: number): void;
  /** A new run from the running scenario's setting with these changes, and no steps. */
  restart(changes?: Partial<Setting> & { faults?: WireFault[]; clientHandlers?: ClientHandlers | undefined; resumable?: Scenario['resumable'] | undefined }): void;
  /** Replays a scenario the user wrote. */
  runScenario(scenario: Scenario): void;
  highlight(witnesses: readonly number[]): void;
  /** Selects a wire frame (by its number) in the timeline and the wire log; null clears it. */
  selectFrame(frame: number | null): void;
  /** The run brought up to the shown time, for Share and the bug report. */
  settle(): Promise<SettledRun | null>;
  /** An imported trace, or the run of the scenario made from one, when that is what the page shows. */
  shownImport(): ShownImport | null;
}

/** What Share and the bug report describe while an import is shown (panels/import-scenario.ts). */
export interface ShownImport {
  name: string;
  /** The page shows the run of the scenario made from the import (it has a link); else the import itself (none). */
  made: boolean;
  /** The bug report of the import, with the made scenario's link once there is one. */
  report(): Promise<string>;
}

export interface Panel {
  update(view: RunView, page: PageState): void;
}
