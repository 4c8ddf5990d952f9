/**
 * An embedded scenario comes alive on Run: a live session (session.ts, the playground's own)
 * replays it in virtual time mapped to wall time in its own workers, and each paint renders
 * the wire log and the outcome with the same renderer as the static embed (wire-html.ts), so
 * the live embed shows everything the static one does. The live clock stops when the scenario
 * ends (its endAt, or nothing left to run): an embed has no controls to act on, so nothing can
 * happen after. The workers stop on Reset, and when the embed scrolls far off-screen, so several
 * embeds on one page cost nothing until read.
 *
 * A page with no build-time rendering (the /embed/ route) asks for `replay`: the scenario is
 * replayed at once in the browser, and that result is what the embed shows before Run and
 * after Reset.
 */
import { workersFailed } from './workers-failed.ts';
import { setEnabled } from './keep-focus.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { RunView } from '../../src/views/index.ts';
import type { LiveState, Session } from './session.ts';
import { setHtml } from './set-html.ts';

export interface EmbedOptions {
  /** Replay this scenario in the browser at once and show its result until Run, and after Reset. */
  replay?: Scenario;
}

function need<T extends Element>(root: HTMLElement, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`embed markup lacks ${selector}`);
  return found;
}

/**
 * What a live or replayed embed needs: the session (engine and workers), the renderer, the link
 * decoder. They load only when an embed runs, so a page of lessons ships none of them up front
 * (its embeds are rendered at build time).
 */
async function loadRunning() {
  // Each import names what it takes, so that the bundler keeps only that of the module (the
  // scenario layer's library stays out of the chunk).
  const [createSession, { outcomeHtml, embedRowsHtml }, decodeLink] = await Promise.all([
    import('./session.ts').then(({ createSession }) => createSession),
    import('./wire-html.ts'),
    import('../../src/scenario/index.ts').then(({ decodeLink }) => decodeLink),
  ]);
  const rowsHtml = (view: RunView): string => embedRowsHtml(view).html;
  return { createSession, outcomeHtml, rowsHtml, decodeLink };
}

/** A live run is over at its endAt, or once no event is left to run (nothing can add one). */
function isOver(live: LiveState, endAt: number): boolean {
  return live.phase === 'live' && (live.nextEvent === null || live.now >= endAt);
}

/**
 * When a run that is over ended, from its trace: its last event, or `endAt` where the scenario
 * cut it off. Not the clock, which a live run moves past the last event by however many frames
 * went by before it paused, so a replay and a live run of one scenario say the same time.
 */
function endedAt(view: RunView, live: LiveState, endAt: number): number {
  return live.nextEvent === null ? Math.min(view.lastT, endAt) : endAt;
}

/** Runs `scenario` to its end in fresh workers, then lets them go; the last paint is the result. */
async function replayed(scenario: Scenario): Promise<{ view: RunView; live: LiveState } | null> {
  const { createSession } = await loadRunning();
  const s = createSession();
  const last: { view?: RunView; live?: LiveState } = {};
  s.subscribe((view, live) => Object.assign(last, { view, live }));
  try {
    await s.start(scenario, 'replay');
  } finally {
    await s.dispose();
  }
  return last.view && last.live ? { view: last.view, live: last.live } : null;
}

/**
 * The rows before the user's first action (the handshake, marked `setup` by the renderer) stay
 * folded behind one button above the log, which says how many there are; `update` after the
 * rows change.
 */
function foldSetup(figure: HTMLElement, body: HTMLTableSectionElement): { update(): void } {
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'setup-toggle';
  body.closest('table')?.before(toggle);
  const update = (): void => {
    const n = body.querySelectorAll('tr.setup').length;
    const open = figure.classList.contains('show-setup');
    toggle.hidden = n === 0;
    toggle.setAttribute('aria-expanded', String(open));
    // Its own plural, not the views' `plural`: a value imported from src/views puts that layer's
    // shared chunk (over 300 KB) on every lesson page that holds an embed.
    toggle.textContent = `${open ? 'Hide' : 'Show'} the setup: ${n} frame${n === 1 ? '' : 's'} before the first action (the handshake)`;
  };
  toggle.addEventListener('click', () => {
    figure.classList.toggle('show-setup');
    update();
  });
  update();
  return { update };
}

export function mountEmbed(figure: HTMLElement, options: EmbedOptions = {}): void {
  const run = need<HTMLButtonElement>(figure, 'button.run');
  const reset = need<HTMLButtonElement>(figure, 'button.reset');
  const copy = need<HTMLButtonElement>(figure, 'button.copy');
  const status = need<HTMLElement>(figure, '.status');
  const body = need<HTMLTableSectionElement>(figure, '.embed-log tbody');
  const outcome = need<HTMLUListElement>(figure, '.embed-outcome ul');
  // What the embed shows at rest: the build's rendering, or the browser's replay once it is done.
  const resting = { rows: body.innerHTML, outcome: outcome.innerHTML, status: '' };
  const setup = foldSetup(figure, body);
  let session: Session | null = null;

  async function stop(note?: string): Promise<void> {
    const s = session;
    session = null;
    await s?.dispose();
    setHtml(body, resting.rows);
    setup.update();
    setHtml(outcome, resting.outcome);
    status.textContent = note ?? resting.status;
    figure.classList.remove('show-all');
    setEnabled([[run, true], [reset, false]], [run]);
  }

  async function replayAtOnce(scenario: Scenario): Promise<void> {
    run.disabled = true;
    status.textContent = 'Replaying in your browser…';
    const { outcomeHtml, rowsHtml } = await loadRunning();
    const result = await replayed(scenario).catch((error: unknown) => String(error));
    if (typeof result === 'string' || result === null || result.live.phase === 'failed') {
      const why = typeof result === 'string' ? result : (result?.live.failure ?? 'no result');
      status.textContent = workersFailed(why);
    } else {
      resting.rows = rowsHtml(result.view);
      resting.outcome = outcomeHtml(result.view);
      resting.status = `Replayed in your browser: ended at t = ${endedAt(result.view, result.live, scenario.endAt)} ms.`;
      setHtml(body, resting.rows);
      setup.update();
      setHtml(outcome, resting.outcome);
      status.textContent = resting.status;
    }
    run.disabled = false;
  }

  /** A Run live click is being taken up (the engine loading, the link decoding). */
  let starting = false;

  async function start(): Promise<void> {
    // One run per embed: a second click (a double-click) while the first is still loading would
    // start a second session, which Reset, knowing only the last, would never stop. Run itself is
    // disabled only below, with the focus handed to Reset.
    if (starting || session !== null) return;
    starting = true;
    try {
      await startSession();
    } finally {
      starting = false;
    }
  }

  async function startSession(): Promise<void> {
    // The engine and the workers load only now: a page of lessons ships none of it up front.
    const { createSession, decodeLink, outcomeHtml, rowsHtml } = await loadRunning();
    const decoded = await decodeLink(figure.dataset.link ?? '');
    if (!decoded.ok) {
      status.textContent = decoded.error;
      return;
    }
    const { endAt } = decoded.scenario;
    // Run live and Reset trade places, and the focus goes with them.
    setEnabled([[run, false], [reset, true]], [reset]);
    figure.classList.add('show-all');
    status.textContent = 'Starting the client and the server…';
    const s = createSession();
    session = s;
    s.subscribe((view, live) => {
      if (session !== s) return;
      setHtml(body, rowsHtml(view));
      setup.update();
      setHtml(outcome, outcomeHtml(view));
      if (live.phase === 'failed') status.textContent = workersFailed(live.failure ?? '');
      else if (isOver(live, endAt)) {
        if (live.playing) s.togglePlay();
        status.textContent = `ended at t = ${endedAt(view, live, endAt)} ms`;
      } else if (live.phase === 'live') status.textContent = `live: t = ${live.now} ms`;
    });
    await s.start(decoded.scenario, 'play');
  }

  run.addEventListener('click', () => void start());
  reset.addEventListener('click', () => void stop());
  copy.addEventListener('click', () => {
    const url = `${location.origin}/playground/#${figure.dataset.link ?? ''}`;
    void navigator.clipboard.writeText(url).then(
      () => (status.textContent = 'Link copied.'),
      () => (status.textContent = url),
    );
  });
  // Far off-screen, a live embed lets its workers go.
  new IntersectionObserver(
    (entries) => {
      if (session && entries.every((e) => !e.isIntersecting)) void stop('Stopped while off-screen.');
    },
    { rootMargin: '1500px 0px' },
  ).observe(figure);
  if (options.replay) void replayAtOnce(options.replay);
}
