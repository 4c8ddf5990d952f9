/**
 * The Timeline panel: the run drawn to scale (site/lib/timeline.ts), next to the wire log. It
 * marks the notable findings, follows the diagrams' trace slider (the run as it stood at that
 * position), hides framing when the wire log does, and shares the selected frame with the wire
 * log through the page's selection (an arrow clicked here selects its wire row, and back).
 */
import type { Finding } from '../../../../src/rules/index.ts';
import { findingTone, type RunView, type TimelineFinding } from '../../../../src/views/index.ts';
import { createTimeline } from '../../timeline.ts';
import { byId } from '../dom.ts';
import type { Actions, PageState, Panel } from '../types.ts';

function timelineFindings(notable: readonly Finding[]): TimelineFinding[] {
  return notable.map((f) => ({ witnesses: f.witnesses, severity: findingTone(f), rule: f.rule }));
}

export function createTimelinePanel(root: HTMLElement, actions: Actions): Panel {
  const host = byId<HTMLElement>(root, 'timeline');
  const position = byId<HTMLInputElement>(root, 'diagram-position');
  const framing = byId<HTMLInputElement>(root, 'show-framing');
  const timeline = createTimeline(host, (frame) => actions.selectFrame(frame));
  let last: { view: RunView; page: PageState } | null = null;
  // The findings handed over last, kept while the view's own list is the same, so the model is not rebuilt on every paint.
  let findings: { from: readonly Finding[]; as: TimelineFinding[] } | null = null;

  function draw(): void {
    if (!last) return;
    const { view, page } = last;
    if (findings?.from !== view.verdict.notable) findings = { from: view.verdict.notable, as: timelineFindings(view.verdict.notable) };
    // The slider at its end is "live": the timeline then follows the run as it grows.
    const at = Number(position.value);
    const until = at >= Number(position.max) ? null : at;
    timeline.update({ trace: view.trace, findings: findings.as, selectedFrame: page.selectedFrame, until, messagesOnly: !framing.checked });
  }

  position.addEventListener('input', draw);
  framing.addEventListener('change', draw);
  return {
    update(view, page) {
      last = { view, page };
      draw();
    },
  };
}
