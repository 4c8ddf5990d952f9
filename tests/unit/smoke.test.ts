import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { defaultScenario } from '../../src/scenario.ts';
import { serializeTrace } from '../../src/trace.ts';

test('warm workers give the same trace as fresh ones', async () => {
  const s = defaultScenario();
  s.steps = [
    { at: 20, action: { type: 'call', call: 'A', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
    { at: 250, action: { type: 'stop', call: 'A' } },
  ];
  const fresh = serializeTrace(await runHeadless(s));
  const sides = createNodeSides();
  try {
    const t0 = performance.now();
    const a = serializeTrace(await runHeadless(s, sides));
    const t1 = performance.now();
    const b = serializeTrace(await runHeadless(s, sides));
    const t2 = performance.now();
    console.log('first warm', t1 - t0, 'second warm', t2 - t1);
    assert.equal(a, fresh);
    assert.equal(b, fresh);
  } finally {
    await sides.close();
  }
});
