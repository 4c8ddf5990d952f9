/**
 * An embedded scenario comes alive on Run: its own client and server workers replay it in
 * virtual time mapped to wall time, and the wire log fills in as the frames are written. The
 * workers stop on Reset, and when the embed scrolls far off-screen, so several embeds on one
 * page cost nothing until read.
 */
import { decodeLink } from '../../src/scenario/index.ts';
import { callViews, describeCall, wireRows } from '../../src/views/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import type { BrowserSides } from './browser-sides.ts';
import type { LiveDriver } from './live-driver.ts';

function cell(text: string, className = ''): HTMLTableCellElement {
  return Object.assign(document.createElement('td'), { textContent: text, className });
}

function need<T extends Element>(root: HTMLElement, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`embed markup lacks ${selector}`);
  return found;
}

export function mountEmbed(figure: HTMLElement): void {
  const link = figure.dataset.link ?? '';
  const run = need<HTMLButtonElement>(figure, 'button.run');
  const reset = need<HTMLButtonElement>(figure, 'button.reset');
  const copy = need<HTMLButtonElement>(figure, 'button.copy');
  const status = need<HTMLElement>(figure, '.status');
  const body = need<HTMLTableSectionElement>(figure, '.embed-log tbody');
  const outcome = need<HTMLUListElement>(figure, '.embed-outcome ul');
  const staticRows = body.innerHTML;
  const staticOutcome = outcome.innerHTML;
  let sides: BrowserSides | null = null;
  let driver: LiveDriver | null = null;

  function render(trace: readonly TraceEvent[]): void {
    body.replaceChildren(
      ...wireRows(trace).map((row) => {
        const tr = document.createElement('tr');
        tr.className = row.dir;
        const code = document.createElement('code');
        code.textContent = row.raw.length > 140 ? `${row.raw.slice(0, 140)}…` : row.raw;
        const message = document.createElement('td');
        message.append(code);
        tr.append(cell(String(row.sentAt), 'num'), cell(row.direction), cell(`${row.framing ? `${row.framing} ` : ''}${row.what}`), cell(row.id, 'num'), message);
        return tr;
      }),
    );
    outcome.replaceChildren(...callViews(trace).map((c) => Object.assign(document.createElement('li'), { textContent: describeCall(c) })));
  }

  async function stop(): Promise<void> {
    const d = driver;
    driver = null;
    await d?.dispose();
    sides?.terminate();
    sides = null;
    body.innerHTML = staticRows;
    outcome.innerHTML = staticOutcome;
    figure.classList.remove('show-all');
    run.disabled = false;
    reset.disabled = true;
  }

  run.addEventListener('click', () => {
    void (async () => {
      const decoded = await decodeLink(link);
      if (!decoded.ok) {
        status.textContent = decoded.error;
        return;
      }
      run.disabled = true;
      reset.disabled = false;
      figure.classList.add('show-all');
      status.textContent = 'Starting the client and server workers…';
      // The engine and the workers load only now: a page of lessons ships none of it up front.
      const [{ createBrowserSides }, { LiveDriver }] = await Promise.all([import('./browser-sides.ts'), import('./live-driver.ts')]);
      sides = createBrowserSides();
      const d = await LiveDriver.start(
        decoded.scenario,
        sides,
        () => render(d.run.trace),
        () => {
          status.textContent = `live: t = ${d.now} ms`;
        },
      );
      driver = d;
      render(d.run.trace);
      d.play();
    })();
  });
  reset.addEventListener('click', () => {
    status.textContent = '';
    void stop();
  });
  copy.addEventListener('click', () => {
    const url = `${location.origin}/playground/#${link}`;
    void navigator.clipboard.writeText(url).then(
      () => (status.textContent = 'Link copied.'),
      () => (status.textContent = url),
    );
  });
  // Far off-screen, a live embed lets its workers go.
  new IntersectionObserver(
    (entries) => {
      if (driver && entries.every((e) => !e.isIntersecting)) {
        status.textContent = 'Stopped while off-screen.';
        void stop();
      }
    },
    { rootMargin: '1500px 0px' },
  ).observe(figure);
}
