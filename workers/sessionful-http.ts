/**
 * The real v2 server over sessionful Streamable HTTP (`WebStandardStreamableHTTPServerTransport`
 * with session ids), as a deployment serves it: one transport per session, a new one for a new
 * `initialize`. Beside serving it does what a scenario's streams steps ask of the server:
 * - resumability (`resumable`): the transport keeps an event store, so its SSE events carry
 *   ids, on 2025-11-25 each POST stream opens with a priming event (and `retry`), and a GET
 *   with `Last-Event-ID` replays what the client missed;
 * - `close-stream`: the transport's own `closeSSEStream(requestId)`, which ends a request's
 *   SSE stream before its response (2025-11-25 polling);
 * - `expire-session`: the transport's `close()`: the session is gone, requests naming it get
 *   the SDK's 404 "Session not found", and a new `initialize` opens a new session; for
 *   `outageMs` every request gets a bare 404, as a reverse proxy with no route answers.
 */
import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import { HttpServerHost } from './http-server.ts';
import { LabEventStore } from './event-store.ts';
import type { ServerAction, SideConfig } from '../src/engine/index.ts';
import type { WireFrame } from '../src/trace/index.ts';

export type StreamsAction = Exclude<ServerAction, { type: 'crash' }>;

/** What a proxy without a route answers (Traefik's words, as claude-code #94273 quotes them). */
const NO_ROUTE_BODY = '404 page not found\n';

export class SessionfulHttp {
  private readonly factory: () => McpServer;
  private readonly config: SideConfig;
  private readonly store: LabEventStore | undefined;
  private sessions = 0;
  private current: WebStandardStreamableHTTPServerTransport;
  /** The transports of expired sessions, by session id: they answer what still names them. */
  private readonly expired = new Map<string, WebStandardStreamableHTTPServerTransport>();
  private outageUntil = -1;
  private readonly host: HttpServerHost;

  constructor(factory: () => McpServer, config: SideConfig) {
    this.factory = factory;
    this.config = config;
    // One store for the server: event ids stay unique across the sessions it serves.
    this.store = config.resumable ? new LabEventStore() : undefined;
    this.current = this.open();
    this.host = new HttpServerHost((request) => this.handle(request));
  }

  receive(frame: WireFrame): void {
    this.host.receive(frame);
  }

  act(action: StreamsAction): void {
    switch (action.type) {
      case 'close-stream':
        this.current.closeSSEStream(action.requestId);
        return;
      case 'expire-session': {
        const gone = this.current;
        if (gone.sessionId !== undefined) this.expired.set(gone.sessionId, gone);
        this.current = this.open();
        void gone.close();
        if (action.outageMs !== undefined) this.outageUntil = Date.now() + action.outageMs;
        return;
      }
    }
  }

  private open(): WebStandardStreamableHTTPServerTransport {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => `session-${++this.sessions}`,
      ...(this.store && { eventStore: this.store }),
      ...(this.config.resumable?.retryMs !== undefined && { retryInterval: this.config.resumable.retryMs }),
    });
    void this.factory().connect(transport);
    return transport;
  }

  private handle(request: Request): Promise<Response> {
    if (Date.now() < this.outageUntil) return Promise.resolve(new Response(NO_ROUTE_BODY, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
    const session = request.headers.get('mcp-session-id');
    const old = session === null ? undefined : this.expired.get(session);
    return (old ?? this.current).handleRequest(request);
  }
}
