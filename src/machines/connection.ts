import { stepMachine, type MachineDef, type Transition } from './machine.ts';
import type { TraceEvent } from '../trace/index.ts';

/**
 * The connection's lifecycle, as seen from the client. The handshake differs by era: a legacy
 * client (2024-11-05 … 2025-11-25) is `initialized` once the `initialize` result arrives; a
 * 2026-07-28 client is `discovered` once the `server/discover` result arrives. Either way it is
 * `open` when the client reports itself connected. A connection ends `closed` (someone closed
 * it, or the handshake was refused) or `crashed` (the server process died, the session was
 * lost), and a reconnect goes back to `connecting` through `reconnecting`.
 */
export type ConnectionState = 'connecting' | 'initialized' | 'discovered' | 'open' | 'closed' | 'crashed' | 'reconnecting';

export type ConnectionEventName =
  | 'initialize-result'
  | 'discover-result'
  | 'handshake-error'
  | 'connected'
  | 'disconnected'
  | 'crashed'
  | 'session-expired'
  | 'reconnecting'
  | 'retry';

export const connectionMachine: MachineDef<ConnectionState, ConnectionEventName> = {
  id: 'connection',
  title: 'Connection',
  initial: 'connecting',
  states: ['connecting', 'initialized', 'discovered', 'open', 'closed', 'crashed', 'reconnecting'],
  transitions: [
    { from: 'connecting', on: 'initialize-result', to: 'initialized', label: 'initialize result' },
    { from: 'connecting', on: 'discover-result', to: 'discovered', label: 'server/discover result' },
    { from: 'connecting', on: 'handshake-error', to: 'closed', label: 'handshake refused' },
    { from: 'initialized', on: 'connected', to: 'open', label: 'client connected' },
    { from: 'discovered', on: 'connected', to: 'open', label: 'client connected' },
    { from: 'open', on: 'disconnected', to: 'closed', label: 'transport closed' },
    { from: 'open', on: 'crashed', to: 'crashed', label: 'server process died' },
    { from: 'open', on: 'session-expired', to: 'crashed', label: 'session lost (404)' },
    // Closing or crashing during the handshake.
    { from: 'connecting', on: 'disconnected', to: 'closed', label: 'closed during handshake' },
    { from: 'initialized', on: 'disconnected', to: 'closed', label: 'closed during handshake' },
    { from: 'discovered', on: 'disconnected', to: 'closed', label: 'closed during handshake' },
    { from: 'connecting', on: 'crashed', to: 'crashed', label: 'died during handshake' },
    { from: 'initialized', on: 'crashed', to: 'crashed', label: 'died during handshake' },
    { from: 'discovered', on: 'crashed', to: 'crashed', label: 'died during handshake' },
    { from: 'reconnecting', on: 'crashed', to: 'crashed', label: 'died while reconnecting' },
    { from: 'closed', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'crashed', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'reconnecting', on: 'retry', to: 'connecting', label: 'new handshake sent' },
    // The transport reports the end of a connection that is already down (a crash closes the pipe).
    { from: 'closed', on: 'disconnected', to: 'closed', label: 'ignored: already down' },
    { from: 'crashed', on: 'disconnected', to: 'crashed', label: 'ignored: already down' },
  ],
};

export interface ConnectionChange {
  /** The trace event that caused the step. */
  seq: number;
  t: number;
  from: ConnectionState;
  to: ConnectionState;
  transition: Transition<ConnectionState, ConnectionEventName>;
}

export interface ConnectionRejection {
  seq: number;
  t: number;
  state: ConnectionState;
  event: ConnectionEventName;
  reason: string;
}

export interface ConnectionDerivation {
  /** The state after the last change (the initial state when nothing happened yet). */
  state: ConnectionState;
  /** Every step taken, oldest first; `changes.at(-1)?.transition` is the one just taken. */
  changes: ConnectionChange[];
  /** Steps the table does not allow: reported, never thrown. */
  rejected: ConnectionRejection[];
}

const HANDSHAKE_METHODS = new Set(['initialize', 'server/discover']);

/**
 * The connection's state changes, read off the trace by stepping `connectionMachine`:
 * the delivery to the client of the `initialize` / `server/discover` response (result or
 * error), and the transport's `connection` events (connected, disconnected, crashed,
 * session-expired, reconnecting). A new handshake request after the connection went down is
 * the retry. Pure: the same trace (or prefix of one) gives the same answer.
 */
export function connectionStates(trace: readonly TraceEvent[]): ConnectionDerivation {
  const tracker = new ConnectionTracker();
  for (const e of trace) tracker.observe(e);
  return { state: tracker.state, changes: tracker.changes, rejected: tracker.rejected };
}

/**
 * Steps the connection table one trace event at a time. The coordinator feeds it every event
 * it appends and records each change in the trace; `connectionStates` replays a finished trace.
 */
export class ConnectionTracker {
  state: ConnectionState = connectionMachine.initial;
  readonly changes: ConnectionChange[] = [];
  readonly rejected: ConnectionRejection[] = [];
  // The id of the handshake request in flight, by method; its response frame numbers.
  private readonly handshakeIds = new Map<string, string>();
  private readonly handshakeResponses = new Map<number, { id: string; method: string; error: boolean }>();

  /** Feeds one event; returns the changes it caused (usually none). */
  observe(e: TraceEvent): ConnectionChange[] {
    const before = this.changes.length;
    switch (e.kind) {
      case 'frame': {
        const msg = e.msg;
        if (!msg) break;
        if (e.dir === 'c2s' && msg.method !== undefined && HANDSHAKE_METHODS.has(msg.method) && msg.id !== undefined) {
          if (this.state === 'closed' || this.state === 'crashed') this.step(e, 'reconnecting');
          if (this.state === 'reconnecting') this.step(e, 'retry');
          this.handshakeIds.set(JSON.stringify(msg.id), msg.method);
        } else if (e.dir === 's2c' && msg.method === undefined && msg.id !== undefined) {
          const id = JSON.stringify(msg.id);
          const method = this.handshakeIds.get(id);
          if (method !== undefined) this.handshakeResponses.set(e.frame, { id, method, error: msg.error !== undefined });
        }
        break;
      }
      case 'delivery': {
        const response = this.handshakeResponses.get(e.frame);
        if (!response || e.dir !== 's2c' || droppedDelivery(e)) break;
        this.handshakeResponses.delete(e.frame);
        // Only the response to the handshake now under way moves the connection.
        if (this.state !== 'connecting') break;
        this.handshakeIds.delete(response.id);
        this.step(e, response.error ? 'handshake-error' : response.method === 'initialize' ? 'initialize-result' : 'discover-result');
        break;
      }
      case 'connection': {
        const event = CONNECTION_EVENTS[e.event];
        if (event !== undefined) this.step(e, event);
        break;
      }
      default:
        break;
    }
    return this.changes.slice(before);
  }

  private step(e: TraceEvent, event: ConnectionEventName): void {
    const outcome = stepMachine(connectionMachine, this.state, event);
    if (!outcome.ok) {
      this.rejected.push({ seq: e.seq, t: e.t, state: this.state, event, reason: outcome.reason });
      return;
    }
    this.changes.push({ seq: e.seq, t: e.t, from: this.state, to: outcome.transition.to, transition: outcome.transition });
    this.state = outcome.transition.to;
  }
}

/** Which `connection` trace events step the connection (stream and session bookkeeping does not). */
const CONNECTION_EVENTS: Partial<Record<string, ConnectionEventName>> = {
  connected: 'connected',
  disconnected: 'disconnected',
  crashed: 'crashed',
  'session-expired': 'session-expired',
  reconnecting: 'reconnecting',
};

/** A delivery the wire marks as having reached nobody (newer traces say why in `dropped`). */
function droppedDelivery(e: object): boolean {
  return typeof (e as Record<string, unknown>).dropped === 'string';
}
