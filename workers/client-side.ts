/**
 * The client side: the real `Client` from the TypeScript SDK v2 over the simulated wire.
 * Stop aborts the call's AbortController; the SDK then sends `notifications/cancelled`.
 */
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  deserializeMessage,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { WireTransport, fireTimerAt, note, resetRun, runAt } from './runtime.ts';
import { WireFetch } from './http-client.ts';
import { SERVER_ORIGIN } from './http-wire.ts';
import type { ClientSideApi, SideConfig, WireFrame } from '../src/side-protocol.ts';

const controllers = new Map<string, AbortController>();
let client: Client | null = null;
let receive: (frame: WireFrame) => void = () => undefined;

/** The SDK's own client transport for the chosen wire, and what takes the frames delivered to it. */
function transportFor(config: SideConfig): Transport {
  if (config.transport === 'stdio') {
    const wire = new WireTransport({ serializeMessage, deserializeMessage });
    receive = (frame) => wire.receive(frame);
    return wire;
  }
  const wireFetch = new WireFetch();
  receive = (frame) => wireFetch.receive(frame);
  if (config.transport === 'http-sse') {
    return new SSEClientTransport(new URL(`${SERVER_ORIGIN}/sse`), {
      fetch: wireFetch.fetch,
      eventSourceInit: { fetch: wireFetch.fetch },
    });
  }
  return new StreamableHTTPClientTransport(new URL(`${SERVER_ORIGIN}/mcp`), { fetch: wireFetch.fetch });
}

function connect(config: SideConfig): void {
  const modern = config.revision === '2026-07-28';
  const c = new Client(
    { name: 'cancel-lab-client', version: '0.1.0' },
    modern ? { versionNegotiation: { mode: { pin: config.revision } } } : { supportedProtocolVersions: [config.revision] },
  );
  // Where the SDK reports a response for an id it no longer waits for (a late result).
  c.onerror = (error) => note({ type: 'client-onerror', message: error.message });
  c.connect(transportFor(config)).then(
    () =>
      note({
        type: 'connected',
        protocolVersion: c.getNegotiatedProtocolVersion() ?? 'unknown',
        era: c.getProtocolEra() ?? 'unknown',
      }),
    (error: unknown) => note({ type: 'client-onerror', message: `connect failed: ${String(error)}` }),
  );
  client = c;
}

function errorCode(error: unknown): string | number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? code : undefined;
}

function call(callId: string, tool: string, args: Record<string, unknown>): void {
  if (!client) throw new Error('client not initialised');
  const controller = new AbortController();
  controllers.set(callId, controller);
  client
    .callTool(
      { name: tool, arguments: args },
      {
        signal: controller.signal,
        onprogress: (p) =>
          note({ type: 'progress-received', call: callId, progress: p.progress, ...(p.total !== undefined && { total: p.total }) }),
      },
    )
    .then(
      (result) => note({ type: 'call-settled', call: callId, outcome: 'result', isError: result.isError === true }),
      (error: unknown) => {
        const code = errorCode(error);
        note({
          type: 'call-settled',
          call: callId,
          outcome: 'error',
          message: error instanceof Error ? error.message : String(error),
          ...(code !== undefined && { code }),
        });
      },
    );
}

export const clientSide: ClientSideApi = {
  init(config) {
    resetRun();
    controllers.clear();
    return runAt(0, () => connect(config));
  },
  deliver(t, frame) {
    return runAt(t, () => receive(frame));
  },
  fireTimer: fireTimerAt,
  act(t, action) {
    return runAt(t, () => {
      if (action.type === 'call') call(action.call, action.tool, action.args);
      else controllers.get(action.call)?.abort('user pressed Stop');
    });
  },
};
