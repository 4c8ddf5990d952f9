/**
 * Lifecycles are data: a transition table the engine steps and the diagrams draw. Events are
 * named for what happened (a response arrived, the call settled with an error, the process
 * exited); which state that leads to, or whether it means anything in the current state, is
 * the table's answer, never the caller's.
 */
export interface Transition<S extends string, E extends string> {
  from: S;
  on: E;
  to: S;
  /** Shown on the diagram edge and in the trace when a transition leaves the state unchanged. */
  label: string;
}

export interface MachineDef<S extends string, E extends string> {
  id: string;
  title: string;
  initial: S;
  states: readonly S[];
  transitions: readonly Transition<S, E>[];
}

export type StepOutcome<S extends string, E extends string> =
  | { ok: true; transition: Transition<S, E> }
  | { ok: false; reason: string };

/** The one stepping function: the transition `event` takes from `state`, or why there is none. */
export function stepMachine<S extends string, E extends string>(
  def: MachineDef<S, E>,
  state: S,
  event: E,
): StepOutcome<S, E> {
  const transition = def.transitions.find((t) => t.from === state && t.on === event);
  if (transition) return { ok: true, transition };
  return { ok: false, reason: `${def.id}: no transition from ${state} on ${event}` };
}

/**
 * Does `event` mean anything in `state`? For what may or may not concern a lifecycle (a
 * response reaching a call, the process exiting under a handler that already answered): the
 * caller offers the event, and the table says whether it takes it.
 */
export function can<S extends string, E extends string>(def: MachineDef<S, E>, state: S, event: E): boolean {
  return def.transitions.some((t) => t.from === state && t.on === event);
}
