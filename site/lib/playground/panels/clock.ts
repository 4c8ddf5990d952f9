/** The Virtual time panel: Play/Pause, Step, the speed, the clock and the next scheduled event. */
import { byId } from '../dom.ts';
import type { Actions, Panel } from '../types.ts';

export function createClockPanel(root: HTMLElement, actions: Actions): Panel {
  const play = byId<HTMLButtonElement>(root, 'play');
  const clock = byId<HTMLOutputElement>(root, 'clock');
  const next = byId<HTMLElement>(root, 'next-event');
  const speed = byId<HTMLSelectElement>(root, 'speed');
  play.addEventListener('click', () => actions.togglePlay());
  byId<HTMLButtonElement>(root, 'step').addEventListener('click', () => actions.step());
  speed.addEventListener('change', () => actions.setSpeed(Number(speed.value)));
  return {
    update(_view, { live }) {
      clock.textContent = `t = ${live.now} ms`;
      play.textContent = live.playing ? 'Pause' : 'Play';
      play.setAttribute('aria-pressed', String(live.playing));
      if (Number(speed.value) !== live.speed) speed.value = String(live.speed);
      next.textContent = live.phase !== 'live' ? '' : live.nextEvent === null ? 'nothing scheduled' : `next event at ${live.nextEvent} ms`;
    },
  };
}
