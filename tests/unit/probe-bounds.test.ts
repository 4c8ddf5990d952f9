/**
 * `cancel-lab probe`'s bounds: a server that hangs, floods, writes lines that are not JSON, or
 * exits is reported as such with its exit code, and the probe always ends and stops the
 * process it started (a Ctrl-C included). Bad arguments and a tool too fast to race are bad
 * input (exit 2) with a sentence saying why.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProbeArgs } from '../../src/cli/probe/command.ts';
import { MAX_FRAMES } from '../../src/cli/probe/recorder.ts';
import { SLOW, alive, cli, fixture, parseJson, statuses } from './probe-helpers.ts';

/** The fixture's pid, from the stderr note it wrote at start (the probe keeps stderr as notes). */
function fixturePid(events: readonly Record<string, unknown>[]): number {
  const note = events.find((e) => e.kind === 'observed' && /fixture pid \d+/.test(String(e.text)));
  return Number(/fixture pid (\d+)/.exec(String(note?.text))?.[1]);
}

/** A loopback port nothing listens on (one just given up). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address !== null && typeof address === 'object' ? address.port : 0));
    });
  });
}

/** Asserts the process is gone (a killed one may linger a moment as a zombie until init reaps it). */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(pid), false, `process ${pid} is still there`);
}

describe('probe bounds', { concurrency: true }, () => {
  test('a server that never answers the tool: exit 3 after the timeout, and its process is gone', async () => {
    const ran = await cli(['probe', ...SLOW, '--timeout', '1500', '--format', 'json', '--', ...fixture('misbehaving.ts', 'hang')]);
    assert.equal(ran.code, 3, ran.stderr);
    assert.match(ran.stderr, /^cancel-lab: The server hung: timing the tool "slow", timing the tool did not finish within 1,500 ms\.$/m);
    const { events, result } = parseJson(ran.stdout);
    assert.deepEqual(result.checks, []);
    const pid = fixturePid(events);
    assert.ok(pid > 0);
    await gone(pid);
  });

  test('a server that writes lines that are not JSON: kept as notes, reported as STDIO-FRAMING broken (exit 1), the checks still judged', async () => {
    const ran = await cli(['probe', ...SLOW, '--only', 'cancel-in-flight', '--format', 'json', '--', ...fixture('misbehaving.ts', 'garbage')]);
    assert.equal(ran.code, 1, ran.stderr);
    const { events, result } = parseJson(ran.stdout);
    assert.deepEqual(statuses(result), { 'cancel-in-flight': 'pass' });
    const framing = result.findings.find((f) => f.rule === 'STDIO-FRAMING');
    assert.equal(framing?.verdict, 'violated');
    assert.equal(framing?.severity, 'error');
    assert.match(framing?.why ?? '', /the first: "Starting fixture server… \(this line is not JSON\)"/);
    const notes = events.filter((e) => e.kind === 'observed' && String(e.text).startsWith('server stdout, not JSON-RPC:'));
    assert.deepEqual(notes.slice(0, 2).map((n) => n.text), ['server stdout, not JSON-RPC: Starting fixture server… (this line is not JSON)', 'server stdout, not JSON-RPC: INFO tool slow started (300 ms)']);
  });

  test('a command that floods stdout with lines that are not JSON trips the byte bound at once', async () => {
    // Such lines were notes outside the bound: `yes` was read for the handshake's whole 10 s (8 million lines).
    const flood = "const line = 'y\\n'.repeat(65536); (function more() { process.stdout.write(line, more); })();";
    const ran = await cli(['probe', ...SLOW, '--', process.execPath, '-e', flood]);
    assert.match(ran.stderr, /^cancel-lab: The server never completed the handshake: it flooded the probe: the server wrote more than 4 MB\.$/m);
    assert.equal(ran.code, 1, ran.stderr);
  });

  test('a server that exits on the first tool call: exit 3, saying so', async () => {
    const ran = await cli(['probe', ...SLOW, '--', ...fixture('misbehaving.ts', 'exit')]);
    assert.equal(ran.code, 3, ran.stderr);
    assert.match(ran.stderr, /^cancel-lab: The server went while the tool "slow" was being timed: its process exited \(code 3\)\.$/m);
    assert.match(ran.stdout, /^Exit 3: the probe could not complete/m);
  });

  test('a server that floods: recording stops at the frame bound, exit 3, and its process is gone', async () => {
    const ran = await cli(['probe', ...SLOW, '--format', 'json', '--', ...fixture('misbehaving.ts', 'flood')]);
    assert.equal(ran.code, 3, ran.stderr);
    assert.match(ran.stderr, /^cancel-lab: The probe stopped while timing the tool "slow": the server flooded it \(the wire carried 5,000 frames\)\.$/m);
    const { events } = parseJson(ran.stdout);
    assert.equal(events.filter((e) => e.kind === 'frame').length, MAX_FRAMES);
    await gone(fixturePid(events));
  });

  test('a server whose tool speeds up after it is timed: the race is tried three times, aimed earlier each time, then MISSED, not passed', async () => {
    const ran = await cli(['probe', ...SLOW, '--only', 'cancel-races-response', '--', ...fixture('misbehaving.ts', 'hasty')]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^MISSED +Cancel racing the response \(cancel-races-response\)$/m);
    const tries = [...ran.stdout.matchAll(/Try (\d): called the tool \(request \d+\) and aborted it \d+ ms later \(aimed at (\d+)% of its time\), but the response came first \(the call was answered \d+ ms after it was sent\), so the SDK sent no cancel\./g)];
    assert.deepEqual(tries.map((t) => [t[1], t[2]]), [['1', '95'], ['2', '80'], ['3', '60']], ran.stdout);
    assert.match(ran.stdout, /The check missed: the response came first in each of 3 tries, so the race was not reached/);
    assert.match(ran.stdout, /The follow-up call was answered/);
  });

  test('a tool too fast to race: exit 2, with what to do about it', async () => {
    const ran = await cli(['probe', '--tool', 'slow', '--args', '{"ms":5}', '--', ...fixture('v2-stdio.ts')]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, /^cancel-lab: The tool "slow" answered in \d+ ms: too fast to race\. .*at least 200 ms/m);
  });

  test('a command that does not exist, a tool the server lacks, nothing at the URL: exit 2', async () => {
    const port = await freePort();
    const [missing, unknown, nobody] = await Promise.all([
      cli(['probe', ...SLOW, '--', 'no-such-server-command-here']),
      cli(['probe', '--tool', 'nope', '--', ...fixture('v2-stdio.ts')]),
      cli(['probe', ...SLOW, '--url', `http://127.0.0.1:${port}/mcp`]),
    ]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /^cancel-lab: Cannot start "no-such-server-command-here": no such command\.$/m);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /^cancel-lab: The tool "nope" could not be called with \{\}: /m);
    assert.equal(nobody.code, 2, nobody.stderr);
    assert.match(nobody.stderr, new RegExp(`^cancel-lab: Nothing answered at http://127\\.0\\.0\\.1:${port}/mcp \\(ECONNREFUSED\\)\\.$`, 'm'));
  });

  test('Ctrl-C: the probe stops the server it started and exits 130', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-int-'));
    const pidFile = join(dir, 'pid');
    try {
      const bin = fileURLToPath(new URL('../../bin/cancel-lab.mjs', import.meta.url));
      const child = spawn(process.execPath, [bin, 'probe', ...SLOW, '--timeout', '20000', '--', ...fixture('misbehaving.ts', 'hang', pidFile)], { stdio: 'ignore' });
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      let pid = 0;
      for (let i = 0; i < 200 && pid === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
      }
      assert.ok(pid > 0 && alive(pid), 'the server started');
      child.kill('SIGINT');
      assert.equal(await exited, 130);
      await gone(pid);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('probe arguments', () => {
  test('a command after --, or a URL; the tool is required; --args is a JSON object; --only names checks', () => {
    assert.deepEqual(parseProbeArgs(['--tool', 'slow', '--', 'python', '-m', 'server']), {
      ok: true,
      args: { format: 'text', all: false, tool: 'slow', args: {}, target: { kind: 'stdio', command: 'python', args: ['-m', 'server'] } },
    });
    const http = parseProbeArgs(['--tool=slow', '--args', '{"ms":500}', '--url', 'http://127.0.0.1:3000/mcp', '--format', 'sarif']);
    assert.ok(http.ok && 'args' in http);
    assert.equal(http.args.target.kind, 'http');
    assert.deepEqual(http.args.args, { ms: 500 });
    const error = (argv: string[]) => {
      const parsed = parseProbeArgs(argv);
      return parsed.ok ? null : parsed.error;
    };
    assert.equal(error(['--', 'server']), 'name the tool to call with --tool NAME');
    assert.equal(error(['--tool', 'slow']), 'no server given: put its command after --, or give --url');
    assert.equal(error(['--tool', 'slow', '--args', '[1]', '--', 'server']), '--args takes the tool\'s arguments as a JSON object, such as \'{"ms":1000}\'');
    assert.match(error(['--tool', 'slow', '--only', 'cancel-in-flight,nope', '--', 'server']) ?? '', /^--only takes check ids separated by commas \(.*\), not "nope"$/);
    assert.equal(error(['--tool', 'slow', '--url', 'http://x/mcp', '--', 'server']), 'give either --url or a command after --, not both');
    assert.equal(error(['--tool', 'slow', 'server']), 'unexpected "server": put the server\'s command after --');
  });
});
