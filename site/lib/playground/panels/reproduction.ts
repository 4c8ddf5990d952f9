/**
 * Whether the run reproduces the link it was opened from, in the words `reproduction` says for
 * the runner too (from the link's recorded meta and the hash of the trace its replay gave).
 * Shown only while the running run still is the link's (the same run, no action added since):
 * it goes as soon as the run is no longer the link's.
 */
import { traceHash } from '../../../../src/trace/index.ts';
import { nextTask } from '../../next-task.ts';
import { reproduction, type ReproductionKind } from '../../../../src/views/index.ts';
import { byId, el } from '../dom.ts';
import type { OpenedLink, PageState, Panel } from '../types.ts';

const INSTEAD: Record<Extract<OpenedLink, { error: string }>['instead'], string> = {
  fresh: 'The playground below starts empty instead.',
  saved: 'The work saved in this tab is back instead.',
  kept: 'The run below is the one this tab had.',
};

const HEADLINE_CLASS: Record<ReproductionKind, string> = { exact: 'reproduced', differs: 'differs', 'other-engine': 'differs', 'not-recorded': 'muted' };

/** The link's run, as it stands: not (or no longer) the link's, still replaying, or replayed with this hash. */
function linkRun(page: PageState): Extract<OpenedLink, { run: number }> | null {
  const link = page.link;
  if (!link || 'error' in link || link.run !== page.live.run || page.live.phase !== 'live') return null;
  return page.live.scenario.steps.length === link.steps ? link : null;
}

export function createReproductionPanel(root: HTMLElement): Panel {
  const status = byId<HTMLElement>(root, 'replay-status');
  const error = byId<HTMLElement>(root, 'link-error');
  // The hash of the trace the link's replay gave, computed once per replay (it is async).
  let hashed: { run: number; hash: Promise<string> } | null = null;
  // The run whose banner should show now (null: none), and the run whose banner is drawn.
  let wanted: number | null = null;
  let painted: number | null = null;

  async function paint(link: Extract<OpenedLink, { run: number }>, hash: Promise<string>): Promise<void> {
    const now = await hash;
    // A hash that resolved after the run moved on must not bring the banner back.
    if (wanted !== link.run || painted === link.run) return;
    painted = link.run;
    status.hidden = false;
    const verdict = reproduction(link.meta, now);
    status.replaceChildren(el('span', { className: HEADLINE_CLASS[verdict.kind] }, verdict.headline), ` — ${verdict.detail}`);
  }

  return {
    update(view, page) {
      const broken = page.link && 'error' in page.link ? page.link : null;
      error.hidden = broken === null;
      // The decoder's reasons end without a stop when they end with a schema's message.
      if (broken !== null) error.textContent = `This link could not be opened. ${broken.error.replace(/[^.!?]$/, '$&.')} ${INSTEAD[broken.instead]}`;
      const link = linkRun(page);
      wanted = link?.run ?? null;
      if (!link) {
        status.hidden = true;
        painted = null;
        return;
      }
      // Hashing serializes the whole trace (tens of ms for a long run): a slice per task, after the paint.
      if (hashed?.run !== link.run) hashed = { run: link.run, hash: nextTask().then(() => traceHash(view.trace, nextTask)) };
      void paint(link, hashed.hash);
    },
  };
}
