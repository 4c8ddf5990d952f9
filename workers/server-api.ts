/**
 * The server side's protocol with the coordinator, written once for both SDK lines: v2
 * (server-side.ts) and the real v1 (v1/server-v1.ts) each give how they serve a transport and
 * what a new run forgets; a crash is the same process exit for both.
 */
import { fireTimerAt, kill, note, resetRun, runAt, send } from './runtime.ts';
import type { ServerAction, ServerSideApi, SideConfig } from '../src/engine/index.ts';
import type { WireFrame } from '../src/trace/index.ts';

/** The process exits: its stdout closes (EOF), then nothing more leaves it. */
export function exitProcess(code: number, reason: string): void {
  note({ type: 'server-exited', code, reason });
  send({ raw: '', eof: true });
  kill();
}

/**
 * `serve` builds the server for the setting and returns what takes the delivered frames;
 * `forget` drops what the last process held (before a new one, and when it crashes).
 */
export function serverSideApi(
  serve: (config: SideConfig) => (frame: WireFrame) => void,
  forget: () => void = () => undefined,
  /** What the served transport does with a streams action (close-stream, expire-session); a server without one refuses them. */
  streams: (action: Exclude<ServerAction, { type: 'crash' }>) => void = (action) => {
    throw new Error(`this server cannot ${action.type}`);
  },
): ServerSideApi {
  let receive: (frame: WireFrame) => void = () => undefined;
  return {
    init(config, t) {
      resetRun(t);
      forget();
      return runAt(t, () => {
        receive = serve(config);
      });
    },
    deliver: (t, frame) => runAt(t, () => receive(frame)),
    fireTimer: fireTimerAt,
    act(t, action) {
      return runAt(t, () => {
        if (action.type !== 'crash') {
          streams(action);
          return;
        }
        forget();
        exitProcess(137, 'killed by the user');
      });
    },
  };
}
