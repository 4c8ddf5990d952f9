import type { MachineDef } from './machine.ts';
export type ServerHandlerState =
  | 'running'
  | 'answered early'
  | 'cancellation seen'
  | 'returned'
  | 'threw'
  | 'response sent'
  | 'response suppressed'
  | 'result undeliverable'
  | 'crashed';

/**
 * What can happen to one request handler on the server:
 * - `cancel-seen`: the request's signal aborted;
 * - `return` / `throw`: the handler returned or threw;
 * - `response-sent`: the server wrote a response for its id;
 * - `response-suppressed`: the step in which it finished ended, and no response for its id
 *   was ever written;
 * - `result-undeliverable`: the same, for a handler whose signal never aborted: nobody
 *   suppressed its result, it had nowhere to go (its stream or connection was gone);
 * - `answered-before`: the step in which it finished ended without one, but the server had
 *   answered the id before (python-sdk 1.x's code 0);
 * - `crash`: the server process exited.
 * Whether a response left is read off the wire, never asked of the SDK.
 */
export type ServerHandlerEvent = 'cancel-seen' | 'return' | 'throw' | 'response-sent' | 'response-suppressed' | 'result-undeliverable' | 'answered-before' | 'crash';

/**
 * The server's view of one request handler. `returned` and `threw` last no longer than the
 * step the handler finished in (the end of that step decides whether a response followed), and
 * the lab's tools throw only once cancelled, after the wrapper has noted the abort.
 */
export const serverHandlerMachine: MachineDef<ServerHandlerState, ServerHandlerEvent> = {
  id: 'server-handler',
  title: 'Server handler',
  initial: 'running',
  states: ['running', 'answered early', 'cancellation seen', 'returned', 'threw', 'response sent', 'response suppressed', 'result undeliverable', 'crashed'],
  transitions: [
    { from: 'running', on: 'cancel-seen', to: 'cancellation seen', label: 'signal aborted' },
    { from: 'running', on: 'return', to: 'returned', label: 'handler returned' },
    { from: 'cancellation seen', on: 'return', to: 'returned', label: 'handler returned' },
    { from: 'cancellation seen', on: 'throw', to: 'threw', label: 'handler threw' },
    { from: 'returned', on: 'response-sent', to: 'response sent', label: 'response written' },
    { from: 'returned', on: 'response-suppressed', to: 'response suppressed', label: 'nothing written' },
    { from: 'returned', on: 'result-undeliverable', to: 'result undeliverable', label: 'nothing written: never cancelled, its result had nowhere to go' },
    // Streamable HTTP with an event store keeps the result; a client that resumes the stream gets it.
    { from: 'result undeliverable', on: 'response-sent', to: 'response sent', label: 'its kept result replayed on a resumed stream' },
    { from: 'threw', on: 'response-suppressed', to: 'response suppressed', label: 'nothing written' },
    // The Go SDK answers a cancelled handler's error too (an isError result, "context canceled").
    { from: 'threw', on: 'response-sent', to: 'response sent', label: 'its error written as a response' },
    // The signal can abort after the handler is done: the transport closing tears down every
    // request's controller (a stateless HTTP instance closes right after its response).
    { from: 'returned', on: 'cancel-seen', to: 'returned', label: 'signal aborted after the handler finished' },
    { from: 'response sent', on: 'cancel-seen', to: 'response sent', label: 'signal aborted after the handler finished' },
    // python-sdk 1.x answers a cancelled request at once (code 0) while its handler still runs.
    { from: 'running', on: 'response-sent', to: 'answered early', label: 'response written before the handler finished' },
    { from: 'answered early', on: 'response-sent', to: 'answered early', label: 'another response for the same id' },
    { from: 'answered early', on: 'cancel-seen', to: 'answered early', label: 'signal aborted' },
    { from: 'answered early', on: 'return', to: 'returned', label: 'handler returned after its answer' },
    { from: 'answered early', on: 'throw', to: 'threw', label: 'handler unwound after its answer' },
    { from: 'answered early', on: 'crash', to: 'crashed', label: 'server process exited' },
    { from: 'threw', on: 'answered-before', to: 'response sent', label: 'its earlier response stands' },
    // The process died with the request unanswered (python-sdk 1.x's AssertionError, or a kill).
    { from: 'running', on: 'crash', to: 'crashed', label: 'server process exited' },
    { from: 'cancellation seen', on: 'crash', to: 'crashed', label: 'server process exited' },
    { from: 'returned', on: 'crash', to: 'crashed', label: 'server process exited' },
  ],
};
