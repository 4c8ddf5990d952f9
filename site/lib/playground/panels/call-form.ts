/**
 * The Call a tool form: the tool picker, its arguments (built from the tool's spec) and Call.
 * Arguments the server would refuse (its own schemas, `validateToolArgs`) are listed under the
 * form and no call is sent.
 */
import { ASK_REQUESTS, TOOLS, argBounds, askWhyNot, defaultArgs, tasksWhyNot, validateToolArgs, type Scenario, type ToolSpec } from '../../../../src/scenario/index.ts';
import { byId, el } from '../dom.ts';
import { saveCallForm, savedCallForm } from '../saved.ts';
import type { Actions, Panel, StopBeforeWire } from '../types.ts';

/** The submit buttons that stop the call before the wire (in the Faults panel, `form="call-form"`), by id. */
const STOP_BUTTONS: Record<string, StopBeforeWire> = { 'call-stop-same-tick': 'same-tick', 'call-aborted': 'before-call' };

export interface CallFormPanel extends Panel {
  /** Calls the selected tool with the arguments in the form (the `c` shortcut). */
  submit(): void;
}

export function createCallFormPanel(root: HTMLElement, actions: Actions): CallFormPanel {
  const form = byId<HTMLFormElement>(root, 'call-form');
  const toolSelect = byId<HTMLSelectElement>(root, 'tool');
  const toolArgs = byId<HTMLElement>(root, 'tool-args');
  const summary = byId<HTMLElement>(root, 'tool-summary');
  const errors = byId<HTMLUListElement>(root, 'call-errors');
  const asTask = byId<HTMLInputElement>(root, 'as-task');
  const asTaskWhy = byId<HTMLElement>(root, 'as-task-why');

  /** The running scenario's setting: whether the server can send what ask_client would ask. */
  let setting: Scenario | null = null;
  const currentTool = (): ToolSpec => TOOLS.find((t) => t.name === toolSelect.value) ?? (TOOLS[0] as ToolSpec);

  /** The browser's own limits of a number field, from the tool's schema (steps from 1, not 0). */
  const numberBounds = (tool: ToolSpec, name: string): { min?: string; max?: string } => {
    const { min, max } = argBounds(tool, name);
    return { ...(min !== undefined && { min: String(min) }), ...(max !== undefined && { max: String(max) }) };
  };

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
            : el('input', { id: `arg-${a.name}`, name: a.name, type: a.kind === 'number' ? 'number' : 'text', value: String(a.default), ...(a.kind === 'number' && numberBounds(tool, a.name)) }),
        ),
      ),
    );
    // The summaries mark names as `code` (the server's tool descriptions carry the same text).
    summary.replaceChildren(...tool.summary.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? el('code', {}, part) : part)));
    errors.replaceChildren();
  }

  function readArgs(): Record<string, unknown> {
    const tool = currentTool();
    const args: Record<string, unknown> = defaultArgs(tool);
    for (const a of tool.args) {
      const input = toolArgs.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${a.name}"]`);
      // A number field's text is read as it stands (empty is not 0), so the schema judges what the user typed.
      if (input) args[a.name] = a.kind === 'number' ? (input.value.trim() === '' ? Number.NaN : Number(input.value)) : input.value;
    }
    return args;
  }

  /** The form as the user left it before a reload: the tool, then the arguments it still has. */
  function restoreForm(): void {
    const saved = savedCallForm();
    if (saved === null || !TOOLS.some((t) => t.name === saved.tool)) return renderArgs();
    toolSelect.value = saved.tool;
    renderArgs();
    for (const [name, text] of Object.entries(saved.args)) {
      const field = toolArgs.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${CSS.escape(name)}"]`);
      if (field) field.value = text;
    }
  }

  function keepForm(): void {
    const args: Record<string, string> = {};
    for (const field of toolArgs.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[name]')) args[field.name] = field.value;
    saveCallForm({ tool: toolSelect.value, args });
  }

  restoreForm();
  toolSelect.addEventListener('change', renderArgs);
  form.addEventListener('input', keepForm);
  form.addEventListener('change', keepForm);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const stop = event.submitter ? STOP_BUTTONS[event.submitter.id] : undefined;
    const tool = currentTool().name;
    const args = readArgs();
    const checked = validateToolArgs(tool, args);
    if (!checked.ok) {
      errors.replaceChildren(...checked.errors.map((e) => el('li', {}, `Not called: ${e}`)));
      return;
    }
    const request = tool === 'ask_client' ? ASK_REQUESTS.find((r) => r === args.request) : undefined;
    const refused = request && setting ? askWhyNot(request, setting) : null;
    if (refused !== null) {
      errors.replaceChildren(el('li', {}, `Not called: ask_client cannot send ${request ?? ''} here. ${refused}`));
      return;
    }
    errors.replaceChildren();
    // The arguments as the user gave them (the schema's parse would reorder and fill defaults).
    const notTask = actions.call(tool, args, { stop, asTask: asTask.checked });
    if (notTask !== null) errors.replaceChildren(el('li', {}, `Not called as a task: ${notTask}`));
  });
  return {
    submit: () => form.requestSubmit(),
    update(_view, page) {
      setting = page.live.scenario;
      // Where tasks cannot run, the box is off and says why (read by a screen reader, shown on hover).
      const whyNot = tasksWhyNot(setting);
      asTask.disabled = whyNot !== null;
      if (whyNot !== null) asTask.checked = false;
      const why = whyNot === null ? '' : `Not here: ${whyNot}.`;
      if (asTaskWhy.textContent !== why) {
        asTaskWhy.textContent = why;
        asTask.parentElement?.setAttribute('title', why || 'A task-augmented tools/call: the server answers with a task, the client polls tasks/get');
      }
    },
  };
}
