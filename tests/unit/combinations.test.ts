/**
 * What the runner and the pickers refuse, from the one table in src/scenario/combinations.ts:
 * transports a revision never had, and implementations on revisions they never spoke.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedCombinations, profileWhyNot, transportWhyNot, whyNot } from '../../src/scenario/combinations.ts';
import { CLIENT_PROFILES, REVISIONS, SERVER_PROFILES } from '../../src/scenario/model.ts';
import { LIBRARY } from '../../src/scenario/library.ts';

describe('implementations refuse revisions they never supported', () => {
  test('a TypeScript SDK v1 server or client on 2026-07-28, with the newest revision 1.x speaks', () => {
    assert.match(profileWhyNot('2026-07-28', 'stdio', 'ts-v1', 'ts-v2') ?? '', /TypeScript SDK 1\.x.*2025-11-25/);
    assert.match(profileWhyNot('2026-07-28', 'stdio', 'ts-v2', 'ts-v1') ?? '', /TypeScript SDK 1\.x.*2025-11-25/);
    assert.equal(profileWhyNot('2025-11-25', 'stdio', 'ts-v1', 'ts-v1'), null);
  });

  test('two v1 sides speak 2025-11-25 only: the v1 client always asks for it and the v1 server grants it', () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18'] as const) {
      assert.match(profileWhyNot(revision, 'stdio', 'ts-v1', 'ts-v1') ?? '', /v1 pair speaks 2025-11-25 only/);
      assert.equal(profileWhyNot(revision, 'stdio', 'ts-v1', 'ts-v2'), null);
      assert.equal(profileWhyNot(revision, 'stdio', 'ts-v2', 'ts-v1'), null);
    }
  });

  test('a python-sdk 1.x server or client on 2026-07-28', () => {
    assert.match(profileWhyNot('2026-07-28', 'stdio', 'py-v1', 'ts-v2') ?? '', /python-sdk 1\.x.*2025-11-25/);
    assert.match(profileWhyNot('2026-07-28', 'stdio', 'ts-v2', 'py-v1') ?? '', /python-sdk 1\.x/);
    assert.equal(profileWhyNot('2025-11-25', 'stdio', 'py-v1', 'py-v1'), null);
  });

  test('only the real TypeScript SDK v2 on both sides runs on 2026-07-28', () => {
    for (const server of SERVER_PROFILES) {
      for (const client of CLIENT_PROFILES) {
        const reason = profileWhyNot('2026-07-28', 'stdio', server, client);
        assert.equal(reason === null, server === 'ts-v2' && client === 'ts-v2', `${server} × ${client}: ${reason ?? 'allowed'}`);
      }
    }
  });

  test('every SDK emulation is stdio-only, on every revision; the strict host (a policy on the real client) and the real v1 are not', () => {
    for (const revision of REVISIONS) {
      assert.match(profileWhyNot(revision, 'streamable-http', 'py-v2', 'ts-v2') ?? '', /stdio/);
      assert.match(profileWhyNot(revision, 'http-sse', 'py-v1', 'ts-v1') ?? '', /stdio/);
    }
    assert.equal(profileWhyNot('2024-11-05', 'http-sse', 'ts-v2', 'ts-v1'), null);
    assert.equal(profileWhyNot('2025-11-25', 'streamable-http', 'ts-v1', 'ts-v1'), null);
    assert.equal(profileWhyNot('2024-11-05', 'http-sse', 'ts-v2', 'strict-host'), null);
    assert.equal(profileWhyNot('2025-11-25', 'streamable-http', 'ts-v2', 'strict-host'), null);
    assert.match(profileWhyNot('2025-11-25', 'streamable-http', 'py-v1', 'strict-host') ?? '', /stdio/);
  });
});

describe('whyNot: the question the runner asks', () => {
  test('the transport reason comes first, then the implementation', () => {
    assert.match(whyNot('2025-11-25', 'http-sse', undefined, { server: 'ts-v1' }) ?? '', /HTTP\+SSE is the 2024-11-05 transport/);
    assert.match(whyNot('2026-07-28', 'stdio', undefined, { server: 'ts-v1' }) ?? '', /TypeScript SDK 1\.x/);
    assert.equal(whyNot('2026-07-28', 'stdio', undefined, {}), null);
  });

  test('without a server shape, any shape the SDK serves will do (2026-07-28 runs createMcpHandler)', () => {
    assert.equal(whyNot('2026-07-28', 'streamable-http'), null);
    assert.match(whyNot('2026-07-28', 'streamable-http', 'sessionful') ?? '', /removed sessions/);
    assert.equal(transportWhyNot('2026-07-28', 'streamable-http'), null);
    assert.match(transportWhyNot('2025-06-18', 'http-sse') ?? '', /2024-11-05/);
  });

  test('the allowed combinations are unchanged, and every library scenario is allowed', () => {
    assert.equal(allowedCombinations().length, 13);
    for (const entry of LIBRARY) {
      const s = entry.scenario;
      assert.equal(whyNot(s.revision, s.transport, undefined, { server: s.serverProfile, client: s.clientProfile }), null, entry.id);
    }
  });
});
