/**
 * The playground's tools, written once for both SDK lines: v2's `McpServer` (server-side.ts) and
 * the real v1 `McpServer` (v1/server-v1.ts) each hand a call over as a `ToolRequest`, so a tool
 * does the same on either and the trace shows what the handler did: started, saw the
 * cancellation, returned or threw. Whether a response followed is read off the wire.
 */
import type * as z from 'zod/v4';
import type { AskRequest, TOOL_INPUT, ToolName, ToolSpec } from '../src/scenario/index.ts';
import type { RequestId } from '../src/trace/index.ts';
import { note } from './runtime.ts';

/** One call as the tool sees it, whichever SDK runs it. */
export interface ToolRequest {
  id: RequestId;
  signal: AbortSignal;
  /** The call's progress token, when the client asked for progress. */
  progressToken: string | number | undefined;
  /** Sends `notifications/progress` for this call the way the SDK's handler context does. */
  notifyProgress(params: { progressToken: string | number; progress: number; total: number }): Promise<void>;
  /**
   * Sends the client a request related to this call and resolves with its answer (ask_client);
   * absent where the lab does not send server-to-client requests (the v1 server: the scenario
   * layer refuses ask_client there).
   */
  askClient?(request: AskRequest, signal: AbortSignal): Promise<unknown>;
}

// A type alias, not an interface: both SDKs' CallToolResult have an index signature.
export type TextResult = { content: { type: 'text'; text: string }[] };

export type ToolArgs<N extends ToolName> = z.output<(typeof TOOL_INPUT)[N]>;

/** Thrown by a handler that stops because it was cancelled (Python's CancelledError, in spirit). */
class Cancelled extends Error {
  constructor(reason: unknown) {
    super(`cancelled: ${String(reason)}`);
    this.name = 'Cancelled';
  }
}

/**
 * Resolves after `ms` of virtual time, or as soon as `signal` aborts when one is given. The
 * abort listener goes when the time is up: slow_count sleeps once per step on the call's one
 * signal, and listeners left behind piled up, one per step, on a list that each new one is
 * compared against (in a Chrome profile of 2,000 steps, addEventListener was 5% of the worker).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const aborted = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** background_job's work, whether a plain call runs it or v1 runs it as a task (v1/background-job.ts): it never reads a cancellation. */
export async function backgroundWork(ms: number): Promise<string> {
  await sleep(ms);
  return `background work done after ${ms} ms`;
}

const TOOL_BODIES: { [N in ToolName]: (args: ToolArgs<N>, req: ToolRequest) => Promise<string> } = {
  async slow_count({ steps, stepMs, onCancel }, { signal, progressToken, notifyProgress }) {
    // "ignore": the signal is never read, so the count and its progress go on after a cancel.
    const listening = onCancel !== 'ignore';
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs, listening ? signal : undefined);
      if (listening && signal.aborted) throw new Cancelled(signal.reason);
      if (progressToken !== undefined) {
        // Progress is best effort: a notification the transport can no longer send (the
        // older of two handlers for a duplicated request has no stream or connection left)
        // is reported, and the count goes on; the lab's tools throw only once cancelled.
        await notifyProgress({ progressToken, progress: i, total: steps }).catch((error: unknown) => note({ type: 'server-onerror', message: `progress ${i} not sent: ${String(error)}` }));
      }
    }
    return `counted to ${steps}`;
  },
  async stubborn({ ms }) {
    await sleep(ms);
    return `done after ${ms} ms`;
  },
  async ledger_write({ key, value, commitAfterMs, totalMs }, { id, signal }) {
    await sleep(commitAfterMs, signal);
    if (signal.aborted) throw new Cancelled(signal.reason);
    note({ type: 'ledger-commit', requestId: id, key, value });
    await sleep(Math.max(0, totalMs - commitAfterMs), signal);
    if (signal.aborted) throw new Cancelled(signal.reason);
    return `committed ${key}=${value}`;
  },
  async work({ ms, onCancel, unwindMs }, { signal }) {
    if (onCancel === 'ignore') {
      await sleep(ms);
      return `finished ${ms} ms of work`;
    }
    await sleep(ms, signal);
    if (!signal.aborted) return `finished ${ms} ms of work`;
    switch (onCancel) {
      case 'observe':
        throw new Cancelled(signal.reason);
      case 'swallow':
        return 'caught the cancellation and returned anyway';
      case 'shield':
        await sleep(unwindMs);
        throw new Cancelled(signal.reason);
    }
  },
  async quick() {
    return 'quick answer';
  },
  async ask_client({ request, afterMs, then, cancelAfterMs }, { id, signal, askClient }) {
    if (!askClient) throw new Error('ask_client: this server sends the client no requests');
    await sleep(afterMs, signal);
    if (signal.aborted) throw new Cancelled(signal.reason);
    // Its own controller, not the call's signal: what the SDK does with the request when the
    // call is cancelled is what the lab shows.
    const own = new AbortController();
    const timer = then === 'cancel' ? setTimeout(() => own.abort('the server stopped waiting'), cancelAfterMs) : undefined;
    note({ type: 'asked-client', requestId: id, method: request });
    try {
      const answer = await askClient(request, own.signal);
      note({ type: 'client-answered', requestId: id, method: request, outcome: 'result' });
      return `the client answered ${request}: ${JSON.stringify(answer)}`;
    } catch (error) {
      note({ type: 'client-answered', requestId: id, method: request, outcome: 'error', message: String(error) });
      if (signal.aborted) throw new Cancelled(signal.reason);
      return `${request} ended without an answer: ${String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  },
  // Called plainly, the work is the call: it runs to its end whatever the client does.
  background_job: ({ ms }) => backgroundWork(ms),
};

/** What a handler ended with: the text of its result, or the error it threw. */
export type HandlerOutcome = { text: string } | { error: string };

/**
 * Told when a handler finishes: `unwound` means it ended because of the cancellation (Python:
 * CancelledError propagated); otherwise it returned a result normally.
 */
export type HandlerFinished = (id: RequestId, unwound: boolean, outcome: HandlerOutcome) => void;

/** Runs tool `name` for one call, noting what the handler does. */
export async function runTool<N extends ToolName>(name: N, args: ToolArgs<N>, req: ToolRequest, finished?: HandlerFinished): Promise<TextResult> {
  const { id, signal } = req;
  note({ type: 'handler-started', requestId: id, tool: name });
  const seen = (): void => note({ type: 'handler-cancel-seen', requestId: id, reason: String(signal.reason) });
  // A cancel that rode in the same batch as its request aborts the signal before the handler runs.
  if (signal.aborted) seen();
  else signal.addEventListener('abort', seen, { once: true });
  const body: (args: ToolArgs<N>, req: ToolRequest) => Promise<string> = TOOL_BODIES[name];
  try {
    const text = await body(args, req);
    note({ type: 'handler-returned', requestId: id, aborted: signal.aborted });
    finished?.(id, false, { text });
    return { content: [{ type: 'text', text }] };
  } catch (error) {
    note({ type: 'handler-threw', requestId: id, aborted: signal.aborted, message: String(error) });
    finished?.(id, error instanceof Cancelled, { error: String(error) });
    throw error;
  }
}

/** How a tool is registered: the summary and the argument schema src/scenario/tools.ts gives it. */
export function registration(tool: ToolSpec): { description: string; inputSchema: ToolSpec['input'] } {
  return { description: tool.summary, inputSchema: tool.input };
}
