/**
 * Browser host: both sides in one Web Worker (workers/sides.worker.ts). The playground's run is
 * played there, coordinator and all, and the page drives it over one command port
 * (remote-run.ts); the explorer's lanes keep their coordinator on the page and drive each side
 * over its own MessagePort (workers/side-channel.ts). The MCP traffic itself never uses these
 * channels directly: it travels as frames through the coordinator.
 */
import { sideOver, webPort } from '../../workers/side-channel.ts';
import type { SidesWorkerStart } from '../../workers/sides-start.ts';
import type { RunCommand } from '../../workers/run-service.ts';
import type { ClientSideApi, ServerSideApi, Sides } from '../../src/engine/index.ts';
import { RunChannel } from './remote-run.ts';

export interface BrowserSides extends Sides {
  terminate(): void;
}

/** A sides worker that plays the page's runs, and the page's end of its command port. */
export interface RunWorker {
  worker: Worker;
  run: MessagePort;
  /** The commands the head script already sent on `run` (first-run.ts), if any. */
  sent?: { id: number; command: RunCommand }[];
  /** Set by the head script when the worker failed before the page's code took it. */
  failed?: string;
}

export interface BrowserRunner {
  channel: RunChannel;
  terminate(): void;
}

declare global {
  interface Window {
    /** The worker the playground page started from its head (playground.astro), until the first session takes it. */
    __cancelLabEarlyWorkers?: RunWorker;
  }
}

function sidesWorker(): Worker {
  return new Worker(new URL('../../workers/sides.worker.ts', import.meta.url), { type: 'module', name: 'mcp-sides' });
}

function start(worker: Worker, message: SidesWorkerStart, transfer: Transferable[]): void {
  worker.postMessage(message, transfer);
}

/**
 * Hands a fresh sides worker its command port. The playground's head script does the same
 * inline (it cannot import), so that the worker starts while the page is still being read.
 */
export function startRunWorker(worker: Worker): RunWorker {
  const channel = new MessageChannel();
  start(worker, { run: channel.port1 }, [channel.port1]);
  return { worker, run: channel.port2 };
}

/** The worker the page started early (playground.astro) if no session took it yet, else a new one. */
export function createBrowserRunner(): BrowserRunner {
  const early = window.__cancelLabEarlyWorkers;
  delete window.__cancelLabEarlyWorkers;
  const { worker, run, sent, failed } = early ?? startRunWorker(sidesWorker());
  const channel = new RunChannel(run, sent);
  // A worker that fails to load (or throws at the top) answers nothing: its runs fail, saying why.
  const lost = (why: string): void => channel.fail(new Error(`the sides' worker failed: ${why}`));
  if (failed !== undefined) lost(failed);
  worker.addEventListener('error', (event) => lost(event.message || 'its script did not load'));
  return {
    channel,
    terminate() {
      channel.fail(new Error('the sides were stopped'));
      worker.terminate();
    },
  };
}

/** A fresh worker whose sides a coordinator on the page drives, one port per side (the explorer's lanes). */
export function createBrowserSides(): BrowserSides {
  const worker = sidesWorker();
  const client = new MessageChannel();
  const server = new MessageChannel();
  start(worker, { client: client.port1, server: server.port1 }, [client.port1, server.port1]);
  // The worker answers `batch` too (workers/runtime.ts withBatches).
  const clientSide: Required<ClientSideApi> = sideOver(webPort(client.port2));
  const serverSide: Required<ServerSideApi> = sideOver(webPort(server.port2));
  return {
    client: clientSide,
    server: serverSide,
    terminate() {
      worker.terminate();
    },
  };
}
