/**
 * The strict host's handling of an HTTP 404 (emulated, as anthropics/claude-code #94273 reports
 * it for Claude Code over Streamable HTTP): the host takes any 404 for an expired session and
 * re-initializes once, a new session on the same wire (a new SDK Client and transport; the
 * server is not restarted). If that `initialize` gets a 404 too, the host marks the server lost
 * (ENDPOINT_NOT_FOUND) for the rest of the session: every later call fails at once, without
 * touching the network, although the host still lists the server as connected. The real v2
 * client does neither: it keeps the dead session id and lets each request fail.
 */
import { SdkHttpError } from '@modelcontextprotocol/client';
import { note } from './runtime.ts';

const SOURCE = 'https://github.com/anthropics/claude-code/issues/94273';

/** What the host says for a call to a server it has marked lost (the words, with the lab's server name). */
export const LOST_SERVER_MESSAGE = 'MCP server "cancel-lab-server" is not connected';

const isNotFound = (error: unknown): boolean => error instanceof SdkHttpError && error.status === 404;

export class HostSessions {
  private reinitializing = false;
  private lostServer = false;

  /** The server is marked lost: calls fail before the wire. */
  get lost(): boolean {
    return this.lostServer;
  }

  /** An error the connected client reported: a 404 starts the one re-initialize (`reinitialize`), unless one is under way or the server is lost. */
  onError(error: unknown, reinitialize: () => void): void {
    if (!isNotFound(error) || this.reinitializing || this.lostServer) return;
    this.reinitializing = true;
    note({ type: 'emulation', profile: 'strict-host', what: 'HTTP 404: the host takes the session for expired and re-initializes once', source: SOURCE });
    reinitialize();
  }

  /** The connect of a re-initialize ended: a 404 marks the server lost; anything else ends the episode. */
  onConnectEnded(error: unknown): void {
    if (!this.reinitializing) return;
    this.reinitializing = false;
    if (!isNotFound(error)) return;
    this.lostServer = true;
    note({ type: 'stderr', text: 'MCP error ENDPOINT_NOT_FOUND: the re-initialize got 404 too' });
    note({
      type: 'emulation',
      profile: 'strict-host',
      what: 'the re-initialize got 404 too: the server is lost for the session (later calls fail without touching the network) while the host still lists it as connected',
      source: SOURCE,
    });
  }
}
