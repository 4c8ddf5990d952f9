/**
 * Lifecycles are data: a transition table the engine steps and the diagrams draw.
 * Nothing outside a table decides a state.
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

export function stepMachine<S extends string, E extends string>(
  def: MachineDef<S, E>,
  state: S,
  event: E,
): StepOutcome<S, E> {
  const transition = def.transitions.find((t) => t.from === state && t.on === event);
  if (transition) return { ok: true, transition };
  return { ok: false, reason: `${def.id}: no transition from ${state} on ${event}` };
}
