import type { MachineDef } from './machine.ts';
export type ServerRequestState = 'awaiting' | 'cancelled' | 'answered';

/**
 * What can happen to a request the server sent the client mid-call (elicitation/create,
 * sampling/createMessage, roots/list, ping), seen from the server:
 * - `cancel`: the server wrote notifications/cancelled for it (its tool aborted the signal it
 *   passed with the request);
 * - `response`: the client's answer (a result or an error) reached the server.
 * The client Stopping the call that asked is not among them: the SDK keeps the nested request
 * pending unless the tool passed it the call's own signal.
 */
export type ServerRequestEvent = 'cancel' | 'response';

/** The client-request table's counterpart for the other direction: the server is the sender here. */
export const serverRequestMachine: MachineDef<ServerRequestState, ServerRequestEvent> = {
  id: 'server-request',
  title: 'Server request',
  initial: 'awaiting',
  states: ['awaiting', 'cancelled', 'answered'],
  transitions: [
    { from: 'awaiting', on: 'response', to: 'answered', label: 'answer arrived' },
    { from: 'awaiting', on: 'cancel', to: 'cancelled', label: 'the server cancelled it' },
    { from: 'cancelled', on: 'response', to: 'cancelled', label: 'ignored: arrived after the cancel' },
  ],
};
