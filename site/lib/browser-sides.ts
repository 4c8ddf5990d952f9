/**
 * Browser host: both sides in one Web Worker (workers/sides.worker.ts), each driven over its
 * own MessagePort (workers/side-channel.ts). The MCP traffic itself never uses these channels
 * directly: it travels as frames through the coordinator.
 */
import { sideOver, webPort } from '../../workers/side-channel.ts';
import type { Sides } from '../../src/engine/index.ts';
import type { ClientSideApi, ServerSideApi } from '../../src/engine/index.ts';

export interface BrowserSides extends Sides {
  terminate(): void;
}

/** A started sides worker and the page's ends of its two ports. */
export interface SidesWorker {
  worker: Worker;
  client: MessagePort;
  server: MessagePort;
}

declare global {
  interface Window {
    /** The worker the playground page started from its head (playground.astro), until the first session takes it. */
    __cancelLabEarlyWorkers?: SidesWorker;
  }
}

/** The worker the page started early (playground.astro) if no session took it yet, else a new one. */
export function createBrowserSides(): BrowserSides {
  const early = window.__cancelLabEarlyWorkers;
  delete window.__cancelLabEarlyWorkers;
  return wrap(early ?? startSidesWorker(new Worker(new URL('../../workers/sides.worker.ts', import.meta.url), { type: 'module', name: 'mcp-sides' })));
}

/**
 * Hands a fresh sides worker one port per side. The playground's head script does the same
 * inline (it cannot import), so that the worker starts while the page is still being read.
 */
export function startSidesWorker(worker: Worker): SidesWorker {
  const client = new MessageChannel();
  const server = new MessageChannel();
  worker.postMessage({ client: client.port1, server: server.port1 }, [client.port1, server.port1]);
  return { worker, client: client.port2, server: server.port2 };
}

function wrap({ worker, client: clientPort, server: serverPort }: SidesWorker): BrowserSides {
  // The worker answers `batch` too (workers/runtime.ts withBatches).
  const client: Required<ClientSideApi> = sideOver(webPort(clientPort));
  const server: Required<ServerSideApi> = sideOver(webPort(serverPort));
  return {
    client,
    server,
    terminate() {
      worker.terminate();
    },
  };
}
