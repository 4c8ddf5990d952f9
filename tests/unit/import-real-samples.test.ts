/**
 * The import samples captured from real exchanges (tests/fixtures/import/capture/, see the
 * README there): each is read by the entry `cancel-lab check` uses, detected as its format,
 * holds the frames its capture script counted, each way, and gets the verdicts a user should see.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTraceFile, type CheckedTrace } from '../../src/cli/check.ts';
import type { FrameEvent } from '../../src/trace/index.ts';
import { findingLabel } from '../../src/views/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = 'tests/fixtures/import/';
const check = (name: string, opts: Parameters<typeof checkTraceFile>[1] = {}) => checkTraceFile(`${FIXTURES}${name}`, { cwd: ROOT, ...opts });
const fixtureText = (name: string) => readFile(join(ROOT, FIXTURES, name), 'utf8');

function frames(c: CheckedTrace): FrameEvent[] {
  return c.trace.filter((e): e is FrameEvent => e.kind === 'frame');
}

function countDirs(list: readonly FrameEvent[]): { c2s: number; s2c: number } {
  return { c2s: list.filter((f) => f.dir === 'c2s').length, s2c: list.filter((f) => f.dir === 's2c').length };
}

/** The findings of one rule as every output prints them: `label: why` (“MUST broken”, “allowed race”, “satisfied”, “can’t tell”). */
function verdicts(c: CheckedTrace, rule: string): string[] {
  const setting = c.setting;
  if (setting === null) return [];
  return c.findings.filter((f) => f.rule === rule).map((f) => `${findingLabel(f, setting)}: ${f.why}`);
}

describe('a stdio tee between the SDK v2 client and server (stdio-sdk-v2-tee.log)', () => {
  const name = 'stdio-sdk-v2-tee.log';

  test('is a stdio log on stdio at 2025-11-25, with the frames the tee wrote, in order, and its own lines as notes', async () => {
    const c = await check(name);
    assert.equal(c.problem, null);
    assert.equal(c.format, 'stdio-log');
    assert.deepEqual(c.setting, { revision: '2025-11-25', transport: 'stdio', from: { revision: 'the trace', transport: 'the trace' } });
    // capture-stdio.ts printed: 10 frames (7 client to server, 3 server to client), 2 notes.
    assert.deepEqual(countDirs(frames(c)), { c2s: 7, s2c: 3 });
    const lines = (await fixtureText(name)).trimEnd().split('\n');
    const written = lines.flatMap((l) => {
      const m = /^\S+ ([<>]) (.*)$/.exec(l);
      return m ? [{ dir: m[1] === '>' ? 'c2s' : 's2c', raw: `${m[2]}\n` }] : [];
    });
    assert.deepEqual(frames(c).map((f) => ({ dir: f.dir, raw: f.raw })), written);
    const notes = c.trace.filter((e) => e.kind === 'observed' && e.what === 'note').map((e) => (e.kind === 'observed' ? e.text : ''));
    assert.equal(notes.length, 2);
    assert.match(notes[0] ?? '', /tee: started node tests\/fixtures\/servers\/v2-stdio\.ts/);
    assert.match(notes[1] ?? '', /tee: server exited \(code 0\)/);
  });

  test('the cancel in flight gets no response; the cancel that crossed its response is an allowed race, and ignored', async () => {
    const c = await check(name);
    assert.equal(c.exitCode, 0);
    assert.deepEqual(verdicts(c, 'CANCEL-NO-RESPONSE'), [
      'satisfied: The server sent no response to request 1 after the cancel (frame 4) reached it.',
      'satisfied: The server sent no response to request 2 after the cancel (frame 7) reached it.',
    ]);
    const inProgress = verdicts(c, 'CANCEL-REF-INPROGRESS');
    assert.ok(inProgress.includes('satisfied: When the client wrote the cancel in frame 4, request 1 had no response yet.'), inProgress.join('\n'));
    assert.ok(inProgress.some((v) => /^allowed race: The response to request 2 \(frame 6\) was still on the wire when the client wrote the cancel.*\(race R1\)/.test(v)), inProgress.join('\n'));
    assert.deepEqual(verdicts(c, 'CANCEL-INVALID-IGNORE'), ['satisfied: The cancel in frame 7 names request 2, already answered (frame 6), and the server ignored it.']);
    // What a log taken outside the sides cannot show is said so, not guessed.
    assert.match(verdicts(c, 'CANCEL-RECV-STOP')[0] ?? '', /^can’t tell: Can’t tell from this trace/);
  });
});

describe('cancel-lab probe --trace of the SDK v2 stdio server (probe-sdk-v2-stdio.jsonl)', () => {
  const name = 'probe-sdk-v2-stdio.jsonl';

  test('is the lab’s trace, recorded at the probe’s client, with the frames capture-probe.ts counted', async () => {
    const c = await check(name, { transport: 'stdio' });
    assert.equal(c.format, 'lab');
    assert.equal(c.outside, true);
    assert.equal(c.setting?.revision, '2025-11-25');
    // capture-probe.ts printed: 73 events, 32 frames (22 client to server, 10 server to client).
    assert.equal(c.trace.length, 73);
    assert.deepEqual(countDirs(frames(c)), { c2s: 22, s2c: 10 });
    assert.equal(frames(c).filter((f) => f.injected === true).length, 3);
  });

  test('its source event names the transport the probe used, which the messages alone do not show', async () => {
    const c = await check(name, { transport: 'stdio' });
    const source = c.trace[0];
    assert.deepEqual(source?.kind === 'observed' && [source.what, source.transport], ['source', 'stdio']);
  });

  test('check takes the transport from the source event, without --transport', async () => {
    const c = await check(name);
    assert.deepEqual(c.setting?.transport, 'stdio');
    assert.equal(c.setting?.from.transport, 'the trace');
  });

  test('its source event names the probe as its recorder, and the lab importer keeps it', async () => {
    const c = await check(name);
    const source = c.trace[0];
    assert.equal(source?.kind === 'observed' && source.recorder, 'cancel-lab probe');
  });

  test('the server keeps every cancel rule; the probe’s own forged cancels are set aside, saying why: exit 0', async () => {
    const c = await check(name);
    assert.equal(c.exitCode, 0);
    const byFrame = new Map(frames(c).map((f) => [f.seq, f]));
    assert.deepEqual(c.findings.filter((f) => f.verdict === 'violated' && f.severity === 'error'), []);
    for (const rule of ['CANCEL-REF-ISSUED', 'CANCEL-REF-INPROGRESS']) {
      const aside = c.findings.filter((f) => f.rule === rule && f.witnesses.some((w) => byFrame.get(w)?.injected === true));
      assert.ok(aside.length > 0, rule);
      for (const f of aside) {
        assert.equal(f.verdict, 'not-applicable', `${rule}: ${f.why}`);
        assert.match(f.why, /^The probe wrote this cancel on purpose, to see what the server does with it; the rule judges the sender, not the server\. \(/);
      }
    }
    assert.ok(verdicts(c, 'CANCEL-REF-ISSUED').some((v) => /^not applicable: The probe wrote this cancel on purpose.*names 987654321/.test(v)));
    // The SDK client's own cancels are still judged, and keep the rules.
    const sdk = c.findings.filter((f) => f.rule === 'CANCEL-REF-ISSUED' && f.witnesses.every((w) => byFrame.get(w)?.injected !== true));
    assert.ok(sdk.length > 0 && sdk.every((f) => f.verdict === 'satisfied'), JSON.stringify(sdk));
    const server = ['CANCEL-NO-RESPONSE', 'CANCEL-INVALID-IGNORE', 'NOTIFICATION-NO-RESPONSE', 'STDIO-FRAMING', 'ID-UNIQUE'];
    for (const rule of server) {
      const found = verdicts(c, rule);
      assert.ok(found.length > 0 && found.every((v) => v.startsWith('satisfied')), `${rule}: ${found.join('\n')}`);
    }
  });

  test('the same trace without its recorder is judged as any client’s: the forged cancels break the two MUSTs', async () => {
    const text = (await fixtureText(name)).replace('"recorder":"cancel-lab probe",', '');
    assert.ok(!text.includes('"recorder"'));
    const dir = await mkdtemp(join(tmpdir(), 'probe-trace-'));
    try {
      await writeFile(join(dir, name), text);
      const c = await checkTraceFile(join(dir, name));
      assert.equal(c.exitCode, 1);
      const broken = c.findings.filter((f) => f.verdict === 'violated' && f.severity === 'error');
      assert.deepEqual([...new Set(broken.map((f) => f.rule))].sort(), ['CANCEL-REF-INPROGRESS', 'CANCEL-REF-ISSUED']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a HAR Chromium recorded through Playwright (har-chromium-streamable-http.har)', () => {
  const name = 'har-chromium-streamable-http.har';

  test('is a HAR on Streamable HTTP at 2025-11-25 (the session header and the version header), one HTTP stream per entry', async () => {
    const c = await check(name);
    assert.equal(c.format, 'har');
    assert.deepEqual(c.setting, { revision: '2025-11-25', transport: 'streamable-http', from: { revision: 'the trace', transport: 'the trace' } });
    // capture-har.ts printed 6 entries: POST initialize → 200 SSE (1 event, Mcp-Session-Id), POST
    // notifications/initialized → 202, POST tools/call → -1 (aborted), POST notifications/cancelled
    // → 202, POST tools/call → 200 SSE (1 event), DELETE → 200.
    const requests = frames(c).filter((f) => f.http?.part === 'request');
    assert.deepEqual(
      requests.map((f) => `${f.http?.method} ${f.msg?.method ?? '-'}`),
      ['POST initialize', 'POST notifications/initialized', 'POST tools/call', 'POST notifications/cancelled', 'POST tools/call', 'DELETE -'],
    );
    assert.ok(requests.every((f) => f.dir === 'c2s'));
    const session = requests[1]?.http?.headers?.['mcp-session-id'];
    assert.match(session ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(requests.slice(1).every((f) => f.http?.headers?.['mcp-session-id'] === session));
    const heads = frames(c).filter((f) => f.http?.part === 'response-head');
    assert.equal(heads[0]?.http?.headers?.['mcp-session-id'], session);
    const chunks = frames(c).filter((f) => f.http?.part === 'chunk');
    assert.deepEqual(chunks.map((f) => [f.dir, f.msg?.id]), [
      ['s2c', 0],
      ['s2c', 2],
    ]);
  });

  test('the cancel POST is judged: the server answers it 202 and writes no response for the cancelled call', async () => {
    const c = await check(name);
    assert.equal(c.exitCode, 0);
    const cancel = frames(c).find((f) => f.msg?.method === 'notifications/cancelled')?.frame;
    assert.deepEqual(verdicts(c, 'CANCEL-NO-RESPONSE'), [`satisfied: The server sent no response to request 1 after the cancel (frame ${cancel}) reached it.`]);
    assert.ok(verdicts(c, 'HTTP-NOTIFICATION-202').includes('satisfied: The server answered the POST of notifications/cancelled with 202 Accepted and no body.'));
    assert.deepEqual(verdicts(c, 'CANCEL-REF-INPROGRESS'), [`satisfied: When the client wrote the cancel in frame ${cancel}, request 1 had no response yet.`]);
  });

  test('the fetch the page aborted is the client’s abort, not a response', async () => {
    const c = await check(name);
    const call = frames(c).filter((f) => f.http?.stream === 3);
    assert.deepEqual(call.map((f) => `${f.dir} ${f.http?.part}`), ['c2s request', 'c2s abort']);
  });
});
