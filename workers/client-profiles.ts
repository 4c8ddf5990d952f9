/**
 * Emulated client profiles: a layer between the real TS SDK v2 Client and its transport that
 * changes only what the emulated client does differently (src/scenario/profiles.ts lists each difference
 * with its sources). The strict host's reconnect policy lives in client-side.ts, on onerror.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { ClientProfile } from '../src/scenario/index.ts';
import type { RequestId } from '../src/trace/index.ts';
import { note } from './runtime.ts';

export class ClientProfileLayer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly hasPerRequestStream?: boolean;
  private readonly inner: Transport;
  private readonly profile: ClientProfile;
  /** Requests this client sent and has not had answered, by id. */
  private readonly outstanding = new Map<RequestId, string>();
  /** The id of the `initialize` request while it is unanswered. */
  private initializeId: RequestId | null = null;
  /** Told the id of the next tools/call that goes out (the call that is being made). */
  private toolCallClaim: ((id: RequestId) => void) | null = null;

  constructor(inner: Transport, profile: ClientProfile) {
    this.inner = inner;
    this.profile = profile;
    if (inner.hasPerRequestStream) this.hasPerRequestStream = true;
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

  async close(): Promise<void> {
    if (this.profile === 'ts-v1' && this.initializeId !== null) {
      // v1's connect timeout runs cancel() for initialize too, before the transport closes.
      const id = this.initializeId;
      this.initializeId = null;
      note({ type: 'emulation', profile: 'ts-v1', what: `connect timed out: v1 also cancels initialize (${JSON.stringify(id)})`, source: 'shared/protocol.ts#L1165-L1180' });
      // The transport may refuse it (over HTTP, a POST before the session exists gets a 400); v1 reports that and closes anyway.
      await this.inner
        .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'McpError: MCP error -32001: Request timed out' } })
        .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
    }
    await this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && 'id' in message && message.id !== undefined) {
      this.outstanding.set(message.id, message.method);
      if (message.method === 'initialize') this.initializeId = message.id;
      if (message.method === 'tools/call') {
        this.toolCallClaim?.(message.id);
        this.toolCallClaim = null;
      }
    }
    if (this.profile === 'ts-v1' && 'method' in message && message.method === 'notifications/cancelled') {
      const params = message.params as { reason?: unknown } | undefined;
      if (params?.reason === 'SdkError: Request timed out') {
        // v1 rejects with McpError(-32001) and sends String(error) of that as the reason.
        params.reason = 'McpError: MCP error -32001: Request timed out';
        note({ type: 'emulation', profile: 'ts-v1', what: 'the timeout cancel carries v1’s McpError text', source: 'shared/protocol.ts#L1165-L1180' });
      }
    }
    if (this.profile === 'py-v1' && 'method' in message && message.method === 'notifications/cancelled') {
      note({ type: 'emulation', profile: 'py-v1-client', what: 'python-sdk 1.x has no code path that sends notifications/cancelled: nothing is written', source: 'shared/session.py#L290-L314' });
      return;
    }
    await this.inner.send(message, options);
  }

  claimNextToolCall(claim: (id: RequestId) => void): void {
    this.toolCallClaim = claim;
  }

  /**
   * Writes a cancel the SDK v2 would not (TS v1: the abort listener outlives the request). As
   * in v1, a transport that can no longer send (closed since) reports to onerror.
   */
  async sendCancel(id: RequestId, reason: string, what: string): Promise<void> {
    note({ type: 'emulation', profile: 'ts-v1', what, source: 'shared/protocol.ts#L1211-L1213' });
    await this.inner
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  /** The client stopped waiting for `id` (Stop or timeout): py-v1 pops its response stream. */
  abandon(id: RequestId): void {
    if (this.profile === 'py-v1') this.outstanding.delete(id);
  }

  private inbound(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      if (message.id === this.initializeId) this.initializeId = null;
      const known = this.outstanding.delete(message.id);
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
