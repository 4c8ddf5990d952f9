/**
 * The server end of HTTP over the simulated wire: each request frame becomes a web-standard
 * `Request` handed to the SDK's handler; its `Response` goes back as a head frame, one frame per
 * body chunk, and an end frame. A client abort aborts the Request's signal and cancels the body,
 * as a real server sees a client disconnect.
 */
import { chunkFrame, endFrame, headersRecord, requestBody, responseHeadFrame, type WireFrame } from '../src/trace/index.ts';
import { note, send } from './runtime.ts';

export type HttpHandler = (request: Request) => Promise<Response>;

interface ServedStream {
  abort: AbortController;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  closedByClient: boolean;
}

const decoder = new TextDecoder();

/** A request body as a stream, so reading it is promise work like everything else here. */
function bodyStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

export class HttpServerHost {
  private readonly streams = new Map<number, ServedStream>();
  private readonly handle: HttpHandler;

  constructor(handle: HttpHandler) {
    this.handle = handle;
  }

  receive(frame: WireFrame): void {
    const http = frame.http;
    if (!http) return;
    if (http.part === 'request') {
      this.serve(http.stream, frame);
      return;
    }
    if (http.part === 'abort') {
      const served = this.streams.get(http.stream);
      if (!served) return;
      served.closedByClient = true;
      served.abort.abort(new DOMException('The client closed the stream', 'AbortError'));
      void served.reader?.cancel('client closed the stream').catch(() => undefined);
    }
  }

  private serve(stream: number, frame: WireFrame): void {
    const http = frame.http;
    if (!http) return;
    const served: ServedStream = { abort: new AbortController(), reader: null, closedByClient: false };
    this.streams.set(stream, served);
    const method = http.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(http.url ?? '', {
      method,
      headers: http.headers ?? {},
      signal: served.abort.signal,
      ...(hasBody && { body: bodyStream(requestBody(frame)), duplex: 'half' }),
    } as RequestInit);
    void this.handle(request).then(
      (response) => this.pump(stream, served, response),
      (error: unknown) => note({ type: 'server-onerror', message: `HTTP handler failed: ${String(error)}` }),
    );
  }

  private async pump(stream: number, served: ServedStream, response: Response): Promise<void> {
    if (served.closedByClient) {
      note({ type: 'frame-dropped', stream, reason: `the handler answered ${response.status} after the client closed the stream` });
      return;
    }
    send(responseHeadFrame(stream, response.status, headersRecord(response.headers)));
    if (response.body) {
      served.reader = response.body.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await served.reader.read();
        } catch {
          break;
        }
        if (chunk.done || served.closedByClient) break;
        send(chunkFrame(stream, decoder.decode(chunk.value, { stream: true })));
      }
    }
    if (!served.closedByClient) send(endFrame(stream));
    this.streams.delete(stream);
  }
}
