/**
 * An embedded scenario comes alive on Run: a live session (session.ts, the playground's own)
 * replays it in virtual time mapped to wall time in its own workers, and each paint renders
 * the wire log and the outcome with the same renderer as the static embed (wire-html.ts), so
 * the live embed shows everything the static one does. The workers stop on Reset, and when the
 * embed scrolls far off-screen, so several embeds on one page cost nothing until read.
 */
import { decodeLink } from '../../src/scenario/index.ts';
import type { Session } from './session.ts';
import { setHtml } from './set-html.ts';
import { outcomeHtml, wireRowHtml } from './wire-html.ts';

function need<T extends Element>(root: HTMLElement, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`embed markup lacks ${selector}`);
  return found;
}

export function mountEmbed(figure: HTMLElement): void {
  const run = need<HTMLButtonElement>(figure, 'button.run');
  const reset = need<HTMLButtonElement>(figure, 'button.reset');
  const copy = need<HTMLButtonElement>(figure, 'button.copy');
  const status = need<HTMLElement>(figure, '.status');
  const body = need<HTMLTableSectionElement>(figure, '.embed-log tbody');
  const outcome = need<HTMLUListElement>(figure, '.embed-outcome ul');
  const staticRows = body.innerHTML;
  const staticOutcome = outcome.innerHTML;
  let session: Session | null = null;

  async function stop(): Promise<void> {
    const s = session;
    session = null;
    await s?.dispose();
    setHtml(body, staticRows);
    setHtml(outcome, staticOutcome);
    figure.classList.remove('show-all');
    run.disabled = false;
    reset.disabled = true;
  }

  async function start(): Promise<void> {
    const decoded = await decodeLink(figure.dataset.link ?? '');
    if (!decoded.ok) {
      status.textContent = decoded.error;
      return;
    }
    run.disabled = true;
    reset.disabled = false;
    figure.classList.add('show-all');
    status.textContent = 'Starting the client and server workers…';
    // The engine and the workers load only now: a page of lessons ships none of it up front.
    const { createSession } = await import('./session.ts');
    const s = createSession();
    session = s;
    s.subscribe((view, live) => {
      if (session !== s) return;
      setHtml(body, view.cells.map((cells) => wireRowHtml(cells, 'embed')).join(''));
      setHtml(outcome, outcomeHtml(view));
      if (live.phase === 'live') status.textContent = `live: t = ${live.now} ms`;
      else if (live.phase === 'failed') status.textContent = `The workers could not start: ${live.failure ?? ''}`;
    });
    await s.start(decoded.scenario, 'play');
  }

  run.addEventListener('click', () => void start());
  reset.addEventListener('click', () => {
    status.textContent = '';
    void stop();
  });
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
      if (session && entries.every((e) => !e.isIntersecting)) {
        status.textContent = 'Stopped while off-screen.';
        void stop();
      }
    },
    { rootMargin: '1500px 0px' },
  ).observe(figure);
}
