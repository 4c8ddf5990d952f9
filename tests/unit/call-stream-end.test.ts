/**
 * The Calls panel's line for a call whose Streamable HTTP stream ended without its response:
 * read off real runs of the library's session-expiry and resumption scenarios.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import { callViews } from '../../src/views/call-views.ts';

const sides = createNodeSides();
after(() => sides.close());

async function streamEnds(id: string): Promise<[string, string | null][]> {
  const entry = libraryEntry(id);
  assert.ok(entry, id);
  return callViews(await runHeadless(entry.scenario, sides)).map((c) => [c.call, c.streamEnd]);
}

test('a session that expires mid-call: the call whose stream it ended, and the call answered 404', async () => {
  assert.deepEqual(await streamEnds('session-expires-mid-call-client-never-reinitializes'), [
    ['A', 'stream ended without a response at 150 ms (session expired)'],
    ['B', 'stream ended without a response at 305 ms (session expired)'],
  ]);
});

test('a stream the server closes and the client resumes: the line says where the response came', async () => {
  assert.deepEqual(await streamEnds('stream-resumes-after-server-close-2025-11-25'), [['A', 'stream ended without a response at 150 ms; its response came on stream 5']]);
});

test('a call answered on its own stream has no such line', async () => {
  assert.deepEqual(await streamEnds('strict-host-reinitializes-after-session-expiry'), [
    ['A', null],
    ['B', 'stream ended without a response at 125 ms (session expired)'],
    ['C', null],
  ]);
});
