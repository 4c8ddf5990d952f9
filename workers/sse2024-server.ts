/**
 * The 2024-11-05 HTTP+SSE transport, server end, around the real `McpServer` (the v2 SDK no
 * longer ships one). It follows 2024-11-05 basic/transports.mdx: a GET opens the SSE stream and
 * gets an `endpoint` event naming the POST URL; every client message is POSTed there and
 * answered 202; every server message is an SSE `message` event on the one stream.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { sseEvent } from '../src/trace/index.ts';

const encoder = new TextEncoder();

export class Sse2024ServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly sessionId = 'sse-session-1';
  private events: ReadableStreamDefaultController<Uint8Array> | null = null;

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.events) throw new Error('no SSE stream is open');
    this.events.enqueue(encoder.encode(sseEvent('message', JSON.stringify(message))));
  }

  async close(): Promise<void> {
    this.events?.close();
    this.events = null;
    this.onclose?.();
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/sse') return this.openStream();
    if (request.method === 'POST' && url.pathname === '/messages') {
      if (url.searchParams.get('sessionId') !== this.sessionId) return new Response('Unknown session', { status: 404 });
      let message: JSONRPCMessage;
      try {
        message = JSON.parse(await request.text()) as JSONRPCMessage;
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        return new Response('Invalid JSON', { status: 400 });
      }
      this.onmessage?.(message);
      return new Response(null, { status: 202 });
    }
    return new Response('Not found', { status: 404 });
  }

  private openStream(): Response {
    if (this.events) return new Response('SSE stream already open', { status: 409 });
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.events = controller;
        controller.enqueue(encoder.encode(sseEvent('endpoint', `/messages?sessionId=${this.sessionId}`)));
      },
      cancel: () => {
        // The client went away: that ends the connection.
        this.events = null;
        this.onclose?.();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
  }
}
