/**
 * The playground page, wired: one live session (session.ts) derives one run view per paint and
 * hands it to every panel (playground/panels/*), and the panels' intents come back here as
 * actions on the session. No panel remembers anything about the run, or touches another.
 */
import { decodeLink, defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import type { RunView } from '../../src/views/index.ts';
import { createSession, type LiveState } from './session.ts';
import { createCallFormPanel } from './playground/panels/call-form.ts';
import { createCallsPanel } from './playground/panels/calls.ts';
import { createClockPanel } from './playground/panels/clock.ts';
import { createConnectionPanel } from './playground/panels/connection.ts';
import { createDiagramsPanel } from './playground/panels/diagrams.ts';
import { createEditorPanel } from './playground/panels/editor.ts';
import { createErrorsPanel } from './playground/panels/errors.ts';
import { createFaultsPanel } from './playground/panels/faults.ts';
import { createLedgerPanel } from './playground/panels/ledger.ts';
import { createLogsPanel } from './playground/panels/logs.ts';
import { createReproductionPanel } from './playground/panels/reproduction.ts';
import { createSharePanel } from './playground/panels/share.ts';
import { createTimelinePanel } from './playground/panels/timeline.ts';
import { createVerdictPanel } from './playground/panels/verdict.ts';
import { createWireLogPanel } from './playground/panels/wire-log.ts';
import { bindShortcuts } from './playground/shortcuts.ts';
import { bindTabs } from './playground/tabs.ts';
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

/** A run the user starts by hand is no longer the one in the link. */
function forgetLink(): void {
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

export function mountPlayground(root: HTMLElement): void {
  const session = createSession();
  let last: { view: RunView; live: LiveState } | null = null;
  let highlight: readonly number[] = [];
  let link: OpenedLink | null = null;
  const selection = createFrameSelection();
  selection.subscribe(() => paint());
  // The last call named on this run: two calls before the next paint must not share a name.
  let named = { run: -1, n: 0 };

  function start(scenario: Scenario, how: 'play' | 'replay'): Promise<number> {
    highlight = [];
    selection.select(null);
    return session.start(scenario, how);
  }

  const actions: Actions = {
    act: (action) => session.act(action),
    call(tool, args) {
      if (!last) return;
      const { run, scenario } = last.live;
      named = { run, n: Math.max(highestCall(scenario), named.run === run ? named.n : 0) + 1 };
      session.act({ type: 'call', call: `#${named.n}`, tool, args });
    },
    togglePlay: () => session.togglePlay(),
    step: () => session.step(),
    setSpeed: (speed) => session.setSpeed(speed),
    restart(changes = {}) {
      forgetLink();
      const from = last?.view.scenario ?? defaultScenario();
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
    selectFrame(frame) {
      // Until the wire log marks the selected frame itself, its row is shown as highlighted.
      const row = frame === null ? undefined : last?.view.wire.find((w) => w.frame === frame);
      highlight = row ? [row.seq] : [];
      selection.select(frame);
    },
    settle: () => session.settle(),
  };

  const callForm = createCallFormPanel(root, actions);
  const panels: Panel[] = [
    createConnectionPanel(root, actions),
    createClockPanel(root, actions),
    createCallsPanel(root, actions),
    createLedgerPanel(root),
    createFaultsPanel(root, actions),
    createLogsPanel(root),
    createDiagramsPanel(root),
    // After the diagrams: it reads the trace slider they have just moved to the run's end.
    createTimelinePanel(root, actions),
    createVerdictPanel(root, actions),
    createWireLogPanel(root),
    createSharePanel(root, actions),
    createReproductionPanel(root),
    createEditorPanel(root, actions),
    createErrorsPanel(root),
  ];

  function paint(): void {
    if (!last) return;
    const { view, live } = last;
    // Ready once the client got past the handshake on this run (the tests and the benchmark wait for it).
    const ready = live.phase === 'live' && view.status !== 'connecting';
    root.dataset.ready = String(ready);
    if (ready && window.__cancelLabMetrics?.workersConnectedMs === undefined) {
      window.__cancelLabMetrics = { ...window.__cancelLabMetrics, workersConnectedMs: performance.now() };
    }
    for (const panel of panels) panel.update(view, { live, highlight, link, selectedFrame: selection.selectedFrame });
  }

  bindTabs(root);
  session.subscribe((view, live) => {
    last = { view, live };
    paint();
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

  /** Opens the link in the fragment, if any, and replays it; a broken one leaves the playground as it starts. */
  void (async () => {
    const fresh = { ...defaultScenario(), endAt: Number.MAX_SAFE_INTEGER };
    if (location.hash.length <= 1) return void start(fresh, 'play');
    const decoded = await decodeLink(location.hash);
    if (!decoded.ok) {
      link = { error: decoded.error };
      return void start(fresh, 'play');
    }
    const run = start(decoded.scenario, 'replay');
    link = { run: await run, steps: decoded.scenario.steps.length, meta: decoded.meta };
    paint();
  })();
}
