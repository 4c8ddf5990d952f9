/**
 * The stateless Streamable HTTP server is named for what each SDK does: v2 serves it with
 * createMcpHandler; the real v1 server, which has none, builds a server and transport per request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario, settingLine } from '../../src/scenario/index.ts';

function line(serverProfile: 'ts-v2' | 'ts-v1'): string {
  const parsed = parseScenario({ version: 1, revision: '2025-11-25', transport: 'streamable-http', httpServer: 'stateless', serverProfile, latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 100 });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('; '));
  return settingLine(parsed.scenario);
}

test('the setting line names the stateless server each SDK runs', () => {
  assert.equal(line('ts-v2'), '2025-11-25 · Streamable HTTP (createMcpHandler server)');
  assert.equal(line('ts-v1'), '2025-11-25 · Streamable HTTP (stateless server: a server and transport per request) · server ts-v1');
});
