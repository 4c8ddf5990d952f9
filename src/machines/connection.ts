import type { MachineDef } from './machine.ts';

/**
 * The connection's lifecycle, as seen from the client. The handshake differs by era: a legacy
 * client (2024-11-05 … 2025-11-25) is `initialized` once the `initialize` result arrives; a
 * 2026-07-28 client is `discovered` once the `server/discover` result arrives. Either way it is
 * `open` when the client reports itself connected. A connection ends `closed` (someone closed
 * it, or the handshake was refused) or `crashed` (the server process died), and a reconnect
 * goes back to `connecting` through `reconnecting`.
 *
 * A connection is closed or crashed by the end of a stdio stream or the exit of the stdio
 * process; on stdio `initialized`, `discovered` and `reconnecting` last no longer than one step
 * (the client is connected in the step the handshake's answer arrives; a reconnect sends its
 * handshake at once), so nothing closes or crashes the connection in them, except the client
 * itself when the answer names a revision it does not support (it closes in that same step). Over HTTP those
 * states last longer, but only a host that reconnects ends an HTTP connection. A Streamable
 * HTTP session the server ends (an `expire-session` step) is no state of its own either: the
 * real v2 client never learns of it and stays `open`, its requests answered 404, and a host that
 * starts a new session goes through `reconnecting` like any other reconnect.
 */
export type ConnectionState = 'connecting' | 'initialized' | 'discovered' | 'open' | 'closed' | 'crashed' | 'reconnecting';

/** The states of a connection still being made: the client has not reported itself connected, nor has the attempt ended. */
export const HANDSHAKE_STATES: ReadonlySet<ConnectionState> = new Set(['connecting', 'initialized', 'discovered']);

/**
 * What can happen to the connection:
 * - `initialize-result` / `discover-result` / `handshake-error`: the answer to the handshake
 *   request reached the client: a result it can use, or an error (or a result it refuses, such
 *   as a forged one: its connect fails and it closes the connection);
 * - `connected`: the client reported itself connected;
 * - `disconnected`: a side closed its end (stdio end of stream);
 * - `crashed`: the server process exited;
 * - `reconnecting`: the host closed the connection to start a new one;
 * - `handshake-sent`: the client wrote a handshake request (only a new connection's counts).
 */
export type ConnectionEventName =
  | 'initialize-result'
  | 'discover-result'
  | 'handshake-error'
  | 'connected'
  | 'disconnected'
  | 'crashed'
  | 'reconnecting'
  | 'handshake-sent';

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
    // Closing or crashing before the handshake is answered.
    { from: 'connecting', on: 'disconnected', to: 'closed', label: 'closed during handshake' },
    { from: 'connecting', on: 'crashed', to: 'crashed', label: 'died during handshake' },
    // The initialize result names a revision the client does not support: its connect fails and it closes.
    { from: 'initialized', on: 'disconnected', to: 'closed', label: 'revision refused' },
    // A host reconnects from wherever it is (over HTTP no end of stream closes the old connection first).
    { from: 'connecting', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'initialized', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'open', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'closed', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'crashed', on: 'reconnecting', to: 'reconnecting', label: 'reconnect' },
    { from: 'reconnecting', on: 'handshake-sent', to: 'connecting', label: 'new handshake sent' },
    // An auto-negotiating client whose server/discover probe was refused falls back to initialize on the same transport.
    { from: 'closed', on: 'handshake-sent', to: 'connecting', label: 'falls back to initialize' },
    // The transport reports the end of a connection that is already down (a crash closes the pipe).
    { from: 'closed', on: 'disconnected', to: 'closed', label: 'ignored: already down' },
    { from: 'crashed', on: 'disconnected', to: 'crashed', label: 'ignored: already down' },
    // The server answered the handshake and then died: its answer still reaches the client.
    { from: 'crashed', on: 'connected', to: 'crashed', label: 'ignored: the server already died' },
    // The server process dies after the client closed the connection.
    { from: 'closed', on: 'crashed', to: 'closed', label: 'ignored: the process died after the close' },
  ],
};
