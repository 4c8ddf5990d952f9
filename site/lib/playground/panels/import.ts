/**
 * The Import panel: a file dropped on it or opened, or text pasted, goes to a worker that reads it
 * into the lab's trace (src/trace/import/) with a progress bar; the trace, with the revision and
 * transport it shows or the ones picked here, goes to `show`. Bad input gets its message here,
 * and nothing else on the page changes.
 */
import { REVISIONS, TRANSPORTS, type Revision, type TransportKind } from '../../../../src/scenario/index.ts';
import { FORMAT_LABEL, isImportFormat, plural, type ImportFormat, type TraceEvent } from '../../../../src/trace/index.ts';
import type { ImportReply, ImportRequest } from '../../import-worker.ts';
import { createViewAssembler, type ViewAssembler } from '../../import-view.ts';
import type { RunView } from '../../../../src/views/index.ts';
import { nextTask } from '../../next-task.ts';
import { byId } from '../dom.ts';

export interface ImportedTrace {
  /** Where it came from: the file's name, or "the pasted text". */
  name: string;
  format: ImportFormat;
  trace: readonly TraceEvent[];
  revision: Revision;
  transport: TransportKind;
  /** Its run view, derived in the worker (import-view.ts). */
  view: RunView;
}

function oneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

export interface ImportPanel {
  /**
   * The user moved on from the import shown (made a scenario of it): a message about a later
   * attempt that failed (a paste that was no log) is about none of what the page shows now, and goes.
   */
  movedOn(): void;
}

export function createImportPanel(root: HTMLElement, show: (imported: ImportedTrace) => void): ImportPanel {
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

  const settle = (): void => {
    bar.hidden = true;
    button.disabled = false;
  };

  async function finish(name: string, parts: ViewAssembler, reply: Extract<ImportReply, { type: 'done' }>, current: () => boolean): Promise<void> {
    // The trace index is rebuilt a slice at a time, so that the page answers meanwhile.
    const view = await parts.finish(nextTask);
    if (!current()) return;
    settle();
    show({ name, format: reply.format, trace: view.trace, revision: reply.revision, transport: reply.transport, view });
    say(`Imported ${name}: ${FORMAT_LABEL[reply.format]}, ${plural(reply.frames, 'frame')}.`);
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
    const parts = createViewAssembler();
    own.addEventListener('message', (event: MessageEvent<ImportReply>) => {
      const reply = event.data;
      switch (reply.type) {
        case 'progress':
          bar.max = reply.total;
          bar.value = reply.done;
          return;
        case 'judging':
          bar.removeAttribute('value');
          return say(`Read ${plural(reply.frames, 'frame')} from ${name}; judging ${reply.frames === 1 ? 'it' : 'them'}…`);
        case 'part':
          return parts.add(reply.part);
        case 'failed':
          own.terminate();
          settle();
          return say(reply.message, true);
        case 'done':
          own.terminate();
          void finish(name, parts, reply, () => worker === own);
      }
    });
    own.addEventListener('error', (event) => {
      own.terminate();
      settle();
      say(`The import failed: ${event.message}`, true);
    });
    const request: ImportRequest = {
      name,
      text: input,
      ...(isImportFormat(format.value) && { format: format.value }),
      ...(oneOf(REVISIONS, revision.value) && { revision: revision.value }),
      ...(oneOf(TRANSPORTS, transport.value) && { transport: transport.value }),
    };
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
  return {
    movedOn() {
      if (message.classList.contains('bad')) say('');
    },
  };
}
