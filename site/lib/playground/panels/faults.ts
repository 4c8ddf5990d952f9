/**
 * Faults and forged frames: inject a response or a cancel for a chosen request, hold a
 * direction of the wire, disconnect, crash or restart the server, and the standing wire faults
 * of the running scenario (adding one restarts the run).
 */
import type { WireFault } from '../../../../src/scenario/index.ts';
import type { Direction, Target } from '../../../../src/trace/index.ts';
import type { RunView } from '../../../../src/views/index.ts';
import { byId, el } from '../dom.ts';
import type { Actions, Panel } from '../types.ts';

const DIRECTION_WORDS: Record<Direction, string> = { c2s: 'client → server', s2c: 'server → client' };
const FAULT_ACTIONS = ['drop', 'delay', 'duplicate'] as const;

function describeFault(f: WireFault): string {
  return `${DIRECTION_WORDS[f.dir]}: ${f.action} ${f.match ?? 'any frame'}${f.nth ? ` (match #${f.nth} only)` : ''}${f.action === 'delay' ? ` by ${f.ms ?? 0} ms` : ''}`;
}

export function createFaultsPanel(root: HTMLElement, actions: Actions): Panel {
  const target = byId<HTMLSelectElement>(root, 'target');
  const targetId = byId<HTMLInputElement>(root, 'target-id');
  const holdButtons = { c2s: byId<HTMLButtonElement>(root, 'hold-c2s'), s2c: byId<HTMLButtonElement>(root, 'hold-s2c') };
  const faultList = byId<HTMLUListElement>(root, 'fault-list');
  const faultCount = byId<HTMLElement>(root, 'fault-count');
  const form = {
    dir: byId<HTMLSelectElement>(root, 'fault-dir'),
    action: byId<HTMLSelectElement>(root, 'fault-action'),
    match: byId<HTMLInputElement>(root, 'fault-match'),
    nth: byId<HTMLInputElement>(root, 'fault-nth'),
    ms: byId<HTMLInputElement>(root, 'fault-ms'),
  };
  let shown: RunView | null = null;

  function chosenTarget(): Target {
    if (target.value === 'initialize') return { initialize: true };
    if (target.value.startsWith('call:')) return { call: target.value.slice(5) };
    const raw = targetId.value.trim();
    return { requestId: /^-?\d+$/.test(raw) ? Number(raw) : raw };
  }

  const on = (id: string, handler: () => void) => byId<HTMLButtonElement>(root, id).addEventListener('click', handler);
  on('inject-result', () => actions.act({ type: 'inject-response', outcome: 'result', ...chosenTarget() }));
  on('inject-error', () => actions.act({ type: 'inject-response', outcome: 'error', ...chosenTarget() }));
  on('inject-to-server', () => actions.act({ type: 'inject-response', outcome: 'result', to: 'server', ...chosenTarget() }));
  on('inject-cancel', () => actions.act({ type: 'inject-cancel', ...chosenTarget() }));
  on('disconnect', () => actions.act({ type: 'disconnect' }));
  on('crash', () => actions.act({ type: 'crash-server' }));
  on('reconnect', () => actions.act({ type: 'reconnect' }));
  for (const dir of ['c2s', 's2c'] as const) {
    // Whether the wire holds is read off the trace, so the button is right after a replayed `hold` too.
    holdButtons[dir].addEventListener('click', () => shown && actions.act({ type: shown.holding[dir] ? 'release' : 'hold', dir }));
  }
  const standing = (): WireFault[] => [...(shown?.scenario.faults ?? [])];
  on('add-fault', () => {
    const match = form.match.value.trim();
    const nth = Number(form.nth.value);
    const action = FAULT_ACTIONS.find((a) => a === form.action.value) ?? 'drop';
    const fault: WireFault = {
      dir: form.dir.value === 's2c' ? 's2c' : 'c2s',
      action,
      ...(match !== '' && { match }),
      ...(nth >= 1 && { nth: Math.round(nth) }),
      ...(action === 'delay' && { ms: Math.max(0, Math.round(Number(form.ms.value) || 0)) }),
    };
    actions.restart({ faults: [...standing(), fault] });
  });
  on('clear-faults', () => actions.restart({ faults: [] }));

  function renderTargets(view: RunView): void {
    const wanted = [
      ...view.calls.filter((c) => c.requestId !== null).map((c) => [`call:${c.call}`, `call ${c.call} (id ${JSON.stringify(c.requestId)})`] as const),
      ['initialize', 'initialize'] as const,
      ['any', 'any id (below)'] as const,
    ];
    if ([...target.options].map((o) => o.value).join('|') === wanted.map(([v]) => v).join('|')) return;
    const selected = target.value;
    target.replaceChildren(...wanted.map(([value, label]) => el('option', { value, textContent: label })));
    if (wanted.some(([v]) => v === selected)) target.value = selected;
  }

  return {
    update(view) {
      if (view === shown) return;
      shown = view;
      renderTargets(view);
      for (const dir of ['c2s', 's2c'] as const) {
        const held = view.holding[dir];
        holdButtons[dir].textContent = `${held ? 'Release' : 'Hold'} ${DIRECTION_WORDS[dir]}`;
        holdButtons[dir].setAttribute('aria-pressed', String(held));
      }
      const faults = view.scenario.faults ?? [];
      faultCount.textContent = String(faults.length);
      faultList.replaceChildren(...faults.map((f) => el('li', {}, describeFault(f))));
    },
  };
}
