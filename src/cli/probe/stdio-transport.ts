/**
 * The probe's stdio transport: it starts the server's command in a process group of its own,
 * hands the SDK client each line of its stdout that is a JSON-RPC message, and records every
 * line written and read. The SDK's own StdioClientTransport is not used because the probe must
 * see what it hides: a line that is not JSON (kept as a note and reported, where the SDK only
 * raises an error), the bytes a flooding server writes, the server's stderr, its exit code; and
 * it must kill the whole process group, whatever the server started, on every way out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { SERVER_EXIT_NOTE } from '../../rules/index.ts';
import type { Recorder } from './recorder.ts';

/** How the server's process ended, once it has. */
export interface Exit {
  t: number;
  code: number | null;
  signal: string | null;
}

/** A line the server wrote to stdout that is not a JSON object: the note it became. */
export const NOT_JSON = 'server stdout, not JSON-RPC:';

/** Between asking a process group to stop and killing it. */
const TERM_GRACE_MS = 500;
/** How long the last of stdout may take to arrive after the process exited. */
const DRAIN_MS = 200;

/** Every process group the probe started and has not yet seen end, so a Ctrl-C can end them all. */
const live = new Set<StdioServer>();

export function killAll(): void {
  for (const server of live) server.kill('SIGKILL');
}

export class StdioServer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | null = null;
  private pending = '';
  /** Set when the process has ended. */
  exit: Exit | null = null;
  private ended: Promise<void> = Promise.resolve();
  /** Set once the probe itself is stopping the server, so its exit is not taken for a crash. */
  private stopping = false;
  private readonly command: string;
  private readonly args: readonly string[];
  private readonly recorder: Recorder;

  constructor(command: string, args: readonly string[], recorder: Recorder) {
    this.command = command;
    this.args = args;
    this.recorder = recorder;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      this.child = child;
      live.add(this);
      this.ended = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        live.delete(this);
        reject(error);
      });
      child.once('spawn', () => resolve());
      child.stdout?.on('data', (chunk: Buffer) => this.stdout(chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') this.recorder.note(`server stderr: ${line}`);
      });
      // A server that exits while the probe writes to it would otherwise throw EPIPE out of the probe.
      child.stdin?.on('error', () => undefined);
      const drained = new Promise<void>((done) => child.stdout?.once('end', () => done()));
      child.once('exit', (code, signal) => {
        this.exit = { t: this.recorder.now(), code, signal };
        const how = code !== null ? `code ${code}` : `signal ${signal ?? '?'}`;
        // What the process wrote just before it exited may still be in the pipe: read it first
        // (but not for ever: a process it started may hold the pipe open).
        void Promise.race([drained, new Promise((done) => setTimeout(done, DRAIN_MS))]).then(() => {
          this.recorder.note(this.stopping ? `server process stopped by the probe (${how})` : `${SERVER_EXIT_NOTE} (${how})`);
          this.onclose?.();
        });
      });
    });
  }

  private stdout(text: string): void {
    this.pending += text;
    if (this.pending.length > 1024 * 1024) {
      // One line longer than a megabyte: the recorder's byte bound counts it; the rest is not a frame.
      this.recorder.read(this.pending);
      this.pending = '';
      return;
    }
    for (let nl = this.pending.indexOf('\n'); nl >= 0; nl = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line.trim() === '') return;
    if (!/^\s*[[{]/.test(line)) {
      this.recorder.stray(`${NOT_JSON} ${line}`, line);
      return;
    }
    this.recorder.read(line);
    if (this.recorder.tripped !== null) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const line = serializeMessage(message);
    this.recorder.wrote(line.replace(/\n$/, ''));
    this.child?.stdin?.write(line);
  }

  /** Signals the whole process group (the server and whatever it started). */
  kill(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      this.child?.kill(signal);
    }
  }

  /** Closes stdin, then stops the process group: TERM, and KILL if it lingers. Resolves when it is gone. */
  async close(): Promise<void> {
    if (this.child === null) return;
    this.stopping = true;
    this.child.stdin?.end();
    this.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), TERM_GRACE_MS);
    await this.ended;
    clearTimeout(timer);
    live.delete(this);
  }
}
