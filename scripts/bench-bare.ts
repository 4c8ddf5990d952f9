/**
 * The floor of issue 17's warm-run aim for `npm run bench`: the standard exchange on the bare SDK,
 * no simulation (bareOnce), in this thread.
 */
import { performance } from 'node:perf_hooks';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer, deserializeMessage, serializeMessage, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';
import { TOOLS } from '../src/scenario/index.ts';

export type StepYield = 'setTimeout' | 'setImmediate';

/**
 * slow_count as in workers/server-side.ts. With stepMs 0, `setTimeout` mode sleeps exactly like
 * the real tool (Node clamps a 0 ms timeout to 1 ms); `setImmediate` mode yields one macrotask
 * instead, so the figure is protocol overhead only.
 */
function sleep(ms: number, mode: StepYield, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (mode === 'setImmediate' && ms === 0) {
      setImmediate(resolve);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** The handler of a registered tool the bare exchange never calls. */
async function unused(): Promise<CallToolResult> {
  throw new Error('the bare exchange calls slow_count only');
}

export interface BareOutcome {
  ms: number;
  progress: number;
  rejected: boolean;
  handlerAborted: boolean | null;
}

/**
 * How the bare exchange is wired: `connect`, the server's `connect` on an InMemoryTransport pair
 * (the floor of issue 17's aim); `stdio-entry`, the way the simulated stdio server is served —
 * the SDK's `serveStdio` entry over that pair, every message written and read with the SDK's
 * stdio framing (serializeMessage, deserializeMessage) — so that the gap between the two is the
 * SDK's own stdio path, and what is left over that is the simulation's.
 */
export type BarePath = 'connect' | 'stdio-entry';

/**
 * Which tools the bare server registers: slow_count alone, or the lab's seven (src/scenario/tools.ts,
 * with their schemas), as the simulated server registers them for every run, on the SDK's stdio
 * entry too: the SDK's own cost of the server the lab runs, which the simulation cannot go below.
 */
export type BareTools = 'slow_count' | 'lab';

type PairTransport = ReturnType<typeof InMemoryTransport.createLinkedPair>[number];

/** `t`, with every message it sends written as a stdio line and read back, as the wire does. */
function framed(t: PairTransport): PairTransport {
  const send = t.send.bind(t);
  t.send = (message: JSONRPCMessage, options) => send(deserializeMessage(serializeMessage(message).replace(/\n$/, '')), options);
  return t;
}

/**
 * One exchange, timed from building the SDK objects until the call has rejected and the handler
 * has returned: initialize, tools/call slow_count {5, 0} with onprogress, abort after the 2nd
 * progress (the SDK sends notifications/cancelled), handler sees it and returns.
 */
export async function bareOnce(mode: StepYield, path: BarePath, tools: BareTools = 'slow_count'): Promise<BareOutcome> {
  const t0 = performance.now();
  let handlerDone: (aborted: boolean) => void = () => {};
  const handlerReturned = new Promise<boolean>((resolve) => (handlerDone = resolve));

  const makeServer = (): McpServer => {
    const server = new McpServer({ name: 'bench-server', version: '0.1.0' }, { supportedProtocolVersions: ['2025-11-25'] });
    server.registerTool(
      'slow_count',
      {
        description: 'Counts to `steps`, one step every `stepMs`, reporting progress; stops when cancelled.',
        inputSchema: z.object({ steps: z.number().int().min(1), stepMs: z.number().int().min(0) }),
      },
      async ({ steps, stepMs }, ctx): Promise<CallToolResult> => {
        const { signal } = ctx.mcpReq;
        const token = ctx.mcpReq._meta?.progressToken;
        try {
          for (let i = 1; i <= steps; i++) {
            await sleep(stepMs, mode, signal);
            if (signal.aborted) return { content: [{ type: 'text', text: `stopped after ${i - 1} of ${steps}` }] };
            if (token !== undefined) {
              await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
            }
          }
          return { content: [{ type: 'text', text: `counted to ${steps}` }] };
        } finally {
          handlerDone(signal.aborted);
        }
      },
    );
    // The lab's other tools, registered in its order with its schemas; a call reaches none of them.
    if (tools === 'lab') for (const tool of TOOLS) if (tool.name !== 'slow_count') server.registerTool(tool.name, { description: tool.summary, inputSchema: tool.input }, unused);
    return server;
  };
  const client = new Client({ name: 'bench-client', version: '0.1.0' }, { supportedProtocolVersions: ['2025-11-25'] });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  let close: () => Promise<void>;
  if (path === 'connect') {
    const server = makeServer();
    await server.connect(serverTransport);
    close = () => server.close();
  } else {
    const handle = serveStdio(makeServer, { transport: framed(serverTransport) });
    close = () => handle.close();
  }
  await client.connect(path === 'connect' ? clientTransport : framed(clientTransport));

  const controller = new AbortController();
  let progress = 0;
  const rejected = await client
    .callTool(
      { name: 'slow_count', arguments: { steps: 5, stepMs: 0 } },
      {
        signal: controller.signal,
        onprogress: () => {
          if (++progress === 2) controller.abort('user pressed Stop');
        },
      },
    )
    .then(
      () => false,
      () => true,
    );
  const handlerAborted = await Promise.race([
    handlerReturned,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000)),
  ]);
  const elapsed = performance.now() - t0;
  await client.close();
  await close();
  return { ms: elapsed, progress, rejected, handlerAborted };
}
