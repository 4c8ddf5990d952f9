import type { MachineDef } from './machine.ts';
export type ClientHandlerState = 'running' | 'cancellation seen' | 'returned' | 'threw' | 'response sent' | 'response suppressed';

/**
 * What can happen to the client's handler of a request the server sent it:
 * - `cancel-seen`: the request's signal aborted (the server's cancel arrived);
 * - `return` / `throw`: the handler returned or threw;
 * - `response-sent`: the client wrote a response for its id;
 * - `response-suppressed`: the client's step in which it finished ended with no response.
 * Whether a response left is read off the wire, never asked of the SDK.
 */
export type ClientHandlerEvent = 'cancel-seen' | 'return' | 'throw' | 'response-sent' | 'response-suppressed';

/** The server-handler table's counterpart for the other direction: the client is the receiver here. */
export const clientHandlerMachine: MachineDef<ClientHandlerState, ClientHandlerEvent> = {
  id: 'client-handler',
  title: 'Client handler',
  initial: 'running',
  states: ['running', 'cancellation seen', 'returned', 'threw', 'response sent', 'response suppressed'],
  transitions: [
    { from: 'running', on: 'cancel-seen', to: 'cancellation seen', label: 'signal aborted' },
    { from: 'running', on: 'return', to: 'returned', label: 'handler returned' },
    { from: 'cancellation seen', on: 'return', to: 'returned', label: 'handler returned anyway' },
    { from: 'cancellation seen', on: 'throw', to: 'threw', label: 'handler threw' },
    { from: 'returned', on: 'response-sent', to: 'response sent', label: 'response written' },
    { from: 'returned', on: 'response-suppressed', to: 'response suppressed', label: 'nothing written' },
    { from: 'threw', on: 'response-suppressed', to: 'response suppressed', label: 'nothing written' },
  ],
};
