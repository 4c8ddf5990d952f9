/**
 * The streams setting and steps in the scenario format (src/scenario/streams.ts): what the
 * schema refuses and where, the JSON Schema's words for them, a permalink round trip, and the
 * event store's deterministic ids.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LIBRARY } from '../../src/scenario/library.ts';
import { parseScenario, type Scenario } from '../../src/scenario/schema.ts';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.ts';
import { decodeLink, permalinkOf } from '../../src/scenario/permalink.ts';
import { LabEventStore } from '../../workers/event-store.ts';
import { check, say } from '../../site/lib/editor-check.ts';

const resumed = (LIBRARY.find((e) => e.id === 'stream-resumes-after-server-close-2025-11-25') ?? assert.fail('in the library')).scenario;

function errorsOf(input: unknown): string[] {
  const parsed = parseScenario(input);
  return parsed.ok ? [] : parsed.errors;
}

describe('the streams steps and setting in the schema', () => {
  test('a close-stream, an expire-session or a resumable server off sessionful Streamable HTTP is refused where it is written', () => {
    const stdio: Scenario = { ...resumed, transport: 'stdio' };
    assert.deepEqual(errorsOf(stdio), [
      'resumable: a resumable server needs sessionful Streamable HTTP ("transport": "streamable-http", "httpServer": "sessionful", a revision before 2026-07-28)',
      'steps.1.action.type: close-stream needs sessionful Streamable HTTP ("transport": "streamable-http", "httpServer": "sessionful", a revision before 2026-07-28)',
    ]);
    const modern: Scenario = { ...resumed, revision: '2026-07-28', resumable: undefined, steps: [{ at: 10, action: { type: 'expire-session' } }] };
    delete modern.resumable;
    assert.deepEqual(errorsOf(modern), ['steps.0.action.type: expire-session needs a revision before 2026-07-28, which has no sessions and no resumable streams']);
    assert.deepEqual(errorsOf({ ...resumed, httpServer: 'stateless' }).length, 2);
    assert.match(errorsOf({ ...resumed, serverProfile: 'ts-v1' })[0] ?? '', /^resumable: .*the real TypeScript SDK v2 server/);
  });

  test('a close-stream naming a call no step makes is refused at its call', () => {
    assert.deepEqual(errorsOf({ ...resumed, steps: [{ at: 10, action: { type: 'close-stream', call: 'Z' } }] }), [
      'steps.0.action.call: close-stream names call "Z", which no "call" step makes',
    ]);
  });

  test('the editor marks a close-stream on stdio at its type', () => {
    const checked = check({ ...resumed, transport: 'stdio', resumable: undefined });
    assert.equal(checked.ok, false);
    assert.ok(!checked.ok && checked.problems.map(say).includes('steps.1.action.type: close-stream needs sessionful Streamable HTTP ("transport": "streamable-http", "httpServer": "sessionful", a revision before 2026-07-28)'));
  });

  test('the JSON Schema describes the two steps and the setting', () => {
    const text = JSON.stringify(scenarioJsonSchema());
    assert.match(text, /"description":"The server closes the SSE stream of a call's request before its response/);
    assert.match(text, /"description":"The server forgets the session/);
    assert.match(text, /"description":"Sessionful Streamable HTTP, the real v2 server only: the server keeps an event store/);
  });

  test('a scenario with them goes through a permalink unchanged', async () => {
    const withExpiry: Scenario = { ...resumed, steps: [...resumed.steps, { at: 900, action: { type: 'expire-session', outageMs: 50 } }] };
    const link = await permalinkOf(withExpiry, '0123456789abcdef');
    const decoded = await decodeLink(link);
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
    assert.deepEqual(decoded.scenario, withExpiry);
  });
});

describe('the event store', () => {
  test('numbers streams in the order first seen and events per stream, and replays a stream after an id without its priming event', async () => {
    const store = new LabEventStore();
    const ids = [
      await store.storeEvent('uuid-a', {}),
      await store.storeEvent('uuid-b', {}),
      await store.storeEvent('uuid-a', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }),
      await store.storeEvent('uuid-b', { jsonrpc: '2.0', id: 9, result: {} }),
      await store.storeEvent('uuid-a', { jsonrpc: '2.0', id: 1, result: {} }),
    ];
    assert.deepEqual(ids, ['s1.1', 's2.1', 's1.2', 's2.2', 's1.3']);
    assert.equal(await store.getStreamIdForEventId('s2.2'), 'uuid-b');
    const sent: string[] = [];
    const stream = await store.replayEventsAfter('s1.1', {
      send: (id) => {
        sent.push(id);
        return Promise.resolve();
      },
    });
    assert.equal(stream, 'uuid-a');
    assert.deepEqual(sent, ['s1.2', 's1.3']);
  });
});
