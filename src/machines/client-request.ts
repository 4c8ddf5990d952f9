import type { MachineDef } from './machine.ts';
export type ClientRequestState = 'RUNNING' | 'CANCEL_REQUESTED' | 'STOPPED_LOCALLY' | 'STOPPED_BEFORE_SEND' | 'SUCCEEDED' | 'FAILED';

/**
 * What can happen to one call, seen from the client:
 * - `stop`: the user pressed Stop;
 * - `result`: the call's promise resolved with a result;
 * - `error`: the call settled with an error (the promise rejected, or the result has isError);
 * - `error-before-send`: the call's promise rejected before its request was written (its signal
 *   aborted before the call or in its tick, or a client that is not connected);
 * - `late-response`: a response for the call's request id reached the client. Every call on
 *   the connection with that id is offered it; only one no longer waiting takes it (a running
 *   call's own response settles it through `result` or `error`).
 */
export type ClientRequestEvent = 'stop' | 'result' | 'error' | 'error-before-send' | 'late-response';

/**
 * The client's view of one request, after the model in seed 003 (`cancel_demo.py`):
 * Stop records the intent (CANCEL_REQUESTED), local cleanup ends the wait (STOPPED_LOCALLY),
 * and a response that arrives afterwards is ignored. Stopping is not a rollback.
 *
 * CANCEL_REQUESTED lasts no longer than the step Stop is pressed in: the SDK rejects the call
 * as soon as its signal aborts, so no response can reach the call while it is in that state.
 * A Stop that comes before the request is written (a signal already aborted, or aborted in the
 * call's own tick) ends in STOPPED_BEFORE_SEND: nothing reached the wire, so there is nothing to
 * cancel and nothing can answer.
 */
export const clientRequestMachine: MachineDef<ClientRequestState, ClientRequestEvent> = {
  id: 'client-request',
  title: 'Client request',
  initial: 'RUNNING',
  states: ['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY', 'STOPPED_BEFORE_SEND', 'SUCCEEDED', 'FAILED'],
  transitions: [
    { from: 'RUNNING', on: 'stop', to: 'CANCEL_REQUESTED', label: 'Stop pressed' },
    { from: 'RUNNING', on: 'result', to: 'SUCCEEDED', label: 'result' },
    { from: 'RUNNING', on: 'error', to: 'FAILED', label: 'error' },
    { from: 'RUNNING', on: 'error-before-send', to: 'FAILED', label: 'error before the wire' },
    // The abort rejects the call: after Stop that error is the local wait ending, not a failure.
    { from: 'CANCEL_REQUESTED', on: 'error', to: 'STOPPED_LOCALLY', label: 'local wait ended' },
    { from: 'CANCEL_REQUESTED', on: 'error-before-send', to: 'STOPPED_BEFORE_SEND', label: 'nothing reached the wire' },
    { from: 'STOPPED_LOCALLY', on: 'late-response', to: 'STOPPED_LOCALLY', label: 'ignored: arrived after Stop' },
    { from: 'STOPPED_LOCALLY', on: 'stop', to: 'STOPPED_LOCALLY', label: 'ignored: not running' },
    { from: 'STOPPED_BEFORE_SEND', on: 'stop', to: 'STOPPED_BEFORE_SEND', label: 'ignored: not running' },
    { from: 'SUCCEEDED', on: 'stop', to: 'SUCCEEDED', label: 'ignored: not running' },
    { from: 'FAILED', on: 'stop', to: 'FAILED', label: 'ignored: not running' },
    // A second response for a settled id (a forged one, or the real one after a timeout).
    { from: 'SUCCEEDED', on: 'late-response', to: 'SUCCEEDED', label: 'ignored: already settled' },
    { from: 'FAILED', on: 'late-response', to: 'FAILED', label: 'ignored: already settled' },
  ],
};
