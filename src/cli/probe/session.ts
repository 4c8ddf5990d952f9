/**
 * One probe session: the real SDK client (@modelcontextprotocol/client) connected to the server
 * under test over a recording transport, and the bounded steps the checks are made of. Every
 * step has a timeout and ends early when the server goes (its process exits, the connection
 * closes, a flood trips the recorder): a step never waits for ever.
 */
import { Client } from '@modelcontextprotocol/client';
import { RecordingHttpTransport } from './http-transport.ts';
import { Recorder } from './recorder.ts';
import { StdioServer, type Exit } from './stdio-transport.ts';
import { grouped } from '../../trace/index.ts';

export type Target = { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: URL };

/** Why the server can take no more checks. */
export interface Gone {
  t: number;
  why: string;
  exit?: Exit;
  flood?: true;
}

/** How a call ended. */
export type Settled = { ok: true; t: number; text: string } | { ok: false; t: number; error: string; code?: number };

/** A step that ran past its timeout, or the server went during it. */
export class StepFailed extends Error {
  readonly gone: Gone | null;
  constructor(message: string, gone: Gone | null) {
    super(message);
    this.gone = gone;
  }
}

export const CONNECT_TIMEOUT_MS = 10_000;

export function describe(target: Target): string {
  return target.kind === 'http' ? target.url.href : [target.command, ...target.args].join(' ');
}

function errorText(error: unknown): { error: string; code?: number } {
  const message = error instanceof Error ? error.message : String(error);
  const code = error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'number' ? error.code : undefined;
  return { error: message, ...(code !== undefined && { code }) };
}

export class Session {
  readonly recorder = new Recorder();
  readonly client = new Client({ name: 'cancel-lab-probe', version: '0.1.0' });
  private readonly transport: StdioServer | RecordingHttpTransport;
  private gone: Gone | null = null;
  /** The first error the client or its transport reported (a refused connection, for one). */
  firstError: Error | undefined;
  private readonly goneWaiters = new Set<(gone: Gone) => void>();
  readonly target: Target;

  constructor(target: Target) {
    this.target = target;
    this.transport = target.kind === 'stdio' ? new StdioServer(target.command, target.args, this.recorder) : new RecordingHttpTransport(target.url, this.recorder);
    this.recorder.onTrip = (why) => this.leave({ t: this.recorder.now(), why: `it flooded the probe: ${why}`, flood: true });
    this.client.onerror = (error) => {
      this.firstError ??= error;
      this.recorder.note(`client: ${error.message}`);
    };
    this.client.onclose = () => {
      const exit = this.transport instanceof StdioServer ? this.transport.exit : null;
      this.leave(exit ? { t: exit.t, why: `its process exited (${exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? '?'}`})`, exit } : { t: this.recorder.now(), why: 'the connection closed' });
    };
  }

  /** Why the server can take no more checks, once it cannot (a method, so that every read is fresh after an await). */
  went(): Gone | null {
    return this.gone;
  }

  private leave(gone: Gone): void {
    if (this.gone !== null) return;
    this.gone = gone;
    for (const waiter of this.goneWaiters) waiter(gone);
  }

  /** Waits for `work` for at most `ms`; a timeout, or the server going first, is a StepFailed. */
  async step<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waiter: ((gone: Gone) => void) | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StepFailed(`${what} did not finish within ${grouped(ms)} ms`, null)), ms);
      waiter = (gone) => reject(new StepFailed(`the server went during ${what}: ${gone.why}`, gone));
      if (this.gone !== null) waiter(this.gone);
      else this.goneWaiters.add(waiter);
    });
    try {
      return await Promise.race([work, bound]);
    } finally {
      clearTimeout(timer);
      if (waiter) this.goneWaiters.delete(waiter);
    }
  }

  /** Waits `ms` of wall-clock time, or less when the server goes. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiter = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.goneWaiters.delete(waiter);
        resolve();
      }, ms);
      if (this.gone !== null) waiter();
      else this.goneWaiters.add(waiter);
    });
  }

  connect(bound: number): Promise<void> {
    return this.step('the handshake', bound, this.client.connect(this.transport, { timeout: bound }));
  }

  /**
   * Starts a call of the tool; the promise settles with how it ended (never rejects). The
   * request's id is read off the wire once the SDK has written it.
   */
  call(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal; timeout: number }): Promise<Settled> {
    return this.client.callTool({ name: tool, arguments: args }, options).then(
      (result): Settled => {
        const content = JSON.stringify(result.content ?? result).slice(0, 200);
        return result.isError === true ? { ok: false, t: this.recorder.now(), error: `the tool reported an error: ${content}` } : { ok: true, t: this.recorder.now(), text: content };
      },
      (error: unknown): Settled => ({ ok: false, t: this.recorder.now(), ...errorText(error) }),
    );
  }

  /** The id of the last tools/call the client wrote, and that frame's index. */
  lastCall(): { id: string | number; frame: number } | null {
    const frames = this.recorder.frames();
    for (let i = frames.length - 1; i >= 0; i--) {
      const msg = frames[i]?.msg;
      if (frames[i]?.dir === 'c2s' && msg?.method === 'tools/call' && (typeof msg.id === 'string' || typeof msg.id === 'number')) return { id: msg.id, frame: i };
    }
    return null;
  }

  /** Sends a `notifications/cancelled` of the probe's own making (the SDK sends one only for a call it aborts). */
  async cancel(requestId: string | number, reason: string): Promise<void> {
    const from = this.recorder.frameTotal;
    await this.client.notification({ method: 'notifications/cancelled', params: { requestId, reason } });
    const frames = this.recorder.frames();
    for (let i = from; i < frames.length; i++) if (frames[i]?.dir === 'c2s' && frames[i]?.msg?.method === 'notifications/cancelled') this.recorder.deliberate.add(i);
  }

  /** Ends the session and everything it started. */
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}
