/** The Call a tool form: the tool picker, its arguments (built from the tool's spec) and Call. */
import { TOOLS, defaultArgs, type ToolSpec } from '../../../../src/scenario/index.ts';
import { byId, el } from '../dom.ts';
import type { Actions } from '../types.ts';

export interface CallFormPanel {
  /** Calls the selected tool with the arguments in the form (the `c` shortcut). */
  submit(): void;
}

export function createCallFormPanel(root: HTMLElement, actions: Actions): CallFormPanel {
  const form = byId<HTMLFormElement>(root, 'call-form');
  const toolSelect = byId<HTMLSelectElement>(root, 'tool');
  const toolArgs = byId<HTMLElement>(root, 'tool-args');
  const summary = byId<HTMLElement>(root, 'tool-summary');

  const currentTool = (): ToolSpec => TOOLS.find((t) => t.name === toolSelect.value) ?? (TOOLS[0] as ToolSpec);

  function renderArgs(): void {
    const tool = currentTool();
    toolArgs.replaceChildren(
      ...tool.args.map((a) =>
        el(
          'div',
          { className: 'field' },
          el('label', { htmlFor: `arg-${a.name}` }, a.label),
          a.kind === 'choice'
            ? el('select', { id: `arg-${a.name}`, name: a.name }, ...(a.choices ?? []).map((c) => el('option', { value: c, textContent: c, selected: c === a.default })))
            : el('input', { id: `arg-${a.name}`, name: a.name, type: a.kind === 'number' ? 'number' : 'text', value: String(a.default), ...(a.kind === 'number' && { min: '0' }) }),
        ),
      ),
    );
    summary.textContent = tool.summary;
  }

  function readArgs(): Record<string, unknown> {
    const tool = currentTool();
    const args: Record<string, unknown> = defaultArgs(tool);
    for (const a of tool.args) {
      const input = toolArgs.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${a.name}"]`);
      if (input) args[a.name] = a.kind === 'number' ? Math.max(0, Math.round(Number(input.value) || 0)) : input.value;
    }
    return args;
  }

  renderArgs();
  toolSelect.addEventListener('change', renderArgs);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    actions.call(currentTool().name, readArgs());
  });
  return { submit: () => form.requestSubmit() };
}
