/**
 * Imports a trace off the page's thread: a 100,000-line log takes about a second to read and
 * as long again to judge and lay out, which would freeze the playground. Each message is one
 * import: the text, the format asked for (none: detect it) and the setting picked (none: the
 * one the trace shows). The answers are progress (lines or entries read of all), then either a
 * failure in words, or the run view in parts (import-view.ts) and the import's facts.
 */
import { FORMAT_LABEL, importTrace, type ImportFormat } from '../../src/trace/index.ts';
import { REVISIONS, TRANSPORTS, defaultScenario, type Revision, type TransportKind } from '../../src/scenario/index.ts';
import { deriveRunView } from '../../src/views/index.ts';
import { viewParts, type ViewPart } from './import-view.ts';

export interface ImportRequest {
  /** Where the text came from (a file's name, or "the pasted text"), for the messages. */
  name: string;
  text: string;
  format?: ImportFormat;
  revision?: Revision;
  transport?: TransportKind;
}

export type ImportReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'judging'; frames: number }
  | { type: 'failed'; message: string }
  | { type: 'part'; part: ViewPart }
  | { type: 'done'; format: ImportFormat; revision: Revision; transport: TransportKind; frames: number };

const post = (reply: ImportReply): void => postMessage(reply);

function oneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

addEventListener('message', (event: MessageEvent<ImportRequest>) => {
  const { name, text, format } = event.data;
  const result = importTrace(text, format, (done, total) => post({ type: 'progress', done, total }));
  if (!result.ok) return post({ type: 'failed', message: result.error });
  const r = event.data.revision ?? result.revision;
  const t = event.data.transport ?? result.transport;
  if (!oneOf(REVISIONS, r)) {
    const message =
      r === undefined
        ? `${name} shows no protocol version (no initialize exchange or version header): pick its revision above and import again.`
        : `${name} agreed on "${r}", which is none of the revisions the lab judges: pick one above and import again.`;
    return post({ type: 'failed', message });
  }
  if (!oneOf(TRANSPORTS, t)) return post({ type: 'failed', message: `${name} (${FORMAT_LABEL[result.format]}) does not record its transport: pick it above and import again.` });
  const frames = result.trace.filter((e) => e.kind === 'frame').length;
  post({ type: 'judging', frames });
  const scenario = { ...defaultScenario(), revision: r, transport: t, endAt: result.trace.at(-1)?.t ?? 0 };
  for (const part of viewParts(deriveRunView(scenario, result.trace))) post({ type: 'part', part });
  post({ type: 'done', format: result.format, revision: r, transport: t, frames });
});
