/**
 * The Logs panel: what each side wrote to stderr, each step an emulated profile took
 * differently, and, for an imported trace, the lines of the log that carried no message.
 */
import type { RunView } from '../../../../src/views/index.ts';
import { byId } from '../dom.ts';
import type { Panel } from '../types.ts';

export function createLogsPanel(root: HTMLElement): Panel {
  const logs = { client: byId<HTMLElement>(root, 'client-log'), server: byId<HTMLElement>(root, 'server-log'), log: byId<HTMLElement>(root, 'import-notes') };
  const notesBox = byId<HTMLElement>(root, 'import-notes-box');
  let rendered: RunView | null = null;
  return {
    update(view) {
      if (view === rendered) return;
      rendered = view;
      for (const side of ['client', 'server', 'log'] as const) {
        const text = view.logs
          .filter((l) => l.side === side)
          .map((l) => `${l.t} ms  ${l.text}${l.source ? `  (${l.source})` : ''}`)
          .join('\n');
        if (logs[side].textContent !== text) logs[side].textContent = text;
        if (side === 'log') notesBox.hidden = text === '';
      }
    },
  };
}
