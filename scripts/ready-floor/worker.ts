// The floor under the playground's time to ready: a Web Worker that loads only the official
// client and server packages and connects them over the SDK's own in-memory pair (initialize,
// initialized), with one tool registered, then says so. No engine, no simulated wire, no page.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const server = new McpServer({ name: 'floor-server', version: '0.1.0' });
server.registerTool('slow_count', { description: 'Counts.', inputSchema: z.object({ steps: z.number().int().min(1) }) }, ({ steps }) => ({
  content: [{ type: 'text', text: `counted to ${steps}` }],
}));
const client = new Client({ name: 'floor-client', version: '0.1.0' });
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
await client.connect(clientTransport);
self.postMessage('connected');
