/**
 * Each call as the Calls panel shows it: the client request's states, the server handler's
 * states for its request (on its own connection), progress, late responses and the outcome.
 */
import { indexTrace, serverStatesOf, type ClientRequestState, type ServerHandlerState, type TraceEvent, type TraceIndex } from '../trace/index.ts';

export interface CallView {
  call: string;
  tool: string;
  args: Record<string, unknown>;
  requestId: string | number | null;
  clientState: ClientRequestState;
  /** Each client-state change, oldest first, with the reason. */
  clientHistory: { t: number; to: ClientRequestState; because: string }[];
  serverState: ServerHandlerState | null;
  serverHistory: { t: number; to: ServerHandlerState; because: string }[];
  /** Responses that reached the client after Stop, each ignored. */
  lateResponses: { t: number; because: string }[];
  progress: number | null;
  total: number | null;
  outcome: string | null;
  /** The call failed because its connection went away (a crash, a disconnect, a strict host's reconnect). */
  lost: boolean;
}

export function callViews(trace: readonly TraceEvent[], index: TraceIndex = indexTrace(trace)): CallView[] {
  const calls = new Map<string, CallView>();
  for (const e of trace) {
    if (e.kind === 'user-action' && e.action.type === 'call') {
      calls.set(e.action.call, {
        call: e.action.call,
        tool: e.action.tool,
        args: e.action.args,
        requestId: null,
        clientState: 'RUNNING',
        clientHistory: [],
        serverState: null,
        serverHistory: [],
        lateResponses: [],
        progress: null,
        total: null,
        outcome: null,
        lost: false,
      });
    } else if (e.kind === 'client-state') {
      const view = calls.get(e.call);
      if (!view) continue;
      view.requestId = e.requestId;
      // A response the client ignores because the user had pressed Stop (not one after the call settled).
      if (e.on === 'late-response' && (e.from === 'CANCEL_REQUESTED' || e.from === 'STOPPED_LOCALLY')) view.lateResponses.push({ t: e.t, because: e.because });
      view.clientState = e.to;
      view.clientHistory.push({ t: e.t, to: e.to, because: e.because });
    } else if (e.kind === 'handler' && e.note.type === 'progress-received') {
      const view = calls.get(e.note.call);
      if (!view) continue;
      view.progress = e.note.progress;
      view.total = e.note.total ?? null;
    } else if (e.kind === 'handler' && e.note.type === 'call-settled') {
      const view = calls.get(e.note.call);
      if (!view) continue;
      view.outcome = e.note.outcome === 'result' ? (e.note.isError ? 'tool error' : 'result') : `rejected: ${e.note.message ?? ''}`;
      view.lost = e.note.outcome === 'error' && /^(Connection closed|Not connected)/.test(e.note.message ?? '');
    }
  }
  // The server's side of each call: the handler for its request id on its own connection.
  for (const view of calls.values()) {
    const call = index.calls.get(view.call);
    const states = call ? serverStatesOf(index, call) : [];
    view.serverState = states.at(-1)?.to ?? null;
    view.serverHistory = states.map((e) => ({ t: e.t, to: e.to, because: e.because }));
  }
  return [...calls.values()];
}

/** One line per call: its name, tool, and how it ended on the client and the server. */
export function describeCall(c: CallView): string {
  return `${c.call} ${c.tool}: client ${c.clientState}${c.lateResponses.length ? ` (${c.lateResponses.length} late response ignored)` : ''}, server ${c.serverState ?? 'never received'}${c.lost ? ', lost with its connection' : ''}`;
}
