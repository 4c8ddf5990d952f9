/**
 * Emulated server profiles: a layer between the stdio wire and the real TS SDK v2 server that
 * changes only what the emulated implementation does differently (src/scenario/profiles.ts lists each
 * difference with the upstream lines it follows). For 'ts-v2' the layer passes everything through;
 * 'ts-v1' is no emulation but the real v1 server (workers/v1/server-v1.ts). The Go server's one
 * HTTP part, its 2026-07-28 admission of a notification POST, wraps the SDK's HTTP handler instead.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { ServerProfile } from '../src/scenario/index.ts';
import { note } from './runtime.ts';
import type { HandlerOutcome } from './lab-tools.ts';

type RequestId = string | number;

interface InFlight {
  /** py-v1: RequestResponder._completed — set once a response (the cancel's code-0 error) went out. */
  completed: boolean;
  /** go: the peer cancelled it; the v2 server below writes nothing for it, so the layer answers as Go does. */
  cancelled?: boolean;
}

const PY1_TRACEBACK = (id: RequestId): string =>
  [
    '  + Exception Group Traceback (most recent call last):',
    '  |   File ".../mcp/server/lowlevel/server.py", line 700, in run',
    '  |     async with anyio.create_task_group() as tg:',
    '  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)',
    '  +-+---------------- 1 ----------------',
    '    | Traceback (most recent call last):',
    '    |   File ".../mcp/server/lowlevel/server.py", line 806, in _handle_request',
    '    |     await message.respond(response)',
    '    |   File ".../mcp/shared/session.py", line 129, in respond',
    '    |     assert not self._completed, "Request already responded to"',
    '    | AssertionError: Request already responded to',
    `    +------------------------------------ (request id ${JSON.stringify(id)})`,
  ].join('\n');

function isRequest(m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in m && 'id' in m && m.id !== undefined;
}

function isResponse(m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } {
  return !('method' in m) && 'id' in m;
}

function cancelledId(m: JSONRPCMessage): RequestId | undefined {
  if (!('method' in m) || m.method !== 'notifications/cancelled' || 'id' in m) return undefined;
  const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

export interface ServerLayerHooks {
  /** The emulated process dies: its stdout closes, nothing more leaves it. */
  crash(code: number, reason: string): void;
}

/** The profiles this layer serves on the v2 SDK; `ts-v1` is the real v1 server (workers/v1/). */
export type V2ServerProfile = Exclude<ServerProfile, 'ts-v1'>;

export class ServerProfileLayer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly inner: Transport;
  private readonly profile: V2ServerProfile;
  private readonly hooks: ServerLayerHooks;
  private readonly inFlight = new Map<RequestId, InFlight>();
  /** effect: cancelledRequests, the ids of every cancel, running or not; the next response for one is discarded. */
  private readonly cancelledIds = new Set<RequestId>();

  constructor(inner: Transport, profile: V2ServerProfile, hooks: ServerLayerHooks) {
    this.inner = inner;
    this.profile = profile;
    this.hooks = hooks;
    inner.onmessage = (message) => this.inbound(message);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (isResponse(message)) this.inFlight.delete(message.id);
    if (this.profile === 'effect' && isResponse(message) && this.cancelledIds.delete(message.id)) {
      note({ type: 'emulation', profile: 'effect', what: `the response for ${JSON.stringify(message.id)} is discarded: its id was in cancelledRequests (a cancel that named it before it existed)`, source: 'Effect-TS/effect#7131' });
      return;
    }
    await this.inner.send(message);
  }

  /**
   * Called by the tool wrapper when a handler finishes. `unwound` means it ended because of the
   * cancellation (Python: CancelledError propagated); otherwise it returned a result normally.
   */
  handlerFinished(id: RequestId, unwound: boolean, outcome: HandlerOutcome): void {
    const entry = this.inFlight.get(id);
    this.inFlight.delete(id);
    if (this.profile === 'go' && entry?.cancelled) {
      this.goAnswers(id, outcome);
      return;
    }
    if (this.profile !== 'py-v1' || !entry?.completed) return;
    if (unwound) {
      note({
        type: 'emulation',
        profile: 'py-v1',
        what: `handler for ${JSON.stringify(id)} unwound on CancelledError: "duplicate response suppressed" (PR #1153)`,
        source: 'lowlevel/server.py#L779-L790',
      });
      return;
    }
    // The handler returned normally after cancel() already answered: respond() asserts.
    note({ type: 'stderr', text: PY1_TRACEBACK(id) });
    note({
      type: 'emulation',
      profile: 'py-v1',
      what: `respond() after cancel(): AssertionError escapes the server task group; the process exits with code 1`,
      source: 'shared/session.py#L129',
    });
    this.hooks.crash(1, 'AssertionError: Request already responded to');
  }

  /**
   * go-sdk's processResult writes whatever the handler returned, cancelled or not (the write's
   * context is wrapped in notDone); a tool's plain error becomes an isError result.
   */
  private goAnswers(id: RequestId, outcome: HandlerOutcome): void {
    // The lab's handler stops on its signal; a Go handler returns ctx.Err() there, "context canceled".
    const result = 'text' in outcome ? { content: [{ type: 'text', text: outcome.text }] } : { content: [{ type: 'text', text: 'context canceled' }], isError: true };
    note({ type: 'emulation', profile: 'go', what: `processResult writes the response for cancelled request ${JSON.stringify(id)} (notDone strips the cancellation)`, source: 'internal/jsonrpc2/conn.go#L693-L721' });
    void this.inner.send({ jsonrpc: '2.0', id, result });
  }

  private inbound(message: JSONRPCMessage): void {
    if (isRequest(message)) this.inFlight.set(message.id, { completed: false });
    const cancelled = cancelledId(message);
    if (cancelled !== undefined || ('method' in message && message.method === 'notifications/cancelled')) {
      if (!this.onCancel(message, cancelled)) return;
    }
    if (isResponse(message) && !this.onResponse(message)) return;
    this.onmessage?.(message);
  }

  /** Returns whether the real server should see the cancel. */
  private onCancel(message: JSONRPCMessage, id: RequestId | undefined): boolean {
    switch (this.profile) {
      case 'py-v1': {
        // Exact membership test: "1" does not match 1.
        const entry = id === undefined ? undefined : this.inFlight.get(id);
        if (entry && id !== undefined) {
          entry.completed = true;
          note({
            type: 'emulation',
            profile: 'py-v1',
            what: `RequestResponder.cancel(): cancels the handler's scope and answers ${JSON.stringify(id)} with code 0`,
            source: 'shared/session.py#L138-L151',
          });
          void this.inner.send({ jsonrpc: '2.0', id, error: { code: 0, message: 'Request cancelled' } });
        }
        return true;
      }
      case 'py-v2': {
        // Ids are coerced: a cancel naming "1" reaches request 1.
        if (typeof id === 'string' && /^-?\d+$/.test(id) && this.inFlight.has(Number(id)) && 'params' in message) {
          note({ type: 'emulation', profile: 'py-v2', what: `cancel id "${id}" coerced to ${id}`, source: 'shared/jsonrpc_dispatcher.py#L623-L628' });
          (message.params as { requestId: RequestId }).requestId = Number(id);
        }
        return true;
      }
      case 'effect': {
        // A running request's own (interrupted) exit takes its id back out, and the v2 server
        // below writes nothing for it; an id nobody is running stays in the set.
        if (id !== undefined && !this.inFlight.has(id)) {
          this.cancelledIds.add(id);
          note({ type: 'emulation', profile: 'effect', what: `cancel for ${JSON.stringify(id)}, which is not running: its id is kept in cancelledRequests`, source: 'Effect-TS/effect#7131' });
        }
        return true;
      }
      case 'go': {
        const entry = id === undefined ? undefined : this.inFlight.get(id);
        if (entry) entry.cancelled = true;
        return true;
      }
      case 'ts-v2':
        return true;
    }
  }

  /** Returns whether the real server should see a response the client sent. */
  private onResponse(message: JSONRPCMessage & { id: RequestId }): boolean {
    const json = JSON.stringify(message);
    switch (this.profile) {
      case 'py-v1':
        note({ type: 'stderr', text: `ERROR:mcp.server.lowlevel.server:Received exception from stream: Received response with an unknown request ID: ${json}` });
        note({ type: 'emulation', profile: 'py-v1', what: 'unknown response id → notifications/message "Internal Server Error"', source: 'server/lowlevel/server.py#L712-L720' });
        void this.inner.send({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'error', logger: 'mcp.server.exception_handler', data: 'Internal Server Error' },
        });
        return false;
      case 'py-v2':
        note({ type: 'stderr', text: `DEBUG:mcp.shared.jsonrpc_dispatcher:dropping response for unknown/late request id ${JSON.stringify(message.id)}` });
        return false;
      default:
        return true;
    }
  }
}

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** A single notifications/cancelled whose params carry no 2026 `_meta` protocol version. */
function isMetaLessCancel(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  if (!('method' in body) || body.method !== 'notifications/cancelled' || 'id' in body) return false;
  const params = 'params' in body ? body.params : undefined;
  const meta = params !== null && typeof params === 'object' && '_meta' in params ? params._meta : undefined;
  return meta === null || typeof meta !== 'object' || !(PROTOCOL_VERSION_META in meta);
}

/**
 * The Go SDK's 2026-07-28 Streamable HTTP admission of a notification POST (go-sdk #1212): a
 * notifications/cancelled without the `_meta` envelope is refused with HTTP 400, and since it
 * answers a notification, its JSON-RPC error has no id. Everything else reaches the real server.
 */
export function goNotificationAdmission(serve: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return serve(request);
    let body: unknown;
    try {
      body = JSON.parse(await request.clone().text());
    } catch {
      return serve(request);
    }
    if (!isMetaLessCancel(body)) return serve(request);
    note({ type: 'emulation', profile: 'go', what: 'a notifications/cancelled without the _meta envelope: HTTP 400, a JSON-RPC error without id', source: 'go-sdk#1212' });
    const error = { jsonrpc: '2.0', error: { code: -32602, message: `missing or invalid _meta field "${PROTOCOL_VERSION_META}"` } };
    return new Response(JSON.stringify(error), { status: 400, headers: { 'content-type': 'application/json' } });
  };
}

