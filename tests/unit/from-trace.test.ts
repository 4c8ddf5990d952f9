/**
 * "Make a scenario from this trace": each import sample (tests/fixtures/import/) becomes a
 * scenario whose run matches it frame for frame, where the lab can express it; a lab trace of
 * every library scenario reads back into a scenario that runs to the same trace hash; and a log
 * from a server the lab does not have maps its tools, Stops and late answers onto the lab's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createNodeSides, runHeadless } from '../../src/host/index.ts';
import { LIBRARY, REVISIONS, clientMode, clientRevisions, matchSummary, matchTraces, scenarioFromTrace, serverRevisions, type MadeScenario, type Revision, type Scenario } from '../../src/scenario/index.ts';
import { importTrace, serializeTrace, traceHash, type Imported, type TraceEvent } from '../../src/trace/index.ts';
import { toHar } from '../../src/trace/export/index.ts';

const sides = createNodeSides();
after(() => sides.close());

const FIXTURES = new URL('../fixtures/import/', import.meta.url);
// The samples, not the folder of scripts that captured the real ones (capture/).
const SAMPLES = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isFile() && !e.name.endsWith('.md') && !e.name.endsWith('.ts'))
  .map((e) => e.name);

function imported(text: string): Extract<Imported, { ok: true }> {
  const result = importTrace(text);
  if (!result.ok) assert.fail(result.error);
  return result;
}

function made(result: MadeScenario): Scenario {
  if (!result.ok) assert.fail(result.error);
  return result.scenario;
}

function fromSample(name: string): { imp: Extract<Imported, { ok: true }>; scenario: Scenario } {
  const imp = imported(readFileSync(new URL(name, FIXTURES), 'utf8'));
  const revision = imp.revision as Revision;
  const transport = imp.transport ?? 'stdio';
  return { imp, scenario: made(scenarioFromTrace({ trace: imp.trace, revision, transport })) };
}

/**
 * What the lab cannot express, per sample. A HAR entry always ends, while the lab's GET stream is
 * still open when its run ends. The real captures (tests/fixtures/import/README.md): a browser's
 * HAR times a whole response, so a 202's head and the end of a short POST stream come with their
 * body's timing; the page's own abort of a fetch and its DELETE of the session are no action of
 * the lab's client. The Inspector's client wrote notifications/initialized 22 ms (v2 server) and
 * 17 ms (python-1.x-like) after the initialize answer came, where the lab's client writes it as
 * the answer arrives. Each answer's own time is reproduced: a server process that was starting
 * (initialize 129 ms in the tee, 375 ms in the Inspector), a slow tools/list, a code-0 error
 * 130 ms after the cancel.
 */
const CANNOT: Record<string, string[]> = {
  'har-http-sse-cancel.har': ['server → client HTTP end of GET'],
  'inspector-sdk-v2-stdio.json': ['client → server notifications/initialized'],
  'inspector-py-v1-like-stdio.json': ['client → server notifications/initialized'],
  'har-chromium-streamable-http.har': [
    'server → client HTTP response-head of POST (status 202)',
    'server → client HTTP response-head of POST (status 202)',
    'server → client HTTP end of POST',
    'client → server HTTP abort of tools/call #2',
    'server → client HTTP response-head of tools/call #3 (status 200)',
    'client → server HTTP request of DELETE',
    'client → server HTTP abort of DELETE',
  ],
};

/**
 * Frames the lab's run adds that a sample does not have: the real SDK client opens its standalone
 * GET stream after initialize, which the browser page that made the HAR never did, and that GET's
 * head comes before the head of the call the page aborted without waiting for it.
 */
const EXTRA: Record<string, string[]> = {
  'har-chromium-streamable-http.har': ['client → server HTTP request of GET', 'server → client HTTP response-head of tools/call #2 (status 200)', 'server → client HTTP response-head of GET (status 200)'],
};

describe('each import sample becomes a scenario whose run matches it', () => {
  for (const name of SAMPLES) {
    test(name, async () => {
      const { imp, scenario } = fromSample(name);
      const run = await runHeadless(scenario, sides);
      const match = matchTraces(imp.trace, run, { untimedChunks: imp.format === 'har' });
      const unmatched = match.rows.filter((r) => r.status !== 'matched').map((r) => r.what);
      assert.deepEqual(unmatched, CANNOT[name] ?? [], matchSummary(match));
      assert.deepEqual(match.extra.map((r) => r.what), EXTRA[name] ?? []);
    });
  }

  test('the closest profile: a code-0 answer to a cancel is python-sdk 1.x; a cancelled request never answered is TS v2; a cancelled initialize is TS v1', () => {
    assert.equal(fromSample('stdio-python-v1-code-0.log').scenario.serverProfile, 'py-v1');
    assert.equal(fromSample('inspector-python-v1-code-0.json').scenario.serverProfile, 'py-v1');
    assert.equal(fromSample('inspector-py-v1-like-stdio.json').scenario.serverProfile, 'py-v1');
    assert.equal(fromSample('inspector-sdk-v2-stdio.json').scenario.serverProfile, undefined);
    const stateless = fromSample('har-streamable-http-lost-cancel.har').scenario;
    assert.deepEqual([stateless.serverProfile, stateless.httpServer], [undefined, 'stateless']);
    const init = fromSample('stdio-cancel-initialize.log').scenario;
    assert.deepEqual([init.clientProfile, init.connectTimeoutMs, init.steps], ['ts-v1', 100, []]);
  });

  test('the calls, Stops and forged answers at their recorded times, and the latency from the handshake', () => {
    const r2 = fromSample('stdio-r2-clean.log').scenario;
    assert.deepEqual(r2.latency, { c2s: 50, s2c: 50 });
    assert.deepEqual(r2.steps, [
      { at: 200, action: { type: 'call', call: '#1', tool: 'stubborn', args: { ms: 100 } } },
      { at: 370, action: { type: 'stop', call: '#1' } },
    ]);
    const second = fromSample('mcpsnoop-second-response.jsonl').scenario;
    assert.deepEqual(second.steps[1], { at: 100, action: { type: 'inject-response', outcome: 'result', call: '#1' } });
  });
});

describe('each server answer at its own time', () => {
  test('a stdio tee: the server reads initialize late while its process starts, and an answer its client had not read when it cancelled reaches it just after the Stop', async () => {
    const { imp, scenario } = fromSample('stdio-sdk-v2-tee.log');
    // The quickest answer (a 10 ms call in 12 ms) is the way there; back, the client wrote notifications/initialized 9 ms after the answer passed.
    assert.deepEqual(scenario.latency, { c2s: 12, s2c: 9 });
    assert.deepEqual(scenario.faults, [
      { dir: 'c2s', action: 'delay', match: 'initialize', nth: 1, ms: 122 },
      // The second answer the server writes, call #2's: it passed the tee at 657 ms, the client cancelled at 693 ms.
      { dir: 's2c', action: 'delay', match: 'response', nth: 2, ms: 28 },
    ]);
    const run = await runHeadless(scenario, sides);
    const cancels = run.flatMap((e) => (e.kind === 'frame' && e.msg?.method === 'notifications/cancelled' ? [e.t] : []));
    assert.deepEqual(cancels, [348, 693]);
    assert.equal(matchSummary(matchTraces(imp.trace, run)), '10 of 10 frames match.');
  });

  test('a tee between a python-sdk 1.x server that took 60 ms to answer a cancel: the wire delays the cancel, the server answers as it arrives, and the run matches frame for frame', async () => {
    const log = [
      '[+ 0ms] --> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"my-host","version":"1"}}}',
      '[+ 5ms] <-- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"py-server","version":"1"}}}',
      '[+ 10ms] --> {"jsonrpc":"2.0","method":"notifications/initialized"}',
      '[+ 20ms] --> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crawl","arguments":{}}}',
      '[+ 120ms] --> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user pressed Stop"}}',
      '[+ 185ms] <-- {"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"Request cancelled"}}',
    ].join('\n');
    const imp = imported(log);
    const scenario = made(scenarioFromTrace({ trace: imp.trace, revision: '2025-11-25', transport: 'stdio' }));
    assert.equal(scenario.serverProfile, 'py-v1');
    assert.deepEqual(scenario.faults, [{ dir: 'c2s', action: 'delay', match: 'notifications/cancelled', nth: 1, ms: 60 }]);
    const match = matchTraces(imp.trace, await runHeadless(scenario, sides));
    assert.deepEqual(match.counts, { matched: 6, differs: 0, missing: 0, extra: 0 }, matchSummary(match));
  });

  test('a probe trace is recorded at its client: a round trip split evenly, and the cancels the probe forged itself forged again, not Stops', () => {
    const { scenario } = fromSample('probe-sdk-v2-stdio.jsonl');
    assert.deepEqual(scenario.latency, { c2s: 57, s2c: 57 });
    const cancels = scenario.steps.filter((s) => s.action.type === 'stop' || s.action.type === 'inject-cancel').map((s) => ({ at: s.at, ...s.action }));
    assert.deepEqual(cancels, [
      // After the response: the probe's own cancel, at the instant the answer reached it.
      { at: 1033, type: 'inject-cancel', call: '#3' },
      { at: 1495, type: 'inject-cancel', requestId: 987654321 },
      { at: 2052, type: 'stop', call: '#6' },
      { at: 2809, type: 'stop', call: '#8' },
      { at: 2830, type: 'inject-cancel', call: '#8' },
      { at: 3770, type: 'stop', call: '#10' },
    ]);
  });

  test('an Inspector export: each answer arrives when the Inspector saw it; what differs is its own client writing notifications/initialized late, which a note says', async () => {
    const v2 = fromSample('inspector-sdk-v2-stdio.json');
    assert.deepEqual(v2.scenario.latency, { c2s: 30, s2c: 30 });
    assert.deepEqual(v2.scenario.faults, [
      { dir: 'c2s', action: 'delay', match: 'initialize', nth: 1, ms: 315 },
      { dir: 's2c', action: 'delay', match: 'response', nth: 2, ms: 364 },
    ]);
    const made = scenarioFromTrace({ trace: v2.imp.trace, revision: '2025-11-25', transport: 'stdio' });
    const why = "The log's client wrote notifications/initialized 22 ms after the initialize answer came; the lab's client writes it as the answer arrives, so that frame comes 22 ms early in the run.";
    assert.ok(made.ok && made.notes.includes(why), made.ok ? made.notes.join('\n') : made.error);
    const match = matchTraces(v2.imp.trace, await runHeadless(v2.scenario, sides));
    assert.deepEqual(
      match.rows.filter((r) => r.status !== 'matched').map((r) => `${r.what}: ${r.how ?? ''}`),
      ['client → server notifications/initialized: written at 375 ms in the run, 397 ms in the log (-22 ms)'],
    );
    const py = fromSample('inspector-py-v1-like-stdio.json');
    assert.deepEqual(py.scenario.latency, { c2s: 17, s2c: 17 });
    // tools/list 67 ms late; the code-0 error 96 ms after the cancel arrived (the wire counts the second among the answers the first fault did not take).
    assert.deepEqual(py.scenario.faults, [
      { dir: 's2c', action: 'delay', match: 'response', nth: 2, ms: 67 },
      { dir: 's2c', action: 'delay', match: 'response', nth: 2, ms: 96 },
    ]);
    const run = await runHeadless(py.scenario, sides);
    const error = matchTraces(py.imp.trace, run).rows.find((r) => r.what === 'server → client error for tools/call #3 (code 0)');
    assert.equal(error?.status, 'matched');
    // Compared as written, the server frames the Inspector stamped as they arrived would be off by the way back and the delays.
    const asWritten = matchTraces(py.imp.trace, run, { seenAt: 'wire' }).rows.find((r) => r.frame === error?.frame);
    assert.equal(asWritten?.how, 'written at 1854 ms in the run, 1967 ms in the log (-113 ms)');
  });
});

/**
 * The settings a lab trace cannot show, per library scenario, each with why: the trace is the
 * same with the setting read back, so the round trip holds, but the field is not the one written.
 */
const SETTING_NOT_SHOWN: Record<string, { field: string; why: string }> = {
  'seed-004-python-v2-survives-swallowed-cancel': {
    field: 'serverProfile',
    why: 'python-sdk 2.x differs from the TypeScript SDK v2 only on a late or unknown-id response and a string cancel id; this run has neither, so the emulation writes no note and the server reads back as TS v2',
  },
  'negotiation-server-answers-an-older-client': {
    field: 'negotiation',
    why: "the server echoes the 2025-06-18 the client offers, so its first choice (2025-11-25) never reaches the wire: its list reads back as the one revision it answered",
  },
};

function revisionShown(imp: Extract<Imported, { ok: true }>): Revision {
  const revision = REVISIONS.find((r) => r === imp.revision);
  if (!revision) assert.fail(`the import shows no revision the lab has: ${imp.revision ?? 'none'}`);
  return revision;
}

/** The setting a scenario runs with, as negotiation.ts and the server shape read it (a list the defaults give equals no list). */
function settingOf(s: Scenario): Record<string, unknown> {
  return {
    revision: s.revision,
    transport: s.transport,
    httpServer: s.transport === 'streamable-http' && s.revision !== '2026-07-28' ? s.httpServer : undefined,
    serverProfile: s.serverProfile ?? 'ts-v2',
    clientProfile: s.clientProfile ?? 'ts-v2',
    connectTimeoutMs: s.connectTimeoutMs,
    resumable: s.resumable,
    negotiation: { client: clientRevisions(s), server: serverRevisions(s), mode: clientMode(s) },
  };
}

describe('a lab trace reads back into the scenario that made it', () => {
  const read: { id: string; scenario: Scenario; first: TraceEvent[]; imp: Extract<Imported, { ok: true }> }[] = [];
  before(async () => {
    for (const entry of LIBRARY) {
      const first = await runHeadless(entry.scenario, sides);
      read.push({ id: entry.id, scenario: entry.scenario, first, imp: imported(serializeTrace(first)) });
    }
  });

  test('every library scenario: lab trace → import → scenario → run gives the same trace hash', async () => {
    const differ: string[] = [];
    for (const { id, scenario, first, imp } of read) {
      const again = await runHeadless(made(scenarioFromTrace({ trace: imp.trace, revision: scenario.revision, transport: scenario.transport })), sides);
      if ((await traceHash(first)) !== (await traceHash(again))) differ.push(id);
      // The playground reads back with the revision the import shows: the one agreed, not always the scenario's.
      if (imp.revision === scenario.revision) continue;
      const shown = await runHeadless(made(scenarioFromTrace({ trace: imp.trace, revision: revisionShown(imp), transport: imp.transport ?? 'stdio' })), sides);
      if ((await traceHash(first)) !== (await traceHash(shown))) differ.push(`${id} (with the imported revision ${imp.revision})`);
    }
    assert.deepEqual(differ, []);
    assert.ok(read.length > 60);
  });

  test('every library scenario’s setting reads back as written: profiles, negotiation, resumable streams, connect timeout', () => {
    for (const { id, scenario, imp } of read) {
      const back = settingOf(made(scenarioFromTrace({ trace: imp.trace, revision: scenario.revision, transport: scenario.transport })));
      const written = settingOf(scenario);
      const not = SETTING_NOT_SHOWN[id];
      if (not) {
        assert.notDeepEqual(back[not.field], written[not.field], `${id}: ${not.field} now reads back; take it off the list`);
        back[not.field] = written[not.field];
      }
      assert.deepEqual(back, written, id);
    }
  });

  test('the handshake gives the negotiation: a refused counter-offer, a refused probe, an auto fallback', () => {
    const of = (id: string, imported = false): Scenario => {
      const r = read.find((x) => x.id === id);
      if (!r) assert.fail(id);
      return made(scenarioFromTrace({ trace: r.imp.trace, revision: imported ? revisionShown(r.imp) : r.scenario.revision, transport: r.scenario.transport }));
    };
    assert.deepEqual(of('negotiation-client-refuses-the-counter-offer').negotiation, { server: ['2025-11-25'] });
    // The import shows the revision the server answered; the client refused it, so its list cannot hold it.
    assert.deepEqual([of('negotiation-client-refuses-the-counter-offer', true).revision], ['2025-06-18']);
    assert.deepEqual(of('negotiation-pinned-client-refused').negotiation, { server: ['2025-11-25'] });
    assert.deepEqual(of('negotiation-auto-falls-back-to-initialize').negotiation, { client: ['2026-07-28', '2025-11-25'], server: ['2025-11-25'], mode: 'auto' });
    assert.deepEqual(of('stream-resumes-after-server-close-2025-11-25').resumable, { retryMs: 200 });
  });
});

const FOREIGN = [
  '[+ 0ms] --> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"my-host","version":"1"}}}',
  '[+ 3ms] <-- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"docs-server","version":"2"}}}',
  '[+ 6ms] --> {"jsonrpc":"2.0","method":"notifications/initialized"}',
  'server: warming up the index',
  '[+ 10ms] --> {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '[+ 13ms] <-- {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
  '[+ 20ms] --> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_docs","arguments":{"q":"cancel"}}}',
  '[+ 143ms] <-- {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3 hits"}]}}',
  '[+ 200ms] --> {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"reindex","arguments":{},"_meta":{"progressToken":"p3"}}}',
  '[+ 253ms] <-- {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p3","progress":1,"total":4}}',
  '[+ 303ms] <-- {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p3","progress":2,"total":4}}',
  '[+ 320ms] --> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"user pressed Stop"}}',
  '[+ 400ms] --> {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"export","arguments":{}}}',
  '[+ 450ms] --> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"McpError: MCP error -32001: Request timed out"}}',
  '[+ 600ms] <-- {"jsonrpc":"2.0","id":4,"result":{"content":[]}}',
].join('\n');

describe('a log from a server the lab does not have', () => {
  test('its tools map onto the lab’s by what they did, its extra request is forged, and the run matches it frame for frame', async () => {
    const imp = imported(FOREIGN);
    const scenario = made(scenarioFromTrace({ trace: imp.trace, revision: '2025-06-18', transport: 'stdio' }));
    const actions = scenario.steps.map((s) => ({ at: s.at, ...s.action }));
    assert.deepEqual(actions, [
      { at: 10, type: 'inject', dir: 'c2s', message: { jsonrpc: '2.0', id: 'imported-1', method: 'tools/list' } },
      { at: 20, type: 'call', call: '#1', tool: 'stubborn', args: { ms: 120 } },
      { at: 200, type: 'call', call: '#2', tool: 'slow_count', args: { steps: 4, stepMs: 50 } },
      { at: 320, type: 'stop', call: '#2' },
      // The cancel's reason is a timeout: the call times out instead of a Stop.
      { at: 400, type: 'call', call: '#3', tool: 'work', args: { ms: 62_000, onCancel: 'observe' }, timeoutMs: 50 },
      // A result after its cancel reached the server: no profile writes it, so it is forged.
      { at: 600, type: 'inject-response', outcome: 'result', call: '#3' },
    ]);
    const run = await runHeadless(scenario, sides);
    const match = matchTraces(imp.trace, run);
    assert.deepEqual(match.counts, { matched: 14, differs: 0, missing: 0, extra: 0 }, matchSummary(match));
  });
});

describe('a server that still answers a cancelled request', () => {
  test('the Go SDK’s "context canceled" result after a cancel makes the server Go (emulated), which writes that answer itself; the run matches frame for frame', async () => {
    const log = [
      '[+ 0ms] --> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"my-host","version":"1"}}}',
      '[+ 3ms] <-- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"go-server","version":"1"}}}',
      '[+ 6ms] --> {"jsonrpc":"2.0","method":"notifications/initialized"}',
      '[+ 20ms] --> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crawl","arguments":{"url":"x"}}}',
      '[+ 150ms] --> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user pressed Stop"}}',
      '[+ 153ms] <-- {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"context canceled"}],"isError":true}}',
    ].join('\n');
    const imp = imported(log);
    const scenario = made(scenarioFromTrace({ trace: imp.trace, revision: '2025-11-25', transport: 'stdio' }));
    assert.equal(scenario.serverProfile, 'go');
    // No forged answer: the emulated Go server writes it when the handler stops on the cancel.
    assert.deepEqual(
      scenario.steps.map((s) => s.action.type),
      ['call', 'stop'],
    );
    const match = matchTraces(imp.trace, await runHeadless(scenario, sides));
    assert.deepEqual(match.counts, { matched: 6, differs: 0, missing: 0, extra: 0 }, matchSummary(match));
  });
});

describe('a client whose cancels give python-sdk 2.x’s reasons', () => {
  test('"caller cancelled" and "timed out after 0.05s" make the client python-sdk 2.x (emulated): a Stop and a timeout, and the run matches frame for frame', async () => {
    const log = [
      '[+ 0ms] --> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp","version":"2"}}}',
      '[+ 5ms] <-- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"docs","version":"1"}}}',
      '[+ 10ms] --> {"jsonrpc":"2.0","method":"notifications/initialized"}',
      '[+ 20ms] --> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crawl","arguments":{}}}',
      '[+ 120ms] --> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"caller cancelled"}}',
      '[+ 200ms] --> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crawl","arguments":{}}}',
      '[+ 250ms] --> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"timed out after 0.05s"}}',
    ].join('\n');
    const imp = imported(log);
    const scenario = made(scenarioFromTrace({ trace: imp.trace, revision: '2025-11-25', transport: 'stdio' }));
    assert.equal(scenario.clientProfile, 'py-v2');
    assert.deepEqual(
      scenario.steps.map((s) => [s.at, s.action.type, s.action.type === 'call' ? s.action.timeoutMs : undefined]),
      [
        [20, 'call', undefined],
        [120, 'stop', undefined],
        [200, 'call', 50],
      ],
    );
    const run = await runHeadless(scenario, sides);
    const reasons = (trace: readonly TraceEvent[]): unknown[] => trace.flatMap((e) => (e.kind === 'frame' && e.msg?.method === 'notifications/cancelled' ? [e.msg.params?.reason] : []));
    assert.deepEqual(reasons(run), reasons(imp.trace));
    const match = matchTraces(imp.trace, run);
    assert.deepEqual(match.counts, { matched: 7, differs: 0, missing: 0, extra: 0 }, matchSummary(match));
  });
});

/** A library scenario's run exported as HAR, imported, and made into a scenario: the way a DevTools capture comes in. */
async function fromHar(id: string): Promise<{ imp: Extract<Imported, { ok: true }>; scenario: Scenario }> {
  const entry = LIBRARY.find((e) => e.id === id);
  if (!entry) assert.fail(`the library scenario ${id} is gone`);
  const imp = imported(toHar(await runHeadless(entry.scenario, sides)));
  return { imp, scenario: made(scenarioFromTrace({ trace: imp.trace, revision: revisionShown(imp), transport: imp.transport ?? 'stdio' })) };
}

describe('a HAR of a server that closes a stream and resumes it', () => {
  test('the ids on its SSE events make the server resumable, and a stream closed before the answer came on a resumed GET is a close-stream step at its end', async () => {
    const { imp, scenario } = await fromHar('stream-resumes-after-server-close-2025-11-25');
    assert.ok(scenario.resumable !== undefined);
    assert.deepEqual(
      scenario.steps.map((s) => ({ at: s.at, ...s.action })).filter((a) => a.type === 'close-stream'),
      [{ at: 150, type: 'close-stream', call: '#1' }],
    );
    const match = matchTraces(imp.trace, await runHeadless(scenario, sides), { untimedChunks: true });
    const closed = match.rows.find((r) => r.what === 'server → client HTTP end of tools/call #2');
    assert.equal(closed?.status, 'matched', matchSummary(match));
  });
});

describe('a HAR of a session that expires', () => {
  test('a 404 to a request naming the session is an expire-session step when its GET stream ended; bare 404s after it an outage; a client that re-initializes is the strict host', async () => {
    for (const [id, expire, unmatched] of [
      // A HAR entry always ends: the standalone GET stream the lab keeps open is the one frame it cannot express.
      ['strict-host-reinitializes-after-session-expiry', { type: 'expire-session' }, ['server → client HTTP end of GET']],
      ['reported-claude-code-94273-one-404-loses-the-server', { type: 'expire-session', outageMs: 36 }, []],
    ] as const) {
      const { imp, scenario } = await fromHar(id);
      assert.equal(scenario.clientProfile, 'strict-host', id);
      assert.deepEqual(scenario.steps.filter((s) => s.action.type === 'expire-session'), [{ at: 100, action: expire }], id);
      const match = matchTraces(imp.trace, await runHeadless(scenario, sides), { untimedChunks: true });
      assert.deepEqual(match.rows.filter((r) => r.status !== 'matched').map((r) => r.what), unmatched, `${id}: ${matchSummary(match)}`);
      assert.deepEqual(match.extra, [], id);
    }
  });
});

describe('the comparison', () => {
  const base = (): TraceEvent[] => imported(readFileSync(new URL('stdio-r2-clean.log', FIXTURES), 'utf8')).trace;

  test('a frame written later than the tolerance differs, and says by how much', () => {
    const later = base().map((e) => (e.kind === 'frame' && e.frame === 4 ? { ...e, t: e.t + 30 } : e));
    const match = matchTraces(base(), later);
    const row = match.rows.find((r) => r.frame === 4);
    assert.equal(row?.status, 'differs');
    assert.match(row?.how ?? '', /\+30 ms/);
    assert.equal(matchTraces(base(), later, { toleranceMs: 30 }).counts.differs, 0);
  });

  test('a frame the run lacks is missing; one only the run has is extra; an error where a result was differs', () => {
    const trace = base();
    const withoutCancel = trace.filter((e) => !(e.kind === 'frame' && e.msg?.method === 'notifications/cancelled'));
    const m = matchTraces(trace, withoutCancel);
    assert.deepEqual(m.rows.filter((r) => r.status === 'missing').map((r) => r.what), ['client → server notifications/cancelled for tools/call #2']);
    assert.deepEqual(matchTraces(withoutCancel, trace).extra.map((e) => e.what), ['client → server notifications/cancelled for tools/call #2']);
    const error = trace.map((e) => (e.kind === 'frame' && e.frame === 4 && e.msg ? { ...e, msg: { jsonrpc: '2.0', id: 1, error: { code: 0, message: 'Request cancelled' } } } : e));
    const row = matchTraces(trace, error).rows.find((r) => r.frame === 4);
    assert.equal(row?.status, 'differs');
    assert.match(row?.how ?? '', /error for tools\/call #2 \(code 0\)/);
  });
});


describe('the server’s requests to the client', () => {
  test('an elicitation the log’s client answered after 200 ms becomes the lab client’s handler of that length; its request is forged and its answer matches', async () => {
    const log = [
      '[+ 0ms] --> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"my-host","version":"1"}}}',
      '[+ 5ms] <-- {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"forms","version":"1"}}}',
      '[+ 10ms] --> {"jsonrpc":"2.0","method":"notifications/initialized"}',
      '[+ 20ms] --> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_name","arguments":{}}}',
      '[+ 100ms] <-- {"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{}}}}',
      '[+ 305ms] --> {"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}',
    ].join('\n');
    const imp = imported(log);
    const scenario = made(scenarioFromTrace({ trace: imp.trace, revision: '2025-11-25', transport: 'stdio' }));
    assert.deepEqual(scenario.clientHandlers, { elicitation: { ms: 200, onCancel: 'observe' } });
    assert.deepEqual(scenario.steps.map((s) => s.action.type), ['call', 'inject']);
    const match = matchTraces(imp.trace, await runHeadless(scenario, sides));
    assert.deepEqual(
      match.rows.filter((r) => r.status !== 'matched').map((r) => r.what),
      [],
      matchSummary(match),
    );
    assert.deepEqual(match.extra, []);
  });
});
