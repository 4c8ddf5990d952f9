/**
 * Browser host: each side in its own Web Worker, driven through Comlink. The MCP traffic
 * itself never uses these channels directly: it travels as frames through the coordinator.
 */
import * as Comlink from 'comlink';
import type { Sides } from '../../src/engine/index.ts';
import type { ClientSideApi, ServerSideApi } from '../../src/engine/index.ts';

export interface BrowserSides extends Sides {
  terminate(): void;
}

export function createBrowserSides(): BrowserSides {
  const clientWorker = new Worker(new URL('../../workers/client.worker.ts', import.meta.url), {
    type: 'module',
    name: 'mcp-client',
  });
  const serverWorker = new Worker(new URL('../../workers/server.worker.ts', import.meta.url), {
    type: 'module',
    name: 'mcp-server',
  });
  const client = Comlink.wrap<ClientSideApi>(clientWorker);
  const server = Comlink.wrap<ServerSideApi>(serverWorker);
  return {
    client,
    server,
    terminate() {
      client[Comlink.releaseProxy]();
      server[Comlink.releaseProxy]();
      clientWorker.terminate();
      serverWorker.terminate();
    },
  };
}
