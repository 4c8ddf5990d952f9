/**
 * The Share panel: a permalink of the run (refused past MAX_LINK_LENGTH, with the scenario to
 * download instead), the <iframe> snippet, the trace as JSON Lines, and the bug report. What it
 * says belongs to the run it was made for: a new run clears it. Share always says what it did:
 * a picker changed on the way to it (a latency typed, then Share) starts a new run first, and
 * Share waits for that run and shares it.
 */
import { MAX_LINK_LENGTH, permalinkOf, type Scenario } from '../../../../src/scenario/index.ts';
import { bugReport } from '../../../../src/report/index.ts';
import { EXPORT_LABEL, exportFormatsFor, exportTrace, grouped, plural, serializeTrace, traceHash, type ExportFormat } from '../../../../src/trace/index.ts';
import type { RunView } from '../../../../src/views/index.ts';
import { checkRun } from '../../../../src/rules/index.ts';
import { nextTask } from '../../next-task.ts';
import { saveFile } from '../../save-file.ts';
import { byId, el } from '../dom.ts';
import type { Actions, Panel } from '../types.ts';
import type { SettledRun } from '../../session.ts';

export function createSharePanel(root: HTMLElement, actions: Actions): Panel {
  const shareLink = byId<HTMLInputElement>(root, 'share-link');
  const copyLink = byId<HTMLButtonElement>(root, 'copy-link');
  const message = byId<HTMLElement>(root, 'share-message');
  const snippet = byId<HTMLTextAreaElement>(root, 'embed-snippet');
  const snippetField = byId<HTMLElement>(root, 'embed-snippet-field');
  let view: RunView | null = null;
  /** The run the panel shows what it made for: a paint of a newer one clears it. */
  let run = -1;

  function say(text: string, ...more: (Node | string)[]): void {
    message.replaceChildren(text, ...more);
  }

  /**
   * Says what was made for `settled`, as that run's. A paint can reach this panel after the
   * click (a paint pass yields between panels): it must not take the run it was made for as new.
   */
  function sayFor(settled: SettledRun, text: string, ...more: (Node | string)[]): void {
    run = Math.max(run, settled.run);
    say(text, ...more);
  }

  function downloadLink(scenario: Scenario): HTMLAnchorElement {
    const href = URL.createObjectURL(new Blob([JSON.stringify(scenario, null, 2)], { type: 'application/json' }));
    return el('a', { href, download: 'scenario.json', textContent: 'Download scenario.json' });
  }

  /**
   * A setting the user typed that the run did not take (its field refused it, and the run kept
   * the last good value): the link would not be what the form shows. The call form's arguments
   * are no setting (they go into a call only when Call is pressed), so they do not count.
   */
  function refusedSetting(): HTMLInputElement | HTMLSelectElement | null {
    for (const field of root.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input:invalid, select:invalid')) if (!field.closest('#call-form')) return field;
    return null;
  }

  async function share(): Promise<void> {
    const shown = actions.shownImport();
    if (shown && !shown.made) return say(`This is the trace imported from ${shown.name}: it has no link of its own. Make a scenario from it (under Import) to get one that replays it.`);
    const refused = refusedSetting();
    if (refused) {
      const name = (refused.labels?.[0]?.textContent ?? refused.id).trim();
      refused.reportValidity();
      return say(`Not shared: ${name} is not a value the run can take (${refused.validationMessage}), so the run kept the last one that was. Correct it, or put it back, and Share again.`);
    }
    say('Making the link…');
    const settled = await actions.settle();
    if (!settled) return say('Nothing to share yet: the workers have not started a run.');
    const link = await permalinkOf(settled.scenario, await traceHash(settled.trace, nextTask));
    const url = `${location.origin}${location.pathname}#${link}`;
    if (url.length > MAX_LINK_LENGTH) {
      shareLink.value = '';
      copyLink.disabled = true;
      sayFor(settled, `This run's link would be ${url.length} characters, over the ${MAX_LINK_LENGTH} that survive in bug trackers and chat. Download the scenario as a file instead.`, ' ', downloadLink(settled.scenario));
      return;
    }
    // The page's own address becomes the run's link, so reloading reopens it.
    history.replaceState(null, '', `#${link}`);
    shareLink.value = url;
    snippet.value = `<iframe src="${location.origin}/embed/?theme=light&height=520#${link}" title="MCP Cancel Lab scenario" width="100%" height="520" style="border:0" loading="lazy"></iframe>`;
    snippetField.hidden = false;
    copyLink.disabled = false;
    sayFor(settled, `Link ready (${plural(url.length, 'character')}): it replays its ${plural(settled.scenario.steps.length, 'action')} up to t = ${grouped(settled.scenario.endAt)} ms.`);
  }

  async function copyReport(): Promise<void> {
    const shown = actions.shownImport();
    if (shown) return copyMarkdown(await shown.report(), say);
    const settled = await actions.settle();
    if (!settled) return say('Nothing to report yet: the workers have not started a run.');
    const hash = await traceHash(settled.trace, nextTask);
    const link = `${location.origin}${location.pathname}#${await permalinkOf(settled.scenario, hash)}`;
    const markdown = bugReport({
      scenario: settled.scenario,
      trace: settled.trace,
      // The findings are all the report needs of a run view: judged alone, not the whole view derived again.
      findings: checkRun(settled.scenario, settled.trace),
      link: link.length <= MAX_LINK_LENGTH ? link : null,
      traceHash: hash,
    });
    await copyMarkdown(markdown, (text) => sayFor(settled, text));
  }

  async function copyMarkdown(markdown: string, tell: (text: string) => void): Promise<void> {
    try {
      await navigator.clipboard.writeText(markdown);
      tell(`Bug report copied (${markdown.length} characters of Markdown).`);
    } catch {
      tell('The browser refused the clipboard.');
    }
  }

  byId<HTMLButtonElement>(root, 'share').addEventListener('click', () => void share());
  byId<HTMLButtonElement>(root, 'copy-report').addEventListener('click', () => void copyReport());
  byId<HTMLButtonElement>(root, 'export-trace').addEventListener('click', () => view && saveFile('trace.jsonl', `${serializeTrace(view.trace)}\n`, 'application/jsonl'));
  // The run as another tool's capture of it: the one format each transport has (src/trace/export/).
  const exportOther = byId<HTMLButtonElement>(root, 'export-other');
  const otherFormat = (v: RunView): ExportFormat => exportFormatsFor(v.scenario.transport)[0] ?? 'mcpsnoop';
  exportOther.addEventListener('click', () => {
    if (!view) return;
    const file = exportTrace(view.trace, otherFormat(view));
    saveFile(file.name, file.text, file.type);
  });
  copyLink.addEventListener('click', () => {
    void navigator.clipboard.writeText(shareLink.value).then(
      () => say('Link copied.'),
      () => say('The browser refused the clipboard; select the link and copy it by hand.'),
    );
  });

  return {
    update(next, page) {
      view = next;
      const label = `Download as ${EXPORT_LABEL[otherFormat(next)]}`;
      if (exportOther.textContent !== label) exportOther.textContent = label;
      if (page.live.run === run) return;
      run = page.live.run;
      shareLink.value = '';
      copyLink.disabled = true;
      snippetField.hidden = true;
      say('');
    },
  };
}
