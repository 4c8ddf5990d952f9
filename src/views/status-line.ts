/**
 * The status line: where the connection stands, in one sentence, read off the run view alone
 * (its connection status, the current connection's negotiated version, its setting). Whether
 * the workers are up at all is the page's to say, before this line.
 */
import type { RunView } from './run-view.ts';

export function statusLine(view: Pick<RunView, 'status' | 'negotiated' | 'setting'>): string {
  const setting = `Setting: ${view.setting}.`;
  switch (view.status) {
    case 'connected': {
      const agreed = view.negotiated;
      return agreed
        ? `Connected: negotiated protocol version ${agreed.protocolVersion} (${agreed.era} era) at t = ${agreed.t} ms. ${setting}`
        : `Connected. ${setting}`;
    }
    case 'connecting':
      return `Connecting: the client is opening the connection… ${setting}`;
    case 'reconnecting':
      return `Reconnecting… ${setting}`;
    case 'crashed':
      return `The server crashed: the connection is gone; calls fail until you restart the server and reconnect. ${setting}`;
    case 'imported':
      return `An imported trace: it shows what crossed the wire where the log was taken; no side of the lab ran it. ${setting}`;
    case 'closed':
      return `Disconnected: the connection is closed; calls fail until you restart the server and reconnect. ${setting}`;
  }
}
