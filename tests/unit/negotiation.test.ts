/**
 * Version negotiation (src/scenario/negotiation.ts) as the real SDKs do it, read off the wire:
 * the initialize the client writes, the server's echo or counter-offer, the client's refusal,
 * a pinned client refused and an auto client falling back; and the scenario's own checks.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { decodeLink, libraryEntry, parseScenario, settingLine, type Negotiation, type Revision } from '../../src/scenario/index.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { judgedRevision } from '../../src/rules/check-run.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { assertNoEngineErrors, call, framesOf, framesWithMethod, notesOf, scenario, stop } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

async function negotiate(revision: Revision, negotiation: Negotiation): Promise<TraceEvent[]> {
  const trace = await runHeadless(scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(250, 'A')], { revision, negotiation, endAt: 1000 }), sides);
  assertNoEngineErrors(trace);
  return trace;
}

const params = (trace: readonly TraceEvent[], method: string, dir: 'c2s' | 's2c' = 'c2s'): unknown[] => framesWithMethod(trace, method, dir).map((f) => f.msg?.params);
/** The result the server wrote for the handshake request (id 0 or the probe's id). */
const handshakeAnswer = (trace: readonly TraceEvent[], id: string | number): unknown => framesOf(trace).find((f) => f.dir === 's2c' && f.msg?.id === id && f.msg.method === undefined)?.msg;

describe('negotiation on the wire', () => {
  test('a server that prefers 2025-11-25 echoes the 2025-06-18 a client offers, and the run is judged by 2025-06-18', async () => {
    const s = { revision: '2025-06-18' as const, negotiation: { client: ['2025-06-18' as const], server: ['2025-11-25' as const, '2025-06-18' as const] } };
    const trace = await negotiate(s.revision, s.negotiation);
    assert.deepEqual(params(trace, 'initialize').map((p) => (p as { protocolVersion: string }).protocolVersion), ['2025-06-18']);
    assert.equal((handshakeAnswer(trace, 0) as { result: { protocolVersion: string } }).result.protocolVersion, '2025-06-18');
    assert.deepEqual(
      notesOf(trace, 'connected').map((n) => n.note.protocolVersion),
      ['2025-06-18'],
    );
    assert.equal(judgedRevision({ revision: '2025-11-25' }, trace), '2025-06-18', 'the handshake, not the field, names the judged revision');
    assert.equal(framesWithMethod(trace, 'notifications/cancelled', 'c2s').length, 1);
  });

  test('a server that lacks the offered revision counter-offers its own, and a client without it refuses and closes', async () => {
    const trace = await negotiate('2025-06-18', { client: ['2025-06-18'], server: ['2025-11-25'] });
    assert.equal((handshakeAnswer(trace, 0) as { result: { protocolVersion: string } }).result.protocolVersion, '2025-11-25');
    assert.equal(framesWithMethod(trace, 'notifications/initialized').length, 0, 'no initialized after a refused answer');
    assert.ok(framesOf(trace).some((f) => f.dir === 'c2s' && f.eof === true), 'the client closes its end');
    assert.ok(notesOf(trace, 'client-onerror').some((n) => n.note.message.includes("Server's protocol version is not supported: 2025-11-25")));
    assert.equal(framesWithMethod(trace, 'tools/call').length, 0, 'call A never reaches the wire');
  });

  test('a client pinned to 2026-07-28 probes with server/discover and does not fall back when a 2025-only server refuses it', async () => {
    const trace = await negotiate('2026-07-28', { client: ['2026-07-28'], server: ['2025-11-25'], mode: 'pin' });
    assert.equal(framesWithMethod(trace, 'server/discover').length, 1);
    assert.equal(framesWithMethod(trace, 'initialize').length, 0, 'a pin never falls back to initialize');
    assert.equal((handshakeAnswer(trace, 'server-discover-probe-1') as { error: { code: number } }).error.code, -32601);
    assert.ok(notesOf(trace, 'client-onerror').some((n) => /ERA_NEGOTIATION_FAILED|did not offer pinned protocol version 2026-07-28/.test(n.note.message)));
  });

  test('an auto client falls back to initialize on the same stream, and its Stop is a 2025-era notifications/cancelled', async () => {
    const trace = await negotiate('2026-07-28', { client: ['2026-07-28', '2025-11-25'], server: ['2025-11-25'], mode: 'auto' });
    const methods = framesOf(trace)
      .filter((f) => f.dir === 'c2s' && f.msg?.method !== undefined)
      .map((f) => f.msg?.method);
    assert.deepEqual(methods.slice(0, 3), ['server/discover', 'initialize', 'notifications/initialized']);
    assert.deepEqual(notesOf(trace, 'connected').map((n) => [n.note.protocolVersion, n.note.era]), [['2025-11-25', 'legacy']]);
    const [cancel] = params(trace, 'notifications/cancelled');
    assert.deepEqual(cancel, { requestId: 1, reason: 'user pressed Stop' }, 'no 2026 _meta envelope on the fallback');
  });

  test('the real v1 client, which always asks for 2025-11-25, takes the counter-offer of a v2 server that has only 2025-03-26', async () => {
    const trace = await runHeadless(scenario([call(20, 'A', 'quick')], { clientProfile: 'ts-v1', negotiation: { server: ['2025-03-26'] }, endAt: 500 }), sides);
    assertNoEngineErrors(trace);
    assert.deepEqual(params(trace, 'initialize').map((p) => (p as { protocolVersion: string }).protocolVersion), ['2025-11-25']);
    assert.equal((handshakeAnswer(trace, 0) as { result: { protocolVersion: string } }).result.protocolVersion, '2025-03-26');
    assert.deepEqual(notesOf(trace, 'connected').map((n) => n.note.protocolVersion), ['2025-03-26']);
    assert.equal(framesWithMethod(trace, 'tools/call').length, 1);
  });

  test('auto against a server that has 2026-07-28 stays on it', async () => {
    const trace = await negotiate('2026-07-28', { client: ['2026-07-28', '2025-11-25'], mode: 'auto' });
    assert.equal(framesWithMethod(trace, 'initialize').length, 0);
    assert.deepEqual(notesOf(trace, 'connected').map((n) => n.note.protocolVersion), ['2026-07-28']);
  });
});

describe('the scenario refuses a negotiation its sides cannot take', () => {
  const base = { version: 1, transport: 'stdio', httpServer: 'sessionful', latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 100 };
  const errors = (extra: Record<string, unknown>): string[] => {
    const result = parseScenario({ ...base, revision: '2025-11-25', ...extra });
    return result.ok ? [] : result.errors;
  };

  test('the real v1 SDK has no list to set', () => {
    assert.match(errors({ clientProfile: 'ts-v1', negotiation: { client: ['2025-11-25'] } }).join(), /negotiation\.client: .*v1 takes no list/);
    assert.match(errors({ serverProfile: 'ts-v1', negotiation: { server: ['2025-11-25'] } }).join(), /negotiation\.server: .*v1 takes no list/);
  });

  test('an emulation keeps its implementation’s own revisions; the strict host is the real v2 client and takes a list', () => {
    assert.match(errors({ serverProfile: 'py-v1', negotiation: { server: ['2025-11-25'] } }).join(), /negotiation\.server: the py-v1 server is an emulation/);
    assert.match(errors({ clientProfile: 'py-v2', negotiation: { client: ['2025-11-25'] } }).join(), /negotiation\.client: the py-v2 client is an emulation/);
    assert.deepEqual(errors({ clientProfile: 'strict-host', negotiation: { client: ['2025-11-25'] } }), []);
  });

  test('pin and auto need a 2026-era revision in the client list, and the list holds the scenario revision', () => {
    assert.match(errors({ negotiation: { client: ['2025-11-25'], mode: 'pin' } }).join(), /negotiation\.mode: .*needs 2026-07-28/);
    assert.match(errors({ negotiation: { client: ['2025-06-18'] } }).join(), /negotiation\.client: .*\(2025-11-25\)/);
    assert.deepEqual(errors({ negotiation: { client: ['2025-11-25', '2025-06-18'], server: ['2025-06-18'] } }), []);
  });

  test('a scenario without the field is unchanged by the parser', () => {
    const result = parseScenario({ ...base, revision: '2025-11-25' });
    assert.ok(result.ok);
    assert.equal('negotiation' in result.scenario, false);
  });
});

test('a negotiation round-trips through a permalink and is named in the setting line', async () => {
  const entry = libraryEntry('negotiation-auto-falls-back-to-initialize');
  assert.ok(entry);
  const decoded = await decodeLink(await encodeLink(entry.scenario, { engine: 'e', sdk: 's', trace: entry.trace }));
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.scenario.negotiation, { client: ['2026-07-28', '2025-11-25'], server: ['2025-11-25'], mode: 'auto' });
  assert.match(settingLine(entry.scenario), /client supports 2026-07-28, 2025-11-25 · server supports 2025-11-25 · auto negotiation$/);
});
