import type { MachineDef } from './machine.ts';
export type ClientRequestState = 'RUNNING' | 'CANCEL_REQUESTED' | 'STOPPED_LOCALLY' | 'SUCCEEDED' | 'FAILED';

/**
 * The client's view of one request, after the model in seed 003 (`cancel_demo.py`):
 * Stop records the intent (CANCEL_REQUESTED), local cleanup ends the wait (STOPPED_LOCALLY),
 * and a response that arrives afterwards is ignored. Stopping is not a rollback.
 */
export type ClientRequestEvent = 'stop' | 'stopped' | 'result' | 'error' | 'late-response';

export const clientRequestMachine: MachineDef<ClientRequestState, ClientRequestEvent> = {
  id: 'client-request',
  title: 'Client request',
  initial: 'RUNNING',
  states: ['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY', 'SUCCEEDED', 'FAILED'],
  transitions: [
    { from: 'RUNNING', on: 'stop', to: 'CANCEL_REQUESTED', label: 'Stop pressed' },
    { from: 'RUNNING', on: 'result', to: 'SUCCEEDED', label: 'result' },
    { from: 'RUNNING', on: 'error', to: 'FAILED', label: 'error' },
    { from: 'CANCEL_REQUESTED', on: 'stopped', to: 'STOPPED_LOCALLY', label: 'local wait ended' },
    { from: 'CANCEL_REQUESTED', on: 'late-response', to: 'CANCEL_REQUESTED', label: 'ignored: arrived after Stop' },
    { from: 'STOPPED_LOCALLY', on: 'late-response', to: 'STOPPED_LOCALLY', label: 'ignored: arrived after Stop' },
    { from: 'STOPPED_LOCALLY', on: 'stop', to: 'STOPPED_LOCALLY', label: 'ignored: not running' },
    { from: 'SUCCEEDED', on: 'stop', to: 'SUCCEEDED', label: 'ignored: not running' },
    { from: 'FAILED', on: 'stop', to: 'FAILED', label: 'ignored: not running' },
    // A second response for a settled id (a forged one, or the real one after a timeout).
    { from: 'SUCCEEDED', on: 'late-response', to: 'SUCCEEDED', label: 'ignored: already settled' },
    { from: 'FAILED', on: 'late-response', to: 'FAILED', label: 'ignored: already settled' },
  ],
};
