/**
 * The Import panel: a file dropped on it or opened, or text pasted, goes to a worker that reads it
 * into the lab's trace (src/trace/import/) with a progress bar; the trace, with the revision and
 * transport it shows or the ones picked here, goes to `show`. Bad input gets its message here,
 * and nothing else on the page changes.
 */
import { REVISIONS, TRANSPORTS, type Revision, type TransportKind } from '../../../../src/scenario/index.ts';
import { FORMAT_LABEL, isImportFormat, type ImportFormat, type TraceEvent } from '../../../../src/trace/index.ts';
import type { ImportReply, ImportRequest } from '../../import-worker.ts';
import { nextTask } from '../../next-task.ts';
import { byId } from '../dom.ts';

export interface ImportedTrace {
  /** Where it came from: the file's name, or "the pasted text". */
  name: string;
  format: ImportFormat;
  trace: TraceEvent[];
  revision: Revision;
  transport: TransportKind;
}

function oneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

export function createImportPanel(root: HTMLElement, show: (imported: ImportedTrace) => void): void {
  const drop = byId<HTMLElement>(root, 'import-drop');
  const file = byId<HTMLInputElement>(root, 'import-file');
  const text = byId<HTMLTextAreaElement>(root, 'import-text');
  const format = byId<HTMLSelectElement>(root, 'import-format');
  const revision = byId<HTMLSelectElement>(root, 'import-revision');
  const transport = byId<HTMLSelectElement>(root, 'import-transport');
  const button = byId<HTMLButtonElement>(root, 'import-run');
  const bar = byId<HTMLProgressElement>(root, 'import-progress');
  const message = byId<HTMLElement>(root, 'import-message');
  let worker: Worker | null = null;

  const say = (words: string, bad = false): void => {
    message.textContent = words;
    message.classList.toggle('bad', bad);
  };

  function finish(name: string, reply: Extract<ImportReply, { type: 'done' }>): void {
    bar.hidden = true;
    button.disabled = false;
    const result = reply.result;
    if (!result.ok) return say(result.error, true);
    const r = revision.value || result.revision;
    const t = transport.value || result.transport;
    if (!oneOf(REVISIONS, r)) {
      return say(r === undefined ? `${name} shows no protocol version (no initialize exchange or version header): pick its revision above and import again.` : `${name} agreed on "${r}", which is none of the revisions the lab judges: pick one above and import again.`, true);
    }
    if (!oneOf(TRANSPORTS, t)) return say(`${name} (${FORMAT_LABEL[result.format]}) does not record its transport: pick it above and import again.`, true);
    const frames = result.trace.filter((e) => e.kind === 'frame').length;
    // Judging a long trace holds the page for a moment: say so first, in a paint of its own.
    say(`Read ${frames} frames from ${name}; judging them…`);
    requestAnimationFrame(() =>
      void nextTask().then(() => {
        show({ name, format: result.format, trace: result.trace, revision: r, transport: t });
        say(`Imported ${name}: ${FORMAT_LABEL[result.format]}, ${frames} frames.`);
      }),
    );
  }

  function run(name: string, input: string): void {
    // A new import replaces one still reading: its worker goes, and its answer with it.
    worker?.terminate();
    const own = new Worker(new URL('../../import-worker.ts', import.meta.url), { type: 'module', name: 'trace-import' });
    worker = own;
    button.disabled = true;
    bar.hidden = false;
    bar.removeAttribute('value');
    say(`Reading ${name}…`);
    own.addEventListener('message', (event: MessageEvent<ImportReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') {
        bar.max = reply.total;
        bar.value = reply.done;
        return;
      }
      own.terminate();
      if (worker === own) worker = null;
      finish(name, reply);
    });
    own.addEventListener('error', (event) => {
      own.terminate();
      bar.hidden = true;
      button.disabled = false;
      say(`The import failed: ${event.message}`, true);
    });
    const request: ImportRequest = { text: input, ...(isImportFormat(format.value) && { format: format.value }) };
    own.postMessage(request);
  }

  async function readFile(f: File): Promise<void> {
    try {
      run(f.name, await f.text());
    } catch (error) {
      say(`Cannot read ${f.name}: ${error instanceof Error ? error.message : String(error)}`, true);
    }
  }

  button.addEventListener('click', () => {
    if (text.value.trim() === '') return say('Paste a log into the box first.', true);
    run('the pasted text', text.value);
  });
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (f) void readFile(f);
    file.value = '';
  });
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('dragging');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('dragging');
    const f = event.dataTransfer?.files[0];
    if (f) void readFile(f);
  });
}
