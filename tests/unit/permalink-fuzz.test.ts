/**
 * The permalink decoder against hostile input: over 10,000 random, truncated and mutated
 * links. decodeLink must never throw (nor leave a rejected promise behind) and must always
 * resolve to either a valid scenario or { ok: false, error } with one clear sentence; a
 * decompression bomb is refused. And for any valid scenario, scenario → link → scenario is
 * the identity.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeLink, encodeLink, LINK_PREFIX, type DecodedLink, type LinkMeta } from '../../src/scenario/permalink.ts';
import { parseScenario } from '../../src/scenario/schema.ts';
import { defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import { LIBRARY } from '../../src/scenario/library.ts';
import { scenarioArbitrary } from './scenario-arbitrary.ts';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const META: LinkMeta = { engine: '0.1.0', sdk: '2.4.0', trace: '0123456789abcdef' };

let decoded = 0;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
before(() => process.on('unhandledRejection', onUnhandled));
after(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** A failure is one sentence: a capital letter, words, one line, no leaked exception text. */
function assertClearError(error: string, input: string): void {
  const where = `for input ${JSON.stringify(input.slice(0, 80))}${input.length > 80 ? '…' : ''}`;
  assert.equal(typeof error, 'string', where);
  assert.match(error, /^[A-Z][^\n]{15,600}$/, `one clear line ${where}: ${error}`);
  assert.doesNotMatch(error, /\[object |TypeError|RangeError|SyntaxError|at .+:\d+:\d+/, `no leaked exception ${where}: ${error}`);
}

/** Decodes without letting anything escape; checks the outcome's shape either way. */
async function decodeChecked(input: string): Promise<DecodedLink> {
  decoded++;
  let result: DecodedLink;
  try {
    result = await decodeLink(input);
  } catch (error) {
    assert.fail(`decodeLink threw ${String(error)} for ${JSON.stringify(input.slice(0, 80))}`);
  }
  assert.ok(result !== null && typeof result === 'object', 'a result object');
  if (result.ok) {
    assert.ok(parseScenario(result.scenario).ok, 'a decoded scenario is schema-valid');
    if (result.meta !== null) for (const v of Object.values(result.meta)) assert.equal(typeof v, 'string');
  } else {
    assertClearError(result.error, input);
  }
  return result;
}

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A link whose payload is `bytes`, deflated; no check that they are a scenario. */
async function linkOf(bytes: Uint8Array | string): Promise<string> {
  return LINK_PREFIX + base64url(await deflateRaw(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes));
}

/** Valid links to mutate: a short one, two library scenarios, and a long one. */
const seeds: string[] = [];
before(async () => {
  const scenarios: Scenario[] = [defaultScenario(), ...LIBRARY.slice(0, 2).map((e) => e.scenario), ...(LIBRARY.at(-1) ? [LIBRARY.at(-1)?.scenario as Scenario] : [])];
  for (const s of scenarios) seeds.push(await encodeLink(s, META));
  for (const link of seeds) assert.equal((await decodeLink(link)).ok, true);
});

describe('decodeLink never throws and always explains', () => {
  test('every truncation of valid links (with and without "#")', async () => {
    for (const link of seeds) {
      for (let n = 0; n < link.length; n++) {
        const cut = link.slice(0, n);
        const result = await decodeChecked(cut);
        if (n < link.length - 2) assert.equal(result.ok, false, `a link cut at ${n} of ${link.length} is refused`);
        if (n % 3 === 0) await decodeChecked(`#${cut}`);
      }
    }
  });

  test('single characters flipped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.constantFrom(...`${BASE64URL}+/=.# %\u00e9\u0000\ud800`), async (which, at, ch) => {
        const link = seeds[which % seeds.length] as string;
        const i = at % link.length;
        await decodeChecked(link.slice(0, i) + ch + link.slice(i + 1));
      }),
      { numRuns: 3000 },
    );
  });

  test('characters inserted and removed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.string({ minLength: 1, maxLength: 8 }), fc.boolean(), async (which, at, chunk, insert) => {
        const link = seeds[which % seeds.length] as string;
        const i = at % (link.length + 1);
        await decodeChecked(insert ? link.slice(0, i) + chunk + link.slice(i) : link.slice(0, i) + link.slice(i + chunk.length));
      }),
      { numRuns: 2000 },
    );
  });

  test('random base64url after the prefix', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 3000 }), async (payload) => {
        const result = await decodeChecked(LINK_PREFIX + payload);
        assert.equal(result.ok, false);
      }),
      { numRuns: 2000 },
    );
  });

  test('random text, random prefixes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })), fc.constantFrom('', '#', 'v1', 'v1.', 'v2.', 'V1.', '#v1.', 'https://x.test/#v1.'), async (tail, prefix) => {
        await decodeChecked(prefix + tail);
      }),
      { numRuns: 1500 },
    );
  });

  test('well-compressed payloads that are not a scenario (random bytes, random JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        assert.equal((await decodeChecked(await linkOf(bytes))).ok, false);
      }),
      { numRuns: 500 },
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), async (value, wrap) => {
        await decodeChecked(await linkOf(JSON.stringify(wrap ? { scenario: value } : value)));
      }),
      { numRuns: 500 },
    );
  });

  test('hostile payloads are refused with the reason', async () => {
    const valid = defaultScenario();
    const cases: [string, string, RegExp][] = [
      ['empty payload', LINK_PREFIX, /base64url/],
      ['one base64url character (cannot be a whole byte)', `${LINK_PREFIX}A`, /base64url/],
      ['not base64url at all', `${LINK_PREFIX}!!!!`, /base64url/],
      ['wrong version', `v2.${(seeds[0] as string).slice(3)}`, /should start with "v1\."/],
      ['valid deflate of invalid UTF-8', await linkOf(new Uint8Array([0xff, 0xfe, 0xfd])), /damaged/],
      ['valid deflate, trailing garbage', `${await linkOf('{"scenario":1}')}AAAA`, /./],
      ['JSON null', await linkOf('null'), /holds no scenario/],
      ['a JSON array', await linkOf('[1,2,3]'), /holds no scenario/],
      ['scenario with an unknown top-level key', await linkOf(JSON.stringify({ scenario: { ...valid, extra: 1 } })), /not valid/],
      ['scenario with a negative latency', await linkOf(JSON.stringify({ scenario: { ...valid, latency: { c2s: -1, s2c: 5 } } })), /latency\.c2s/],
      ['deeply nested JSON', await linkOf(`{"scenario":${'['.repeat(200_000)}${']'.repeat(200_000)}}`), /./],
    ];
    for (const [name, link, expected] of cases) {
      const result = await decodeChecked(link);
      assert.equal(result.ok, false, name);
      if (!result.ok) assert.match(result.error, expected, name);
    }
  });

  test('a decompression bomb (10 MB of zeros, and 1 MB of JSON text) is refused quickly', async () => {
    for (const payload of [new Uint8Array(10 * 1024 * 1024), new TextEncoder().encode(`{"scenario":"${'a'.repeat(1024 * 1024)}"}`)]) {
      const link = await linkOf(payload);
      assert.ok(link.length < 20_000, `the bomb is small (${link.length} characters)`);
      const started = performance.now();
      const result = await decodeChecked(link);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.error, /512 KB/);
      assert.ok(performance.now() - started < 2000, 'refused without unpacking it all');
    }
  });

  test('a huge link (1 MB of base64url) is refused without a crash', async () => {
    await decodeChecked(LINK_PREFIX + 'A'.repeat(1024 * 1024));
    await decodeChecked(LINK_PREFIX + 'QUFB'.repeat(256 * 1024));
  });

  test(`at least 10,000 inputs were decoded, and no promise was left rejected`, async (t) => {
    // Let stream errors surface, if any were left unhandled.
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.diagnostic(`decoded ${decoded} inputs`);
    assert.ok(decoded >= 10_000, `decoded ${decoded} inputs`);
    assert.deepEqual(unhandled, []);
  });
});

describe('round trip', () => {
  test('scenario → link → scenario is the identity for arbitrary valid scenarios', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, fc.record({ engine: fc.string(), sdk: fc.string(), trace: fc.string() }, { noNullPrototype: true }), async (scenario, meta) => {
        assert.ok(parseScenario(scenario).ok, 'the arbitrary makes valid scenarios');
        const link = await encodeLink(scenario, meta);
        assert.ok(link.startsWith(LINK_PREFIX) && /^v1\.[A-Za-z0-9_-]+$/.test(link), 'a URL-fragment-safe link');
        const back = await decodeLink(link);
        assert.ok(back.ok, back.ok ? '' : back.error);
        assert.deepStrictEqual(back.scenario, scenario);
        assert.deepStrictEqual(back.meta, meta);
      }),
      { numRuns: 400 },
    );
  });

  test('every library scenario round-trips, and stays under the 2,000-character link limit', async () => {
    for (const entry of LIBRARY) {
      const link = await encodeLink(entry.scenario, { ...META, trace: entry.trace });
      assert.ok(link.length < 2000, `${entry.id}: ${link.length} characters`);
      const back = await decodeLink(link);
      assert.ok(back.ok);
      assert.deepStrictEqual(back.scenario, entry.scenario);
    }
  });

  test('a tool argument named "__proto__" is refused with its path, never silently dropped', () => {
    const scenario = JSON.parse(
      '{"version":1,"revision":"2025-11-25","transport":"stdio","httpServer":"sessionful","latency":{"c2s":5,"s2c":5},"steps":[{"at":1,"action":{"type":"call","call":"A","tool":"quick","args":{"__proto__":{"x":1}}}}],"endAt":100}',
    ) as unknown;
    const parsed = parseScenario(scenario);
    assert.equal(parsed.ok, false);
    assert.ok(!parsed.ok && parsed.errors.some((e) => e.startsWith('steps.0.action.args:') && e.includes('__proto__')), JSON.stringify(parsed));
  });

  test('unknown keys inside actions, steps, faults and latency are refused, not dropped', () => {
    const base = { version: 1, revision: '2025-11-25', transport: 'stdio', httpServer: 'sessionful', latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 100 };
    const cases: [unknown, string][] = [
      [{ ...base, latency: { c2s: 5, s2c: 5, jitter: 3 } }, 'latency'],
      [{ ...base, steps: [{ at: 1, action: { type: 'call', call: 'A', tool: 'quick', args: {}, timeoutMS: 100 } }] }, 'steps.0.action'],
      [{ ...base, steps: [{ at: 1, when: 'now', action: { type: 'stop', call: 'A' } }] }, 'steps.0'],
      [{ ...base, faults: [{ dir: 'c2s', action: 'drop', matches: 'x' }] }, 'faults.0'],
    ];
    for (const [input, path] of cases) {
      const parsed = parseScenario(input);
      assert.ok(!parsed.ok && parsed.errors.some((e) => e.startsWith(`${path}:`)), `${path}: ${JSON.stringify(parsed)}`);
    }
  });
});
