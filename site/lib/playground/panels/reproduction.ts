/**
 * Whether the run reproduces the link it was opened from: derived from the link's recorded
 * meta, the hash of the trace its replay gave, and whether the running run still is the link's
 * (the same run, no action added since). It goes as soon as the run is no longer the link's.
 */
import { ENGINE_VERSION, SDK_VERSION } from '../../../../src/scenario/index.ts';
import { traceHash } from '../../../../src/trace/index.ts';
import { byId, el } from '../dom.ts';
import type { OpenedLink, PageState, Panel } from '../types.ts';

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
    const recorded = link.meta;
    if (!recorded) status.replaceChildren(`Replayed ${link.steps} actions (trace ${now}); the link recorded no trace to compare with.`);
    else if (recorded.trace === now) status.replaceChildren(el('span', { className: 'reproduced' }, 'Reproduced exactly'), ` — trace ${now}, engine ${ENGINE_VERSION}, SDK ${SDK_VERSION}.`);
    else
      status.replaceChildren(
        el('span', { className: 'differs' }, 'The trace differs from the recorded one'),
        ` — recorded ${recorded.trace} with engine ${recorded.engine} and SDK ${recorded.sdk}; now ${now} with engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`,
      );
  }

  return {
    update(view, page) {
      const broken = page.link && 'error' in page.link ? page.link.error : null;
      error.hidden = broken === null;
      if (broken !== null) error.textContent = `This link could not be opened. ${broken} The playground below starts empty instead.`;
      const link = linkRun(page);
      wanted = link?.run ?? null;
      if (!link) {
        status.hidden = true;
        painted = null;
        return;
      }
      if (hashed?.run !== link.run) hashed = { run: link.run, hash: traceHash(view.trace) };
      void paint(link, hashed.hash);
    },
  };
}
