/**
 * The /embed/ route: the scenario comes from the URL fragment (a permalink), is replayed at once
 * so the reader sees its outcome, and can then be run live. A broken link gets a clear message.
 */
import { decodeLink, settingLine } from '../../src/scenario/index.ts';
import { mountEmbed } from './embed.ts';

export function mountEmbedPage(main: HTMLElement): void {
  const figure = main.querySelector<HTMLElement>('figure.cancel-lab-embed');
  const error = main.querySelector<HTMLElement>('#embed-error');
  if (!figure || !error) return;
  const height = Number(new URLSearchParams(location.search).get('height'));
  if (height >= 120 && height <= 4000) figure.style.setProperty('--log-height', `${height - 110}px`);
  const link = location.hash.replace(/^#/, '');
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
    if (setting) setting.textContent = `${settingLine(s)} · ${s.steps.length} actions`;
    const open = figure.querySelector<HTMLAnchorElement>('a.open');
    if (open) open.href = `/playground/#${link}`;
    const body = figure.querySelector('tbody');
    if (body) {
      const row = document.createElement('tr');
      const td = Object.assign(document.createElement('td'), { colSpan: 5, textContent: `Press “Run live” to replay these ${s.steps.length} actions in your browser.` });
      row.append(td);
      body.replaceChildren(row);
    }
    mountEmbed(figure);
  });
}
