/**
 * The /embed/ route: the scenario comes from the URL fragment (a permalink) and is replayed at
 * once in the browser, so the reader sees its outcome without pressing anything, and can then
 * run it live. A bare /embed/ says how to embed a scenario; a broken link gets a clear message.
 */
import { decodeLink, settingLine } from '../../src/scenario/index.ts';
import { plural } from '../../src/trace/index.ts';
import { mountEmbed } from './embed.ts';

/** The help's snippet names this site, so it can be pasted as it is into another. */
function showHelp(help: HTMLElement): void {
  help.hidden = false;
  const snippet = help.querySelector('#embed-snippet');
  if (snippet) snippet.textContent = (snippet.textContent ?? '').replace('src="/embed/', `src="${location.origin}/embed/`);
}

export function mountEmbedPage(main: HTMLElement): void {
  const figure = main.querySelector<HTMLElement>('figure.cancel-lab-embed');
  const error = main.querySelector<HTMLElement>('#embed-error');
  const help = main.querySelector<HTMLElement>('#embed-help');
  if (!figure || !error || !help) return;
  // With a height in the query the embed fits its frame: the log takes the room the rest leaves
  // and scrolls, the outcome scrolls too when it is long, and nothing is cut off below.
  const height = Number(new URLSearchParams(location.search).get('height'));
  if (height >= 120 && height <= 4000) {
    main.classList.add('fit-frame');
    const outcome = figure.querySelector<HTMLElement>('.embed-outcome');
    // It may scroll now: a keyboard reaches it, as it does the log.
    outcome?.setAttribute('tabindex', '0');
  }
  // Only the fragment changed (a host page that points its frame at another scenario): a page of
  // its own, as a new link would be, rather than the old run under the new address.
  window.addEventListener('hashchange', () => location.reload());
  const link = location.hash.replace(/^#/, '');
  if (link === '') {
    figure.hidden = true;
    showHelp(help);
    return;
  }
  void decodeLink(link).then((decoded) => {
    if (!decoded.ok) {
      error.hidden = false;
      error.textContent = `This embed's link could not be opened. ${decoded.error}`;
      figure.hidden = true;
      return;
    }
    const s = decoded.scenario;
    figure.dataset.link = link;
    const setting = main.querySelector('#embed-setting');
    const actions = plural(s.steps.length, 'action');
    if (setting) setting.textContent = `${settingLine(s)} · ${actions}`;
    const open = figure.querySelector<HTMLAnchorElement>('a.open');
    if (open) open.href = `/playground/#${link}`;
    const body = figure.querySelector('tbody');
    if (body) {
      const row = document.createElement('tr');
      const td = Object.assign(document.createElement('td'), { colSpan: 5, textContent: `Replaying ${s.steps.length === 1 ? 'this action' : `these ${actions}`} in your browser…` });
      row.append(td);
      body.replaceChildren(row);
    }
    mountEmbed(figure, { replay: s });
  });
}
