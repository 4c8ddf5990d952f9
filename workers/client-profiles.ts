/**
 * Emulated client profiles: a layer between the real TS SDK v2 Client and its transport that
 * changes only what the emulated client does differently (src/scenario/profiles.ts lists each difference
 * with its sources). The strict host's reconnect policy lives in client-side.ts, on onerror.
 * 'ts-v1' is no emulation but the real v1 client (workers/v1/client-v1.ts).
 */
import { SdkHttpError, type JSONRPCMessage, type Transport, type TransportSendOptions } from '@modelcontextprotocol/client';
import type { ClientProfile } from '../src/scenario/index.ts';
import type { RequestId } from '../src/trace/index.ts';
import { note } from './runtime.ts';

/** What Stop aborts a call's signal with; the SDK v2 rejects the call with it and its cancel carries it. */
export const STOP_REASON = 'user pressed Stop';

/** A timeout in seconds as Python prints a float: 2.0, 0.5. */
function pythonSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? s.toFixed(1) : String(s);
}

/** The profiles this layer serves on the v2 SDK. */
export type V2ClientProfile = Exclude<ClientProfile, 'ts-v1'>;

/** The message of a JSON-RPC error without id that an HTTP 400 carried, or null for any other failure. */
function idlessRefusal(error: unknown): string | null {
  if (!(error instanceof SdkHttpError) || error.status !== 400 || typeof error.data.text !== 'string') return null;
  let body: unknown;
  try {
    body = JSON.parse(error.data.text);
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object' || 'id' in body || !('error' in body)) return null;
  const inner = body.error;
  return inner !== null && typeof inner === 'object' && 'message' in inner && typeof inner.message === 'string' ? inner.message : null;
}

/** rmcp: how one outbound request's wait ends, with its response or with an error. */
interface RmcpWaiter {
  settle(): void;
  fail(error: Error): void;
}

export class ClientProfileLayer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly hasPerRequestStream?: boolean;
  private readonly inner: Transport;
  private readonly profile: V2ClientProfile;
  /** Requests this client sent and has not had answered, by id. */
  private readonly outstanding = new Map<RequestId, string>();
  /** Told the id of the next tools/call that goes out (the call that is being made). */
  private toolCallClaim: ((id: RequestId) => void) | null = null;
  private toolCallTimeoutMs: number | undefined;
  /** py-v2: each tools/call's timeout, for the reason its courtesy cancel gives. */
  private readonly timeouts = new Map<RequestId, number>();
  /** rmcp: how to end each of the client's own requests still waiting for its response (local_responder_pool). */
  private readonly waiters = new Map<RequestId, RmcpWaiter>();
  /** rmcp: the client's own requests whose response waiter a server's cancel removed. */
  private readonly removedWaiters = new Set<RequestId>();
  /** codex: the server's elicitation/create requests shown as forms, not yet answered. */
  private readonly openForms = new Set<RequestId>();
  /** codex: what arrived while a form was open, surfaced once the last form closes. */
  private held: JSONRPCMessage[] = [];
  /** go: why the connection failed for good (go-sdk#1212); once set, nothing more is written or read. */
  private failure: string | null = null;

  constructor(inner: Transport, profile: V2ClientProfile) {
    this.inner = inner;
    this.profile = profile;
    // The Go client cancels by POSTing a notification (cancelCall), never by closing a request's stream.
    if (inner.hasPerRequestStream && profile !== 'go') this.hasPerRequestStream = true;
    inner.onmessage = (message) => this.inbound(message);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // go: jsonrpc2's shuttingDown refuses every write once a write failed; the call is never on the wire.
    if (this.failure !== null) throw new Error(this.failure);
    if ('method' in message && 'id' in message && message.id !== undefined) {
      this.outstanding.set(message.id, message.method);
      if (message.method === 'tools/call') {
        this.toolCallClaim?.(message.id);
        this.toolCallClaim = null;
        if (this.toolCallTimeoutMs !== undefined) this.timeouts.set(message.id, this.toolCallTimeoutMs);
      }
    }
    if (this.profile === 'py-v1' && 'method' in message && message.method === 'notifications/cancelled') {
      note({ type: 'emulation', profile: 'py-v1-client', what: 'python-sdk 1.x has no code path that sends notifications/cancelled: nothing is written', source: 'shared/session.py#L290-L314' });
      return;
    }
    if (this.profile === 'go') return this.goSend(message, options);
    await this.inner.send(this.profile === 'py-v2' ? this.pythonCancel(message) : message, options);
    if (this.profile === 'rmcp' && 'method' in message && 'id' in message && message.id !== undefined) return this.rmcpWaiter(message.id);
    if (this.profile === 'codex' && !('method' in message) && 'id' in message && message.id !== undefined && this.openForms.delete(message.id)) this.surfaceHeld();
  }

  /** codex: the form was dismissed (its answer went out); what the host held back now shows. */
  private surfaceHeld(): void {
    if (this.openForms.size > 0) return;
    const held = this.held;
    this.held = [];
    if (held.length > 0) note({ type: 'emulation', profile: 'codex', what: `the form is dismissed: ${held.length} held message(s) now reach the client`, source: 'openai/codex#40390' });
    for (const message of held) this.deliver(message);
  }

  /**
   * python-sdk 2.x's courtesy cancel (jsonrpc_dispatcher.py _cancel_outbound): the same
   * notification as the SDK's, with the reason Python gives for a timeout or a caller's cancel.
   */
  private pythonCancel(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message || !message.params) return message;
    const requestId = message.params.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return message;
    const timeoutMs = this.timeouts.get(requestId);
    const timedOut = timeoutMs !== undefined && message.params.reason !== STOP_REASON;
    const reason = timedOut ? `timed out after ${pythonSeconds(timeoutMs)}s` : 'caller cancelled';
    note({ type: 'emulation', profile: 'py-v2-client', what: `courtesy cancel for ${JSON.stringify(requestId)}: reason "${reason}"`, source: timedOut ? 'shared/jsonrpc_dispatcher.py#L404-L425' : 'shared/jsonrpc_dispatcher.py#L426-L436' });
    return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
  }

  /**
   * go-sdk v1.7.0 (go-sdk#1212): cancelCall builds the cancel's params without the 2026 `_meta`
   * envelope; a 400 whose JSON-RPC error has no id is no per-call rejection, so Write calls c.fail
   * and jsonrpc2 keeps the error as writeErr: the connection is failed for good.
   */
  private async goSend(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let out = message;
    if ('method' in message && message.method === 'notifications/cancelled' && message.params?._meta !== undefined) {
      out = { ...message, params: Object.fromEntries(Object.entries(message.params).filter(([key]) => key !== '_meta')) };
      note({ type: 'emulation', profile: 'go-client', what: 'cancelCall builds the cancel without the _meta envelope', source: 'mcp/transport.go#L300-L309' });
    }
    try {
      await this.inner.send(out, options);
    } catch (error) {
      const refusal = idlessRefusal(error);
      if (refusal !== null && 'method' in message) {
        this.failure = `client is closing: sending ${JSON.stringify(message.method)}: ${refusal}: Bad Request`;
        note({ type: 'emulation', profile: 'go-client', what: `HTTP 400 with a JSON-RPC error without id: the connection fails for good (${this.failure})`, source: 'mcp/streamable.go#L2306-L2318' });
      }
      throw error;
    }
  }

  claimNextToolCall(claim: (id: RequestId) => void, timeoutMs?: number): void {
    this.toolCallClaim = claim;
    this.toolCallTimeoutMs = timeoutMs;
  }

  /** The call of `id` failed (Stop, a timeout, an error): the python clients pop its response stream, and rmcp's waiter goes. */
  abandon(id: RequestId): void {
    if (this.profile === 'py-v1' || this.profile === 'py-v2') this.outstanding.delete(id);
    this.waiters.get(id)?.settle();
  }

  /**
   * rmcp: the request's responder, as the SDK's send promise. The Protocol does not await the
   * send of a request but rejects the call when it fails, so failing this promise ends the call
   * with rmcp's error, as the responder's Err does for an rmcp caller (service.rs await_response).
   */
  private rmcpWaiter(id: RequestId): Promise<void> {
    return new Promise((resolve, reject) => {
      const end = (): boolean => this.waiters.delete(id);
      this.waiters.set(id, {
        settle: () => {
          if (end()) resolve();
        },
        fail: (error) => {
          if (end()) reject(error);
        },
      });
    });
  }

  private inbound(message: JSONRPCMessage): void {
    // go: Read returns the failure; nothing that arrives afterwards reaches the session.
    if (this.failure !== null) return;
    if (this.profile === 'rmcp' && this.rmcpRoutesCancel(message)) return;
    if (this.profile === 'codex' && this.codexHolds(message)) return;
    this.deliver(message);
  }

  /**
   * rmcp 3.1.4 (rust-sdk#1251): a client takes every peer cancel to its own outbound waiters
   * (service.rs L1600-L1615): the waiter with that id is removed and sent ServiceError::Cancelled,
   * so that call ends, while the server's request, whose token only a server would cancel, runs
   * on. Returns whether the message was taken here.
   */
  private rmcpRoutesCancel(message: JSONRPCMessage): boolean {
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const id = message.params?.requestId;
      if (typeof id !== 'string' && typeof id !== 'number') return false;
      const waiter = this.waiters.get(id);
      note({
        type: 'emulation',
        profile: 'rmcp',
        what: `the server's cancel of its request ${JSON.stringify(id)} is routed to the client's outbound requests: ${waiter ? `the waiter of the client's own request ${JSON.stringify(id)} is removed and sent ServiceError::Cancelled` : 'no waiter has that id'}; the handler of the server's request runs on`,
        source: 'service.rs#L1600-L1615',
      });
      if (waiter) {
        this.removedWaiters.add(id);
        const reason = message.params?.reason;
        waiter.fail(new Error(`ServiceError::Cancelled: task cancelled for reason ${typeof reason === 'string' ? reason : '<unknown>'}`));
      }
      return true;
    }
    if (!('method' in message) && 'id' in message && message.id !== undefined && this.removedWaiters.delete(message.id)) {
      this.outstanding.delete(message.id);
      note({ type: 'emulation', profile: 'rmcp', what: `the response for request ${JSON.stringify(message.id)} finds no waiter (a cancel removed it) and is dropped, without a log line`, source: 'service.rs#L1684-L1697' });
      return true;
    }
    return false;
  }

  /** codex (openai/codex#40390): a cancel of an open form is ignored, and the form hides what comes after it. */
  private codexHolds(message: JSONRPCMessage): boolean {
    if ('method' in message && 'id' in message && message.method === 'elicitation/create') {
      this.openForms.add(message.id);
      return false;
    }
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const id = message.params?.requestId;
      if ((typeof id === 'string' || typeof id === 'number') && this.openForms.has(id)) {
        note({ type: 'emulation', profile: 'codex', what: `the server cancelled elicitation ${JSON.stringify(id)}; the host does not dismiss its form`, source: 'openai/codex#40390' });
        return true;
      }
    }
    if (this.openForms.size > 0 && !('method' in message) && 'id' in message && message.id !== undefined && this.outstanding.get(message.id) === 'tools/call') {
      note({ type: 'emulation', profile: 'codex', what: 'a form is open: the host holds this tool result back', source: 'openai/codex#40390' });
      this.held.push(message);
      return true;
    }
    return false;
  }

  private deliver(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      const known = this.outstanding.delete(message.id);
      this.waiters.get(message.id)?.settle();
      if (!known && this.profile === 'py-v2') {
        // jsonrpc_dispatcher.py _resolve_pending: no waiter for the id.
        note({ type: 'stderr', text: `DEBUG:mcp.shared.jsonrpc_dispatcher:dropping response for unknown/late request id ${JSON.stringify(message.id)}` });
        return;
      }
      if (!known && this.profile === 'py-v1') {
        // session.py: no response stream for the id → RuntimeError to message_handler, which ignores it.
        note({
          type: 'stderr',
          text: `message_handler got exception: RuntimeError: Received response with an unknown request ID: ${JSON.stringify(message)} (ignored by the default handler)`,
        });
        return;
      }
    }
    this.onmessage?.(message);
  }
}
