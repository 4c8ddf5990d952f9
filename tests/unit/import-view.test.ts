/**
 * An imported trace's run view crosses from the import worker in parts (site/lib/import-view.ts):
 * put back together, after each part has been cloned as postMessage clones it, it is the view
 * deriveRunView gives, its trace index rebuilt a slice at a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createViewAssembler, viewParts } from '../../site/lib/import-view.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { importTrace } from '../../src/trace/index.ts';
import { deriveRunView } from '../../src/views/index.ts';

test('the parts of a view, cloned one by one and put back together, are the view', async () => {
  const imported = importTrace(readFileSync(new URL('../fixtures/import/har-streamable-http-lost-cancel.har', import.meta.url), 'utf8'));
  if (!imported.ok) assert.fail(imported.error);
  const view = deriveRunView({ ...defaultScenario(), transport: 'streamable-http' }, imported.trace);
  const parts = [...viewParts(view, 7)];
  // A head, the events seven at a time, the rows seven at a time.
  assert.equal(parts.length, 1 + Math.ceil(view.trace.length / 7) + Math.ceil(view.wire.length / 7));
  const assembler = createViewAssembler();
  for (const part of parts) assembler.add(structuredClone(part));
  let pauses = 0;
  const again = await assembler.finish(async () => void pauses++, 0);
  assert.deepEqual(again, view);
  assert.ok(pauses > 0);
});
