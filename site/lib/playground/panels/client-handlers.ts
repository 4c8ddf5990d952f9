/**
 * The client's handlers of the server's requests (the scenario's `clientHandlers`): the controls
 * follow the running scenario, and a change starts the run again under the new handlers,
 * replaying the user's steps, as the Connection panel does for its setting.
 */
import { parseScenario, type ClientHandlers, type HandledCapability } from '../../../../src/scenario/index.ts';
import { byId, controlWriter } from '../dom.ts';
import type { Actions, PageState, Panel } from '../types.ts';

const CAPABILITIES: readonly HandledCapability[] = ['elicitation', 'sampling', 'roots'];

export function createClientHandlersPanel(root: HTMLElement, actions: Actions): Panel {
  const box = byId<HTMLElement>(root, 'client-handlers');
  const input = (c: HandledCapability, name: string): HTMLInputElement | HTMLSelectElement | null =>
    box.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-capability="${c}"] [name="${name}"]`);
  let shown = '';
  const write = controlWriter();

  function read(): ClientHandlers | undefined {
    const handlers: ClientHandlers = {};
    for (const c of CAPABILITIES) {
      const declared = input(c, 'declared');
      if (!(declared instanceof HTMLInputElement) || !declared.checked) continue;
      const ms = Number(input(c, 'ms')?.value ?? '0');
      handlers[c] = { ms: Number.isInteger(ms) && ms >= 0 ? ms : 0, onCancel: input(c, 'onCancel')?.value === 'ignore' ? 'ignore' : 'observe' };
    }
    return Object.keys(handlers).length > 0 ? handlers : undefined;
  }

  function show(handlers: ClientHandlers | undefined): void {
    for (const c of CAPABILITIES) {
      const h = handlers?.[c];
      const declared = input(c, 'declared');
      if (declared instanceof HTMLInputElement) write(declared, h !== undefined);
      const ms = input(c, 'ms');
      if (ms) write(ms, String(h?.ms ?? 0));
      const onCancel = input(c, 'onCancel');
      if (onCancel) write(onCancel, h?.onCancel ?? 'observe');
    }
  }

  box.addEventListener('change', () => {
    const handlers = read();
    // The same schema the link decoder uses judges the new handlers; an out-of-range ms is refused, not sent.
    const checked = parseScenario({ version: 1, revision: '2025-11-25', transport: 'stdio', httpServer: 'sessionful', latency: { c2s: 0, s2c: 0 }, steps: [], endAt: 0, clientHandlers: handlers });
    if (!checked.ok) return;
    shown = JSON.stringify(handlers ?? null);
    actions.restart({ clientHandlers: handlers });
  });

  return {
    update(_view, page: PageState) {
      const handlers = page.live.scenario.clientHandlers;
      const key = JSON.stringify(handlers ?? null);
      if (key === shown) return;
      shown = key;
      show(handlers);
    },
  };
}
