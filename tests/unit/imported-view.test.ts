/**
 * An imported trace, seen through the run view: the status line says it was imported (no side of
 * the lab holds its connection, so it is never "Connecting…"), and the log's lines that carry no
 * message reach the Logs panel's lines, in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REVISIONS, defaultScenario } from '../../src/scenario/index.ts';
import { importTrace } from '../../src/trace/index.ts';
import { deriveRunView, statusLine } from '../../src/views/index.ts';

const log = readFileSync(new URL('../fixtures/import/stdio-python-v1-code-0.log', import.meta.url), 'utf8');

function importedView(text: string): ReturnType<typeof deriveRunView> {
  const r = importTrace(text);
  if (!r.ok) assert.fail(r.error);
  const revision = REVISIONS.find((v) => v === r.revision);
  if (revision === undefined) assert.fail(`no revision read from the log: ${String(r.revision)}`);
  return deriveRunView({ ...defaultScenario(), revision, transport: r.transport ?? 'stdio', steps: [], faults: [] }, r.trace);
}

test('the status line of an imported trace says it was imported, not that it is connecting', () => {
  const view = importedView(log);
  assert.equal(view.status, 'imported');
  assert.match(statusLine(view), /^An imported trace: it shows what crossed the wire where the log was taken/);
});

test('the lines of an imported log that carry no message are the Logs panel’s lines, in order', () => {
  const lines = log.split('\n');
  const text = [lines[0], 'server: starting slow_count', ...lines.slice(1, 4), 'server: stderr: Traceback (most recent call last)', ...lines.slice(4)].join('\n');
  const view = importedView(text);
  assert.deepEqual(
    view.logs.filter((l) => l.side === 'log').map((l) => l.text),
    ['server: starting slow_count', 'server: stderr: Traceback (most recent call last)'],
  );
  assert.equal(importedView(log).logs.filter((l) => l.side === 'log').length, 0);
});
