/**
 * Browser host: each side in its own Web Worker, driven over workers/side-channel.ts. The MCP
 * traffic itself never uses these channels directly: it travels as frames through the coordinator.
 */
import { sideOver, webPort } from '../../workers/side-channel.ts';
import type { Sides } from '../../src/engine/index.ts';
import type { ClientSideApi, ServerSideApi } from '../../src/engine/index.ts';

export interface BrowserSides extends Sides {
  terminate(): void;
}

declare global {
  interface Window {
    /** The workers the playground page started from its head (playground.astro), until the first session takes them. */
    __cancelLabEarlyWorkers?: { client: Worker; server: Worker };
  }
}

/** The workers the page started early (playground.astro) if no session took them yet, else a new pair. */
export function createBrowserSides(): BrowserSides {
  const early = window.__cancelLabEarlyWorkers;
  delete window.__cancelLabEarlyWorkers;
  return wrap(
    early ?? {
      client: new Worker(new URL('../../workers/client.worker.ts', import.meta.url), { type: 'module', name: 'mcp-client' }),
      server: new Worker(new URL('../../workers/server.worker.ts', import.meta.url), { type: 'module', name: 'mcp-server' }),
    },
  );
}

function wrap({ client: clientWorker, server: serverWorker }: { client: Worker; server: Worker }): BrowserSides {
  // The workers answer `batch` too (workers/runtime.ts withBatches).
  const client: Required<ClientSideApi> = sideOver(webPort(clientWorker));
  const server: Required<ServerSideApi> = sideOver(webPort(serverWorker));
  return {
    client,
    server,
    terminate() {
      clientWorker.terminate();
      serverWorker.terminate();
    },
  };
}
