/**
 * The client side's protocol with the coordinator, written once for both SDK lines: v2
 * (client-side.ts) and the real v1 (v1/client-v1.ts) each say only how their SDK connects,
 * calls and stops; reading a frame, pinging, disconnecting and reconnecting go the same way.
 */
import { fireTimerAt, note, resetRun, runAt } from './runtime.ts';
import type { ClientAction, ClientSideApi, SideConfig } from '../src/engine/index.ts';
import type { WireFrame } from '../src/trace/index.ts';

export type CallAction = Extract<ClientAction, { type: 'call' }>;

/** What one SDK line's client does; the rest of the side is clientSideApi's. */
export interface ClientSdk {
  /** A new run: forget the last run's calls and take its setting. */
  reset(config: SideConfig): void;
  connect(config: SideConfig): void;
  /** A frame the wire delivers to the current connection's transport. */
  receive(frame: WireFrame): void;
  call(action: CallAction): void;
  stop(call: string): void;
  /** tasks/cancel for a call's task (only the v1 SDK has tasks: the schema refuses it elsewhere). */
  cancelTask?(call: string): void;
  /** The current connection's SDK client, if one is open. */
  current(): { ping(): Promise<unknown>; close(): Promise<void> } | null;
  /** Closes this connection (its calls in flight fail) and opens a new one. */
  reconnect(reason: string): void;
}

export function clientSideApi(sdk: ClientSdk): ClientSideApi {
  return {
    init(c, t) {
      resetRun(t);
      sdk.reset(c);
      return runAt(t, () => sdk.connect(c));
    },
    deliver: (t, frame) => runAt(t, () => sdk.receive(frame)),
    fireTimer: fireTimerAt,
    act(t, action) {
      return runAt(t, () => {
        switch (action.type) {
          case 'call':
            sdk.call(action);
            return;
          case 'stop':
            sdk.stop(action.call);
            return;
          case 'cancel-task':
            sdk.cancelTask?.(action.call);
            return;
          case 'ping':
            // What the ping came to is on the wire; a failure is noted like the SDK's other errors.
            sdk
              .current()
              ?.ping()
              .catch((error: unknown) => note({ type: 'client-onerror', message: `ping failed: ${String(error)}` }));
            return;
          case 'disconnect':
            note({ type: 'client-closed', reason: 'the user disconnected the transport' });
            void sdk.current()?.close();
            return;
          case 'reconnect':
            sdk.reconnect('the user restarted the server');
            return;
        }
      });
    },
  };
}
