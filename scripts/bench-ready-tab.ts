/**
 * The playground's first visit as a user makes it: a new tab in a browser that is already
 * running, with nothing cached. bench.ts's own first-visit row opens each load in a new
 * Playwright browser context, which is a new profile, and Chromium loads a page in a new profile
 * slower (the floor too) even with nothing attached (bench.ts's row says by how much). This one
 * starts Chromium itself and speaks the DevTools protocol over its pipe, because a Playwright
 * connection attaches to every page and worker it sees (and holds each new one until it has
 * set it up), which is what this figure must leave out. The client is the few lines the
 * protocol needs: send a command, await its answer.
 *
 * Each load: the HTTP cache (and with it V8's code cache) is cleared from a control tab, the
 * page opens in a new tab that nothing is attached to, and only once it has recorded its
 * figure does the bench attach to read it. Loads alternate with the floor page's. A return
 * visit keeps the caches: the page is opened twice, untimed, and the third visit is timed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A DevTools protocol connection over Chromium's --remote-debugging-pipe (fd 3 in, fd 4 out, messages NUL-ended). */
class PipeSession {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private buffered = '';
  private readonly toBrowser: Writable;

  constructor(toBrowser: Writable, fromBrowser: Readable) {
    this.toBrowser = toBrowser;
    // A browser gone (closed, or crashed) fails what waits on it rather than the process (EPIPE).
    toBrowser.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    });
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\0'); end !== -1; end = this.buffered.indexOf('\0')) {
        const reply = JSON.parse(this.buffered.slice(0, end)) as Reply;
        this.buffered = this.buffered.slice(end + 1);
        const waiter = reply.id === undefined ? undefined : this.waiting.get(reply.id);
        if (waiter === undefined || reply.id === undefined) continue; // an event: none is listened to
        this.waiting.delete(reply.id);
        if (reply.error !== undefined) waiter.reject(new Error(reply.error.message));
        else waiter.resolve(reply.result ?? {});
      }
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    });
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Opens `url` in a new tab of the running browser, waits, then attaches to read `expression`
 * (a number the page records once ready); closes the tab. Throws after `timeoutMs` without one.
 */
async function visit(cdp: PipeSession, control: string, url: string, expression: string, timeoutMs: number, keepCaches: boolean): Promise<number> {
  if (!keepCaches) await cdp.send('Network.clearBrowserCache', {}, control);
  const { targetId } = (await cdp.send('Target.createTarget', { url })) as { targetId: string };
  try {
    // Nothing is attached while the page loads; ready comes well inside a second here.
    await sleep(1_000);
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(100)) {
      const { result } = (await cdp.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as { result: { value?: unknown } };
      if (typeof result.value === 'number') return result.value;
    }
    throw new Error(`${url} did not record its figure within ${timeoutMs} ms`);
  } finally {
    await cdp.send('Target.closeTarget', { targetId });
    // Let the closed tab's renderer go, so that the next tab is not given it.
    await sleep(300);
  }
}

/** A page to visit, and the expression that reads its figure once it has recorded one. */
export interface TabVisit {
  url: string;
  figure: string;
  /** A return visit: timed after two untimed visits, the caches kept (files, and V8's code cache). */
  returning?: boolean;
}

/** Visits before a return visit is timed. */
const EARLIER_VISITS = 2;

/**
 * `loads` first visits of each page, in turn (so that all see the same machine), after one
 * round as a warm-up (Chromium's own first start of things); one array of figures per page.
 */
export async function newTabVisits(executablePath: string, args: readonly string[], pages: readonly TabVisit[], loads: number): Promise<number[][]> {
  const profile = mkdtempSync(join(tmpdir(), 'cancel-lab-bench-profile-'));
  // In a process group of its own, so that its helper processes can be told to go with it (below).
  const browser = spawn(executablePath, [...args, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const cdp = new PipeSession(browser.stdio[3] as Writable, browser.stdio[4] as Readable);
  try {
    const { targetId } = (await cdp.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId: control } = (await cdp.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    await cdp.send('Network.enable', {}, control);
    const figures = pages.map((): number[] => []);
    for (let i = 0; i < loads + 1; i++) {
      for (const [k, { url, figure, returning = false }] of pages.entries()) {
        // A return visit's first earlier visit starts from cleared caches, as a first visit does.
        for (let v = 0; returning && v < EARLIER_VISITS; v++) await visit(cdp, control, url, figure, 30_000, v > 0);
        const value = await visit(cdp, control, url, figure, 30_000, returning);
        if (i > 0) figures[k]?.push(value);
      }
    }
    return figures;
  } finally {
    await closeBrowser(browser, cdp);
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  }
}

/** How long Chromium and its helpers get to shut down, each way, before the next is tried. */
const SHUTDOWN_MS = 5_000;

/** Has every process of the browser's group gone? */
function groupGone(browser: ChildProcess): boolean {
  if (browser.pid === undefined) return true;
  try {
    process.kill(-browser.pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Closes the browser as a user would (Browser.close, so that it writes out its profile and
 * ends its helpers), then, whatever is left of its process group after SHUTDOWN_MS, with
 * SIGTERM and then SIGKILL. Only then is the profile removed: a bench that killed the browser
 * process alone had its network and GPU helpers write their caches into the profile after it had
 * gone, and removing it failed (ENOTEMPTY) after 20 retries.
 */
async function closeBrowser(browser: ChildProcess, cdp: PipeSession): Promise<void> {
  const gone = async (): Promise<boolean> => {
    for (const start = Date.now(); Date.now() - start < SHUTDOWN_MS; await sleep(50)) if (groupGone(browser)) return true;
    return groupGone(browser);
  };
  // Its answer may never come: the browser closes the pipe as it goes.
  void cdp.send('Browser.close').catch(() => undefined);
  if (await gone()) return;
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    if (browser.pid !== undefined) {
      try {
        process.kill(-browser.pid, signal);
      } catch {
        return; // gone meanwhile
      }
    }
    if (await gone()) return;
  }
}
