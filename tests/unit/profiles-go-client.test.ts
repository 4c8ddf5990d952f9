/**
 * The Go SDK client emulation (go-sdk #1212), read off the wire: on 2026-07-28 Streamable HTTP its
 * Stop POSTs a cancel without the _meta envelope, and the 400 without id fails its connection.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry, profileWhyNot } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { assertNoEngineErrors, call, framesOf, framesWithMethod, notesOf, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const settled = (trace: readonly TraceEvent[], callId: string): Record<string, unknown> | undefined => notesOf(trace, 'call-settled').find((n) => n.note.call === callId)?.note;

describe('Go SDK client on 2026-07-28 Streamable HTTP (emulated, go-sdk #1212)', () => {
  test('Stop POSTs a cancel without _meta; the 400 without id fails the connection, and the next call never reaches the wire', async () => {
    const entry = libraryEntry('go-sdk-1212-go-client-fails-its-connection-after-the-400');
    assert.ok(entry);
    const trace = await runHeadless(entry.scenario, sides);
    assertNoEngineErrors(trace);
    const cancels = framesWithMethod(trace, 'notifications/cancelled', 'c2s');
    assert.equal(cancels.length, 1, 'Stop is a POSTed notification, not a closed stream');
    const params = cancels[0]?.msg?.params;
    assert.ok(params !== null && typeof params === 'object');
    assert.equal('_meta' in params, false, 'cancelCall builds the params without the envelope');
    const stream = cancels[0]?.http?.stream;
    const answer = framesOf(trace).filter((f) => f.dir === 's2c' && f.http?.stream === stream);
    assert.equal(answer.find((f) => f.http?.part === 'response-head')?.http?.status, 400);
    assert.equal(answer.find((f) => f.msg !== null)?.msg?.id, undefined);
    assert.deepEqual(
      framesWithMethod(trace, 'tools/call', 'c2s').map((f) => f.msg?.params?.name),
      ['slow_count'],
      'call B is never written',
    );
    const b = settled(trace, 'B');
    assert.equal(b?.outcome, 'error');
    assert.equal(b?.unsent, true);
    assert.equal(b?.message, 'client is closing: sending "notifications/cancelled": missing or invalid _meta field "io.modelcontextprotocol/protocolVersion": Bad Request');
  });

  test('against the real v2 server its cancel without _meta is accepted, and the connection stays', async () => {
    const steps = [call(20, 'A', 'work', { ms: 1000, onCancel: 'observe' }), stop(150, 'A'), call(400, 'B', 'quick')];
    const trace = await runHeadless(scenario(steps, { revision: '2026-07-28', transport: 'streamable-http', httpServer: 'stateless', clientProfile: 'go', endAt: 1500 }), sides);
    assertNoEngineErrors(trace);
    const [cancel] = framesWithMethod(trace, 'notifications/cancelled', 'c2s');
    assert.ok(cancel?.msg?.params !== undefined && !('_meta' in cancel.msg.params));
    assert.equal(settled(trace, 'B')?.outcome, 'result');
  });

  test('the emulation covers 2026-07-28 on Streamable HTTP only, and 2025-era stdio', () => {
    assert.equal(profileWhyNot('2026-07-28', 'streamable-http', 'go', 'go'), null);
    assert.equal(profileWhyNot('2026-07-28', 'streamable-http', 'ts-v2', 'go'), null);
    assert.match(profileWhyNot('2026-07-28', 'stdio', 'ts-v2', 'go') ?? '', /Go SDK client emulation/);
    assert.match(profileWhyNot('2025-11-25', 'streamable-http', 'ts-v2', 'go') ?? '', /stdio/);
    assert.equal(profileWhyNot('2025-11-25', 'stdio', 'ts-v2', 'go'), null);
  });
});
