/**
 * The connection handshake, per protocol revision: what the first frames on the wire are and
 * what the client reports once connected.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { REVISIONS } from '../../src/scenario/index.ts';
import {
  assertNoEngineErrors,
  assertWireInvariants,
  defined,
  deliveryOf,
  framesOf,
  framesWithMethod,
  notesOf,
  scenario,
} from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const LEGACY = REVISIONS.filter((r) => r !== '2026-07-28');

for (const revision of LEGACY) {
  test(`${revision}: initialize → result with the same protocolVersion → initialized; 'connected' reports it`, async () => {
    const s = scenario([], { revision });
    const trace = await runHeadless(s, sides);
    assertNoEngineErrors(trace);
    assertWireInvariants(s, trace);
    const frames = framesOf(trace);

    const first = defined(frames[0]);
    assert.equal(trace[0], first, 'the first trace event is the first frame');
    assert.equal(first.t, 0);
    assert.equal(first.dir, 'c2s');
    assert.equal(first.msg?.method, 'initialize');
    assert.equal(first.msg?.params?.protocolVersion, s.revision);
    assert.ok(first.raw.endsWith('\n') && !first.raw.slice(0, -1).includes('\n'), 'stdio framing: one line');
    const initId = first.msg?.id;
    assert.notEqual(initId, undefined);

    const results = frames.filter((f) => f.dir === 's2c' && f.msg?.id === initId);
    assert.equal(results.length, 1, 'exactly one response to initialize');
    const result = defined(results[0]);
    assert.equal(result.msg?.method, undefined);
    assert.equal((result.msg?.result as { protocolVersion?: unknown }).protocolVersion, s.revision);
    assert.equal(result.t, deliveryOf(trace, first).t, 'the server answers the instant initialize arrives');

    const initialized = framesWithMethod(trace, 'notifications/initialized', 'c2s');
    assert.equal(initialized.length, 1);
    assert.equal(defined(initialized[0]).t, deliveryOf(trace, result).t, 'initialized is sent when the result arrives');

    const connected = notesOf(trace, 'connected');
    assert.equal(connected.length, 1);
    assert.equal(defined(connected[0]).side, 'client');
    assert.equal(defined(connected[0]).note.protocolVersion, s.revision);
    assert.equal(defined(connected[0]).note.era, 'legacy');
    assert.equal(defined(connected[0]).t, s.latency.c2s + s.latency.s2c, 'connected after one round trip');
  });
}

test('2026-07-28: server/discover instead of initialize; connected reports the modern era', async () => {
  const s = scenario([], { revision: '2026-07-28' });
  const trace = await runHeadless(s, sides);
  assertNoEngineErrors(trace);
  assertWireInvariants(s, trace);
  assert.deepEqual(framesWithMethod(trace, 'initialize'), [], 'no initialize request in the modern era');
  const first = defined(framesOf(trace)[0]);
  assert.equal(first.dir, 'c2s');
  assert.equal(first.msg?.method, 'server/discover');
  const meta = first.msg?.params?._meta as Record<string, unknown> | undefined;
  assert.equal(meta?.['io.modelcontextprotocol/protocolVersion'], s.revision);
  const answer = framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === first.msg?.id);
  assert.ok(answer);
  assert.deepEqual((answer.msg?.result as { supportedVersions?: unknown }).supportedVersions, [s.revision]);
  const connected = notesOf(trace, 'connected');
  assert.deepEqual(
    connected.map((e) => [e.t, e.note.protocolVersion, e.note.era]),
    [[10, s.revision, 'modern']],
  );
});
