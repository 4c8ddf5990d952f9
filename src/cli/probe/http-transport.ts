/**
 * The probe's Streamable HTTP transport: the SDK's own StreamableHTTPClientTransport, wrapped so
 * that every message it sends and every one it hands the client is recorded, in order, with
 * its time. What HTTP itself carried (requests, statuses, streams) is not recorded: the probe
 * sees the messages at the client's transport, as a stdio log does.
 */
import { StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { Recorder } from './recorder.ts';

export class RecordingHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly inner: StreamableHTTPClientTransport;
  private readonly recorder: Recorder;

  constructor(url: URL, recorder: Recorder) {
    this.recorder = recorder;
    this.inner = new StreamableHTTPClientTransport(url);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion(version);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message) => {
      this.recorder.read(JSON.stringify(message));
      if (this.recorder.tripped === null) this.onmessage?.(message);
    };
    this.inner.onerror = (error) => {
      this.recorder.note(`client transport error: ${error.message}`);
      this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.recorder.wrote(JSON.stringify(message));
    return this.inner.send(message);
  }

  async close(): Promise<void> {
    // Ends the session on the server (DELETE) when it has one, so a probe leaves nothing behind.
    await this.inner.terminateSession().catch(() => undefined);
    await this.inner.close();
  }
}
