/**
 * Exporting a run for other tools: the lab's trace written as mcpsnoop's session log (stdio) and
 * as a HAR (HTTP) reads back through the lab's own importers to the same frames, in order, with
 * the same messages and HTTP statuses; and the same run exports to the same bytes.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/index.ts';
import { libraryEntry } from '../../src/scenario/index.ts';
import { exportFormatsFor, importTrace, sseFieldsOf, toHar, toMcpsnoop, type FrameEvent, type TraceEvent } from '../../src/trace/index.ts';

const sides = createNodeSides();
after(() => sides.close());

async function run(id: string): Promise<TraceEvent[]> {
  const entry = libraryEntry(id);
  assert.ok(entry, `library scenario ${id}`);
  return runHeadless(entry.scenario, sides);
}

const frames = (trace: readonly TraceEvent[]): FrameEvent[] => trace.filter((e): e is FrameEvent => e.kind === 'frame' && !e.eof && e.fault !== 'duplicated');

test('a stdio run as mcpsnoop JSONL imports back to the same lines, in order, and to the same setting', async () => {
  const trace = await run('python-v1-answers-cancel-with-code-0');
  const text = toMcpsnoop(trace);
  assert.equal(text, toMcpsnoop(await run('python-v1-answers-cancel-with-code-0')), 'the same run exports to the same bytes');
  const back = importTrace(text);
  if (!back.ok) assert.fail(back.error);
  assert.equal(back.format, 'mcpsnoop');
  assert.deepEqual([back.revision, back.transport], ['2025-11-25', 'stdio']);
  assert.deepEqual(
    frames(back.trace).map((f) => [f.dir, f.raw.trimEnd()]),
    frames(trace).map((f) => [f.dir, f.raw.trimEnd()]),
  );
  assert.deepEqual(exportFormatsFor('stdio'), ['mcpsnoop']);
});

test('a Streamable HTTP run as a HAR imports back to the same messages, statuses and session header', async () => {
  const trace = await run('sdk-stateless-http-loses-cancel');
  const back = importTrace(toHar(trace));
  if (!back.ok) assert.fail(back.error);
  assert.equal(back.format, 'har');
  assert.equal(back.transport, 'streamable-http');
  const messages = (t: readonly TraceEvent[]): string[] => frames(t).flatMap((f) => (f.msg ? [`${f.dir} ${JSON.stringify(f.msg)}`] : []));
  assert.deepEqual(messages(back.trace), messages(trace));
  const statuses = (t: readonly TraceEvent[]): number[] => frames(t).flatMap((f) => (f.http?.part === 'response-head' && f.http.status !== undefined ? [f.http.status] : []));
  assert.deepEqual(statuses(back.trace), statuses(trace));
  assert.deepEqual(exportFormatsFor('streamable-http'), ['har']);
});

test('a resumable run as a HAR imports back with each SSE event’s id and the priming event’s retry', async () => {
  const trace = await run('stream-resumes-after-server-close-2025-11-25');
  const back = importTrace(toHar(trace));
  if (!back.ok) assert.fail(back.error);
  const fields = (t: readonly TraceEvent[]): string[] =>
    frames(t).flatMap((f) => {
      if (f.http?.part !== 'chunk') return [];
      const { id, retry } = sseFieldsOf(f.raw);
      return [`stream ${f.http.stream}: id ${id ?? '-'}${retry !== undefined ? `, retry ${retry}` : ''}`];
    });
  const sent = fields(trace);
  assert.ok(sent.some((s) => s.endsWith(', retry 200')), sent.join('\n'));
  assert.ok(sent.filter((s) => !s.includes('id -')).length >= 2, sent.join('\n'));
  assert.deepEqual(fields(back.trace), sent);
});
