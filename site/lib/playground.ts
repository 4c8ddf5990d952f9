/**
 * The playground page, wired: one live session (session.ts) derives one run view per paint and
 * hands it to every panel (playground/panels/*), and the panels' intents come back here as
 * actions on the session. No panel remembers anything about the run, or touches another.
 */
import { decodeLink, defaultScenario, settingLine, tasksWhyNot, type Scenario } from '../../src/scenario/index.ts';
import type { RunView } from '../../src/views/index.ts';
import { FORMAT_LABEL } from '../../src/trace/index.ts';
import { createSession, type LiveState, type StartHow } from './session.ts';
import { createCallFormPanel } from './playground/panels/call-form.ts';
import { createCallsPanel } from './playground/panels/calls.ts';
import { createClientHandlersPanel } from './playground/panels/client-handlers.ts';
import { createClockPanel } from './playground/panels/clock.ts';
import { createConnectionPanel } from './playground/panels/connection.ts';
import { createDiagramsPanel } from './playground/panels/diagrams.ts';
import { createEditorPanel } from './playground/panels/editor.ts';
import { createErrorsPanel } from './playground/panels/errors.ts';
import { createExplorePanel } from './playground/panels/explore.ts';
import { createFaultsPanel } from './playground/panels/faults.ts';
import { createImportPanel, type ImportedTrace } from './playground/panels/import.ts';
import { createImportScenarioPanel } from './playground/panels/import-scenario.ts';
import { createLedgerPanel } from './playground/panels/ledger.ts';
import { createLogsPanel } from './playground/panels/logs.ts';
import { createReproductionPanel } from './playground/panels/reproduction.ts';
import { createSharePanel } from './playground/panels/share.ts';
import { createTimelinePanel } from './playground/panels/timeline.ts';
import { createVerdictPanel } from './playground/panels/verdict.ts';
import { createWireLogPanel } from './playground/panels/wire-log.ts';
import { replayNotice, restoreNotice } from './playground/notices.ts';
import { forgetSaved, saveScenario, savedEditorText, savedScenario } from './playground/saved.ts';
import { bindShortcuts } from './playground/shortcuts.ts';
import { bindTabs } from './playground/tabs.ts';
import { layOutWorkbench } from './playground/first-layout.ts';
import { withoutSchedule } from './playground/witness.ts';
import { nextTask } from './next-task.ts';
import { freshScenario } from '../../workers/first-run.ts';
import { createFrameSelection, type Actions, type OpenedLink, type Panel } from './playground/types.ts';

declare global {
  interface Window {
    /** Figures the benchmark reads: ms from navigation start until both workers were connected. */
    __cancelLabMetrics?: { workersConnectedMs?: number; sequenceRenderMs?: number; sequenceMessages?: number };
  }
}

/** The highest `#n` a scenario's calls use. */
function highestCall(scenario: Scenario): number {
  return Math.max(0, ...scenario.steps.map((st) => (st.action.type === 'call' ? Number(/^#(\d+)$/.exec(st.action.call)?.[1] ?? 0) : 0)));
}

/** The longest a paint runs panels before it lets the page handle input (ms). */
const PAINT_SLICE_MS = 40;

/** A run the user starts by hand is no longer the one in the link. */
function forgetLink(): void {
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

export function mountPlayground(root: HTMLElement): void {
  // The panels measure what they draw in: the workbench must be laid out before they are made.
  layOutWorkbench();
  const session = createSession();
  let last: { view: RunView; live: LiveState } | null = null;
  let highlight: readonly number[] = [];
  let link: OpenedLink | null = null;
  const selection = createFrameSelection();
  selection.subscribe(() => paint());
  // The last call named on this run: two calls before the next paint must not share a name.
  let named = { run: -1, n: 0 };

  function start(scenario: Scenario, how: StartHow): Promise<number> {
    leaveImport();
    highlight = [];
    selection.select(null);
    return session.start(scenario, how);
  }

  /** Replays the steps so far under a changed setting (the same race, elsewhere), and says so. */
  function replayUnder(from: Scenario, next: Scenario): void {
    const notice = replayNotice(from, next);
    connection.notify(notice);
    // A run the user was stepping by hand stays paused after its replay; a playing one plays on.
    void start(next, last?.live.playing === false ? 'replay' : 'resume').then((run) => (notice.run = run));
  }

  const actions: Actions = {
    act(action) {
      leaveImport();
      session.act(action);
    },
    call(tool, args, { stop, asTask = false } = {}) {
      const refused = asTask ? tasksWhyNot(last?.live.scenario ?? defaultScenario()) : null;
      if (refused !== null) return refused;
      leaveImport();
      // Before the first paint there is no run to read yet: the call waits in the session, as #1.
      const run = last?.live.run ?? -1;
      named = { run, n: Math.max(last ? highestCall(last.live.scenario) : 0, named.run === run ? named.n : 0) + 1 };
      session.act({ type: 'call', call: `#${named.n}`, tool, args, ...(stop && { stop }), ...(asTask && { task: {} }) });
      return null;
    },
    togglePlay() {
      leaveImport();
      session.togglePlay();
    },
    step() {
      leaveImport();
      session.step();
    },
    setSpeed: (speed) => session.setSpeed(speed),
    restart(changes) {
      // The run to restart is the user's, not an imported trace shown over it.
      leaveImport();
      forgetLink();
      const from = withoutSchedule(last?.live.scenario ?? defaultScenario());
      // A changed setting keeps the user's steps: they replay up to where the run was, then it plays on.
      if (changes && from.steps.length > 0) return replayUnder(from, { ...from, ...changes });
      connection.notify(null);
      // Live runs have no natural end; the scenario's end only bounds headless replays.
      void start({ ...from, ...changes, steps: [], endAt: Number.MAX_SAFE_INTEGER }, 'play');
    },
    runScenario(scenario) {
      forgetLink();
      void start(scenario, 'replay');
    },
    highlight(witnesses) {
      highlight = witnesses;
      paint();
    },
    selectFrame: (frame) => selection.select(frame),
    settle: () => session.settle(),
    shownImport: () => importScenario.shown(),
  };

  const callForm = createCallFormPanel(root, actions);
  const editor = createEditorPanel(root, actions);
  const connection = createConnectionPanel(root, actions);
  const importPanel = createImportPanel(root, showImported);
  // The scenario made from an import runs as a link opened would: a new run in place of the user's.
  const importScenario = createImportScenarioPanel(root, (scenario) => {
    forgetLink();
    importPanel.movedOn();
    return start(scenario, 'replay');
  });
  const panels: Panel[] = [
    connection,
    callForm,
    createClientHandlersPanel(root, actions),
    createClockPanel(root, actions),
    createCallsPanel(root, actions),
    createLedgerPanel(root),
    createFaultsPanel(root, actions),
    createLogsPanel(root),
    createDiagramsPanel(root),
    // After the diagrams: it reads the trace slider they have just moved to the run's end.
    createTimelinePanel(root, actions),
    createVerdictPanel(root, actions),
    createWireLogPanel(root, (frame) => actions.selectFrame(frame)),
    createSharePanel(root, actions),
    importScenario,
    createExplorePanel(root, actions),
    createReproductionPanel(root),
    editor,
    createErrorsPanel(root),
  ];

  // A paint hands the newest view to every panel in order. When a long trace makes the panels
  // slow (the paint after a long replay), the pass yields to the page between panels so that a
  // task holds the main thread for about PAINT_SLICE_MS at most; a view that arrives meanwhile
  // goes to the panels still ahead, and then to all of them in one more pass.
  let painting = false;
  let paintAgain = false;
  /** How long each panel's last update took (ms), to foresee which will not fit in the slice. */
  const panelCost = new Map<Panel, number>();
  function paint(): void {
    if (painting) paintAgain = true;
    else void paintPass();
  }

  async function paintPass(): Promise<void> {
    painting = true;
    try {
      do {
        paintAgain = false;
        let slice = performance.now();
        for (const panel of panels) {
          const elapsed = performance.now() - slice;
          // A panel that took long last time starts a task of its own rather than stretch this one.
          if (elapsed > 0 && elapsed + (panelCost.get(panel) ?? 0) > PAINT_SLICE_MS) {
            await nextTask();
            slice = performance.now();
          }
          if (!last) return;
          const { view, live } = last;
          if (panel === panels[0]) markReady(view, live);
          const t0 = performance.now();
          panel.update(view, { live, highlight, link, selectedFrame: selection.selectedFrame });
          panelCost.set(panel, performance.now() - t0);
        }
      } while (paintAgain);
    } finally {
      painting = false;
    }
  }

  function markReady(view: RunView, live: LiveState): void {
    // Ready once the client got past the handshake on this run (the tests and the benchmark wait for it).
    const ready = live.phase === 'live' && view.status !== 'connecting';
    root.dataset.ready = String(ready);
    if (ready && window.__cancelLabMetrics?.workersConnectedMs === undefined) {
      window.__cancelLabMetrics = { ...window.__cancelLabMetrics, workersConnectedMs: performance.now() };
    }
  }

  /**
   * An imported trace shows in every panel as a run would: a view of it under its own revision
   * and transport. The user's run pauses behind it (nothing of it is lost) and comes back with the
   * notice's button, or when the user acts on it (a call, a Stop, a new run).
   */
  let imported: { behind: { view: RunView; live: LiveState } | null } | null = null;
  let importRun = 0;
  function showImported(t: ImportedTrace): void {
    if (last?.live.playing === true) session.togglePlay();
    const base = last?.live.scenario ?? defaultScenario();
    const end = t.trace.at(-1)?.t ?? 0;
    const scenario: Scenario = { ...base, revision: t.revision, transport: t.transport, steps: [], faults: [], endAt: end };
    imported = { behind: imported?.behind ?? last };
    highlight = [];
    selection.select(null);
    const live: LiveState = { run: --importRun, phase: 'live', failure: null, now: end, playing: false, speed: last?.live.speed ?? 1, nextEvent: null, scenario };
    // The worker derived the view under the import's setting; the page's scenario keeps the rest of the user's.
    last = { view: { ...t.view, scenario, setting: settingLine(scenario) }, live };
    importScenario.show(t);
    connection.notify({ run: null, say: () => `Showing the trace imported from ${t.name} (${FORMAT_LABEL[t.format]}), judged by ${t.revision} on ${t.transport}. Your run is paused.`, button: { label: 'Back to your run', onClick: leaveImport } });
    paint();
  }
  function leaveImport(): void {
    if (!imported) return;
    const behind = imported.behind;
    imported = null;
    importScenario.left();
    connection.notify(null);
    if (behind) last = behind;
    paint();
  }

  bindTabs(root);
  // What the user built is saved as it grows (a new run, a new step), so a reload brings it back.
  let saved = '';
  session.subscribe((view, live) => {
    if (imported) {
      // The user's run waits behind the import; it comes back as it now is.
      imported.behind = { view, live };
      return;
    }
    last = { view, live };
    paint();
    const key = `${live.run}:${live.phase}:${live.scenario.steps.length}`;
    if (live.phase === 'live' && key !== saved) {
      saved = key;
      saveScenario(live.scenario);
    }
  });
  addEventListener('pagehide', () => {
    // What is kept is the user's run, also while an imported trace is shown over it.
    const mine = imported ? imported.behind : last;
    if (mine?.live.phase === 'live') saveScenario(mine.live.scenario);
  });

  bindShortcuts(root, {
    call: () => callForm.submit(),
    stopNewest() {
      const newest = last?.view.calls.filter((c) => c.clientState === 'RUNNING').at(-1);
      if (newest) session.act({ type: 'stop', call: newest.call });
    },
    step: () => session.step(),
    togglePlay: () => session.togglePlay(),
  });

  /** Saved work is more than the page's own start: steps, another setting, or editor text. */
  const worthRestoring = (kept: Scenario): boolean =>
    kept.steps.length > 0 || savedEditorText() !== null || JSON.stringify({ ...kept, endAt: 0 }) !== JSON.stringify({ ...defaultScenario(), endAt: 0 });

  /** Brings back what this tab had before a reload, with a way to drop it. */
  function restore(scenario: Scenario): void {
    const notice = restoreNotice(scenario, () => {
      forgetSaved();
      connection.notify(null);
      editor.discard();
      forgetLink();
      void start(freshScenario(), 'play');
    });
    connection.notify(notice);
    void start(scenario, 'resume').then((run) => (notice.run = run));
  }

  /**
   * Opens the link in the fragment, if any, and replays it. Without a link, the tab's saved work
   * comes back: a link in the address wins over it. A broken link takes nothing away: pasted into
   * the open tab it leaves the run there, and on a load the saved work comes back as without one.
   */
  async function open(first: boolean): Promise<void> {
    connection.notify(null);
    const kept = first ? savedScenario() : null;
    if (location.hash.length <= 1) {
      link = null;
      return kept && worthRestoring(kept) ? restore(kept) : void start(freshScenario(), 'play');
    }
    const decoded = await decodeLink(location.hash);
    if (!decoded.ok) {
      if (!first) {
        link = { error: decoded.error, instead: 'kept' };
        return void paint();
      }
      const saved = kept !== null && worthRestoring(kept);
      link = { error: decoded.error, instead: saved ? 'saved' : 'fresh' };
      return saved ? restore(kept) : void start(freshScenario(), 'play');
    }
    link = null;
    const run = start(decoded.scenario, 'replay');
    link = { run: await run, steps: decoded.scenario.steps.length, meta: decoded.meta };
    paint();
  }
  void open(true);
  // Another permalink opened in this tab changes only the fragment: it replays too.
  addEventListener('hashchange', () => void open(false));
}
