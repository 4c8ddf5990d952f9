/**
 * The lifecycles the state diagram can show (the connection, each call's client request, each
 * request's server handler, and each request the server sent the client, from either side), and for one of them its state at the end of a trace and the
 * transition just taken, which `stateDiagram` marks. Pure: read off the state-change events
 * the engine records.
 */
import {
  clientHandlerMachine,
  clientRequestMachine,
  connectionMachine,
  serverHandlerMachine,
  serverRequestMachine,
  type MachineDef,
  type Transition,
} from '../machines/index.ts';
import type { TraceEvent } from '../trace/index.ts';

/** A lifecycle's table, the state it is in (undefined: not started), and the transition just taken. */
interface DiagramSubject<S extends string> {
  def: MachineDef<S, string>;
  current: S | undefined;
  last: Transition<S, string> | undefined;
}

/** The transition a recorded state change took: the table's own row for (from, event). */
function transitionOf<S extends string>(def: MachineDef<S, string>, from: S, on: string | null): Transition<S, string> | undefined {
  return def.transitions.find((t) => t.from === from && t.on === on);
}

/** The lifecycle the user picked, its state at the end of `trace`, and the transition just taken. */
export function subjectOf(value: string, trace: readonly TraceEvent[]): DiagramSubject<string> {
  if (value.startsWith('call:')) {
    const call = value.slice(5);
    const last = trace.findLast((e) => e.kind === 'client-state' && e.call === call);
    return {
      def: clientRequestMachine,
      current: last?.kind === 'client-state' ? last.to : undefined,
      last: last?.kind === 'client-state' && last.from !== null ? transitionOf(clientRequestMachine, last.from, last.on) : undefined,
    };
  }
  if (value.startsWith('request:')) {
    const key = value.slice(8);
    const last = trace.findLast((e) => e.kind === 'server-state' && JSON.stringify(e.requestId) === key);
    return {
      def: serverHandlerMachine,
      current: last?.kind === 'server-state' ? last.to : undefined,
      last: last?.kind === 'server-state' && last.from !== null ? transitionOf(serverHandlerMachine, last.from, last.on) : undefined,
    };
  }
  for (const [prefix, kind, def] of [
    ['asked:', 'server-request-state', serverRequestMachine],
    ['answering:', 'client-handler-state', clientHandlerMachine],
  ] as const) {
    if (!value.startsWith(prefix)) continue;
    const key = value.slice(prefix.length);
    const last = trace.findLast((e) => e.kind === kind && JSON.stringify(e.requestId) === key);
    const state = last?.kind === kind ? last : undefined;
    return {
      def,
      current: state?.to,
      last: state && state.from !== null ? transitionOf<string>(def, state.from, state.on) : undefined,
    };
  }
  // The engine steps the connection table and records each step in the trace.
  const last = trace.findLast((e) => e.kind === 'connection-state');
  return {
    def: connectionMachine,
    current: last?.kind === 'connection-state' ? last.to : connectionMachine.initial,
    last: last?.kind === 'connection-state' ? transitionOf(connectionMachine, last.from, last.on) : undefined,
  };
}

/** Every lifecycle in the trace, as (option value, label), the connection first. */
export function subjectsOf(trace: readonly TraceEvent[]): [string, string][] {
  const wanted: [string, string][] = [['connection', 'Connection']];
  for (const e of trace) {
    if (e.kind === 'client-state' && e.from === null) wanted.push([`call:${e.call}`, `Call ${e.call}: client request`]);
    if (e.kind === 'server-state' && e.from === null) wanted.push([`request:${JSON.stringify(e.requestId)}`, `Request ${JSON.stringify(e.requestId)}: server handler`]);
    if (e.kind === 'server-request-state' && e.from === null)
      wanted.push([`asked:${JSON.stringify(e.requestId)}`, `Server request ${JSON.stringify(e.requestId)} (${e.method}): server's view`]);
    if (e.kind === 'client-handler-state' && e.from === null)
      wanted.push([`answering:${JSON.stringify(e.requestId)}`, `Server request ${JSON.stringify(e.requestId)} (${e.method}): client handler`]);
  }
  return [...new Map(wanted).entries()];
}
