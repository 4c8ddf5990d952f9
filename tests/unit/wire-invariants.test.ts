/**
 * Seeded random scenarios (all revisions, latencies 0–15 ms, up to three concurrent calls of any
 * tool, Stops and injected responses at arbitrary instants): every run keeps the wire invariants
 * (delivery at exactly t + L, once, time never backwards) and the lifecycles chain correctly.
 * The seed is fixed, so a failure reproduces; the failing scenario is in the assertion message.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { defaultScenario, REVISIONS, type Scenario, type Step } from '../../src/scenario/index.ts';
import type { ClientStateEvent, ServerStateEvent } from '../../src/trace/index.ts';
import { assertWireInvariants, framesOf } from './trace-helpers.ts';

const sides = createNodeSides();
after(() => sides.close());

const SCENARIOS = 120;

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomScenario(rnd: () => number): Scenario {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const steps: Step[] = [];
  const calls = int(1, 3);
  for (let c = 0; c < calls; c++) {
    const id = `C${c}`;
    const at = int(0, 200);
    const tool = (['slow_count', 'stubborn', 'ledger_write', 'quick'] as const)[int(0, 3)] ?? 'quick';
    const args: Record<string, unknown> =
      tool === 'slow_count'
        ? { steps: int(1, 5), stepMs: int(0, 60) }
        : tool === 'stubborn'
          ? { ms: int(0, 300) }
          : tool === 'ledger_write'
            ? { key: `k${c}`, value: 'v', commitAfterMs: int(0, 100), totalMs: int(0, 300) }
            : {};
    steps.push({ at, action: { type: 'call', call: id, tool, args } });
    if (rnd() < 0.7) steps.push({ at: at + int(0, 200), action: { type: 'stop', call: id } });
    if (rnd() < 0.3) {
      steps.push({ at: at + int(0, 400), action: { type: 'inject-response', call: id, outcome: rnd() < 0.5 ? 'result' : 'error' } });
    }
  }
  return {
    ...defaultScenario(), // stdio
    revision: REVISIONS[int(0, REVISIONS.length - 1)] ?? '2025-11-25',
    latency: { c2s: int(0, 15), s2c: int(0, 15) },
    steps,
    endAt: 2_000,
  };
}

test(`${SCENARIOS} seeded random scenarios keep the wire invariants and chain their lifecycles`, async () => {
  const rnd = prng(20_251_125);
  let frames = 0;
  for (let i = 0; i < SCENARIOS; i++) {
    const s = randomScenario(rnd);
    const context = `scenario #${i}: ${JSON.stringify(s)}`;
    const trace = await runHeadless(s, sides);
    try {
      assertWireInvariants(s, trace);
      // Each lifecycle event starts from where the previous one for the same call/request ended.
      const clientAt = new Map<string, ClientStateEvent['to']>();
      const serverAt = new Map<string, ServerStateEvent['to']>();
      for (const e of trace) {
        if (e.kind === 'client-state') {
          assert.equal(e.from, clientAt.get(e.call) ?? null, `client-state chain for ${e.call} at seq ${e.seq}`);
          clientAt.set(e.call, e.to);
        } else if (e.kind === 'server-state') {
          const key = JSON.stringify(e.requestId);
          assert.equal(e.from, serverAt.get(key) ?? null, `server-state chain for ${key} at seq ${e.seq}`);
          serverAt.set(key, e.to);
        }
      }
      // A request whose handler was suppressed has no real (non-injected) response on the wire.
      for (const [key, state] of serverAt) {
        if (state !== 'response suppressed') continue;
        const real = framesOf(trace).filter((f) => f.dir === 's2c' && !f.injected && JSON.stringify(f.msg?.id) === key);
        assert.deepEqual(real, [], `request ${key} was suppressed yet answered`);
      }
    } catch (error) {
      if (error instanceof assert.AssertionError) error.message += `\n${context}`;
      throw error;
    }
    frames += framesOf(trace).length;
  }
  assert.ok(frames > SCENARIOS * 4, 'the scenarios put real traffic on the wire');
});
