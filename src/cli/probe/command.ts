/**
 * `cancel-lab probe`'s words: its usage, its arguments, and the command itself (main.ts hands
 * it the arguments after `probe`). A Ctrl-C (or a TERM) while it runs kills every server process
 * group it started before the probe exits.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { grouped, serializeTrace } from '../../trace/index.ts';
import { outputFlags, OUTPUT_FLAGS, readFlags, stringFlag } from '../flags.ts';
import type { Format } from '../output.ts';
import { CHECKS, MAX_TOOL_MS, MIN_TOOL_MS, isCheckId, type CheckId } from './battery.ts';
import { probe } from './probe.ts';
import { MAX_BYTES, MAX_FRAMES } from './recorder.ts';
import { renderProbe } from './render.ts';
import { CONNECT_TIMEOUT_MS, type Target } from './session.ts';
import { killAll } from './stdio-transport.ts';

export const PROBE_USAGE = `Usage: cancel-lab probe --tool NAME [--args JSON] [options] -- <command> [args…]
       cancel-lab probe --tool NAME [--args JSON] [options] --url http://127.0.0.1:PORT/mcp

Checks a real MCP server's cancellation handling: starts the command as a stdio server (or
connects to a Streamable HTTP one), connects the real MCP TypeScript SDK client, times the
tool (it must take at least ${MIN_TOOL_MS} ms, a few hundred is best, so that a cancel can reach it
in flight), then runs these checks on calls of it, each followed by a call to see that the
server survived:
${CHECKS.map((c) => `  ${c.id.padEnd(22)} ${c.title}`).join('\n')}
The wire is recorded at the client's transport with wall-clock times and judged by the same
checker as "check"; what the probe sees for itself (a server that a cancel takes down, lines on
stdout that are not JSON) is reported too.

  --tool NAME      the tool to call (required)
  --args JSON      its arguments, a JSON object (default {})
  --only ID,…      run only these checks
  --url URL        a Streamable HTTP server instead of a command
  --timeout MS     the bound on the handshake and on timing the tool (default ${CONNECT_TIMEOUT_MS / 1000} s and ${MAX_TOOL_MS / 1000} s)
  --trace FILE     write the recorded trace (the lab's JSON Lines: the playground's Import
                   panel opens it, and so does cancel-lab check FILE --transport T)
  --format text|json|checks|junit|sarif   as for run (default text)
  --all            text: the trace and every finding, not only the notable ones
  --site URL       the site's address, for the links to the spec's open points

Bounds: the handshake ${CONNECT_TIMEOUT_MS / 1000} s; timing the tool ${MAX_TOOL_MS / 1000} s; each step of a check a few times
the tool's time; ${grouped(MAX_FRAMES)} frames and ${MAX_BYTES / 1048576} MB from the server. The probe always stops
the server's process group, on Ctrl-C too.

Exit status: 0 no MUST / MUST NOT rule violated; 1 one is, or the server never completed the
handshake; 2 bad input (no command, a command that cannot start, nothing at the URL, a tool
that cannot be called or is too fast to race); 3 the probe could not complete (the server hung,
flooded, or went while the tool was timed).`;

export interface ProbeArgs {
  target: Target;
  tool: string;
  args: Record<string, unknown>;
  only?: CheckId[];
  timeoutMs?: number;
  format: Format;
  trace?: string;
  all: boolean;
  site?: string;
}

type Parsed = { ok: true; args: ProbeArgs } | { ok: false; error: string } | { ok: true; info: 'help' };

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : null;
  } catch {
    return null;
  }
}

function onlyList(text: string): CheckId[] | string {
  const ids = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = ids.find((id) => !isCheckId(id));
  if (bad !== undefined || ids.length === 0) return `--only takes check ids separated by commas (${CHECKS.map((c) => c.id).join(', ')})${bad !== undefined ? `, not "${bad}"` : ''}`;
  return ids.filter(isCheckId);
}

export function parseProbeArgs(argv: readonly string[]): Parsed {
  // The server's own command and its arguments follow `--`, untouched by the probe's flags.
  const dash = argv.indexOf('--');
  const own = dash >= 0 ? argv.slice(0, dash) : argv;
  const command = dash >= 0 ? argv.slice(dash + 1) : [];
  const read = readFlags(own, {
    ...OUTPUT_FLAGS,
    tool: { type: 'string' },
    args: { type: 'string' },
    only: { type: 'string' },
    timeout: { type: 'string' },
    url: { type: 'string' },
    trace: { type: 'string' },
  });
  if (!read.ok) return read;
  if (read.help) return { ok: true, info: 'help' };
  const { values } = read;
  const [stray] = read.words;
  if (stray !== undefined) return { ok: false, error: `unexpected "${stray}": put the server's command after --` };
  const output = outputFlags(values);
  if (!output.ok) return output;
  const out: Omit<ProbeArgs, 'target' | 'tool' | 'args'> = { format: output.format, all: values.all === true, ...(output.site !== undefined && { site: output.site }) };
  const argsText = stringFlag(values, 'args');
  const args = argsText === undefined ? {} : jsonObject(argsText);
  if (args === null) return { ok: false, error: '--args takes the tool\'s arguments as a JSON object, such as \'{"ms":1000}\'' };
  const only = stringFlag(values, 'only');
  if (only !== undefined) {
    const list = onlyList(only);
    if (typeof list === 'string') return { ok: false, error: list };
    out.only = list;
  }
  const timeout = stringFlag(values, 'timeout');
  if (timeout !== undefined) {
    const ms = Number(timeout);
    if (!Number.isInteger(ms) || ms < 100 || ms > 600_000) return { ok: false, error: '--timeout takes a whole number of ms, 100 to 600000' };
    out.timeoutMs = ms;
  }
  const trace = stringFlag(values, 'trace');
  if (trace !== undefined) out.trace = trace;
  const tool = stringFlag(values, 'tool');
  if (tool === undefined || tool === '') return { ok: false, error: 'name the tool to call with --tool NAME' };
  const url = stringFlag(values, 'url');
  if (url !== undefined && command.length > 0) return { ok: false, error: 'give either --url or a command after --, not both' };
  if (url !== undefined) {
    if (!/^https?:\/\//.test(url) || !URL.canParse(url)) return { ok: false, error: `--url takes the server's MCP endpoint, http(s)://…, not "${url}"` };
    return { ok: true, args: { ...out, tool, args, target: { kind: 'http', url: new URL(url) } } };
  }
  const [cmd, ...rest] = command;
  if (cmd === undefined) return { ok: false, error: 'no server given: put its command after --, or give --url' };
  return { ok: true, args: { ...out, tool, args, target: { kind: 'stdio', command: cmd, args: rest } } };
}

/** Kills what the probe started when the process is interrupted, then exits as a shell expects (128 + the signal). */
function onInterrupt(): () => void {
  const stop = (code: number) => () => {
    killAll();
    process.exit(code);
  };
  const int = stop(130);
  const term = stop(143);
  process.once('SIGINT', int);
  process.once('SIGTERM', term);
  process.once('exit', killAll);
  return () => {
    process.off('SIGINT', int);
    process.off('SIGTERM', term);
    process.off('exit', killAll);
  };
}

/** The whole command: what to print and the exit code. */
export async function probeCommand(argv: readonly string[], cwd: string = process.cwd()): Promise<{ exitCode: number; stdout: string[]; stderr: string[] }> {
  const parsed = parseProbeArgs(argv);
  if (!parsed.ok) return { exitCode: 2, stdout: [], stderr: [`cancel-lab: ${parsed.error}.`, '', PROBE_USAGE] };
  if ('info' in parsed) return { exitCode: 0, stdout: [PROBE_USAGE], stderr: [] };
  const { target, tool, args, only, timeoutMs, format, trace, all, site } = parsed.args;
  const release = onInterrupt();
  try {
    const probed = await probe({ target, tool, args, ...(only !== undefined && { only }), ...(timeoutMs !== undefined && { timeoutMs }) });
    const printed = renderProbe(probed, format, { all, ...(site !== undefined && { site }), ...(trace !== undefined && probed.trace.length > 0 && { traceFile: trace }) });
    if (trace !== undefined && probed.trace.length > 0) {
      await writeFile(resolve(cwd, trace), `${serializeTrace(probed.trace)}\n`);
      printed.stderr.push(`cancel-lab: wrote the recorded trace to ${trace}.`);
    }
    return { exitCode: probed.exitCode, ...printed };
  } finally {
    release();
  }
}
