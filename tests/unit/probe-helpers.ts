/**
 * Running `cancel-lab probe` as a user does (the bin, in a process of its own) against the
 * fixture servers of tests/fixtures/servers/, and reading what it printed.
 */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/cancel-lab.mjs', import.meta.url));

/** The command line of a fixture server, run on this Node. */
export function fixture(name: string, ...args: string[]): string[] {
  return [process.execPath, fileURLToPath(new URL(`../fixtures/servers/${name}`, import.meta.url)), ...args];
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(args: readonly string[], timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The tool every fixture offers, at a duration that races well and keeps the tests short. */
export const SLOW = ['--tool', 'slow', '--args', '{"ms":300}'];

export interface ResultLine {
  probe: string;
  exitCode: number;
  checks: { id: string; status: string; story: string[]; rules: string[] }[];
  findings: { rule: string; severity: string; verdict: string; why: string }[];
  error?: string;
}

/** The probe's --format json output: the trace's events, then its result line. */
export function parseJson(stdout: string): { events: Record<string, unknown>[]; result: ResultLine } {
  const lines = stdout.trimEnd().split('\n');
  const result: ResultLine = JSON.parse(lines.pop() ?? '{}');
  if (!Array.isArray(result.checks)) throw new Error(`no result line in ${stdout.slice(-500)}`);
  return { events: lines.map((l): Record<string, unknown> => JSON.parse(l)), result };
}

export function statuses(result: ResultLine): Record<string, string> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}

/** Starts the Streamable HTTP fixture and resolves with its URL and a stop function. */
export function startHttpFixture(): Promise<{ url: string; stop: () => void }> {
  const [node = process.execPath, ...args] = fixture('v2-http.ts');
  const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (url) => resolve({ url, stop: () => void child.kill('SIGKILL') }));
  });
}

/** Whether a process with this pid is still there. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
