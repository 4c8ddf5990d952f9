/**
 * Imports a trace off the page's thread: a 100,000-line log takes about a second to read, which
 * would freeze the playground. Each message is one import: the text and the format asked for
 * (none: detect it); the answers are progress (lines or entries read of all) and the result.
 */
import { importTrace, type ImportFormat, type Imported } from '../../src/trace/index.ts';

export interface ImportRequest {
  text: string;
  format?: ImportFormat;
}

export type ImportReply = { type: 'progress'; done: number; total: number } | { type: 'done'; result: Imported };

const post = (reply: ImportReply): void => postMessage(reply);

addEventListener('message', (event: MessageEvent<ImportRequest>) => {
  const { text, format } = event.data;
  post({ type: 'done', result: importTrace(text, format, (done, total) => post({ type: 'progress', done, total })) });
});
