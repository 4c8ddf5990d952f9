/**
 * A lifecycle's transition table as a Mermaid `stateDiagram-v2`. The diagram is the table:
 * every state, `[*]` into the initial one, and every transition (self-transitions too) with its
 * label, in the table's own order, so the same table always gives the same text.
 *
 * Self-transitions of one state share one edge, their labels joined with ` / ` in table order:
 * Mermaid's layout builds each self-loop from helper nodes and edges named after the state
 * alone (`X---X---1`, `X-cyclic-special-0`, …), so a second self-loop on a state replaces the
 * first and only the last would be drawn. Transitions between two different states keep one
 * edge each (those are named by a unique edge id, and the layout is a multigraph).
 *
 * Highlighting. `current` gets `classDef current` (filled, thick outline). Mermaid cannot style
 * a single edge of a state diagram (no `linkStyle` there), so the transition just taken is
 * emphasised in two ways that only touch that transition's own label and its source:
 *   - its label is prefixed with `▶` (the only per-edge thing a state diagram lets us set);
 *   - its source state, when it differs from the target, gets `classDef previous` (outline
 *     only), so "from here → to there" reads at a glance.
 * Its target is normally the current state, already highlighted. A `note` was rejected: in
 * stateDiagram-v2 a note wraps its state in a cluster with the note, which moves the layout each
 * time the highlighted state changes; a class or a label prefix leaves the layout alone (bar
 * the width of two characters).
 */
import type { MachineDef, Transition } from '../machines/index.ts';
import { entity, mermaidText } from './mermaid-text.ts';

export interface StateDiagramOptions<S extends string, E extends string> {
  current?: S;
  lastTransition?: Transition<S, E>;
}

/** Fills stay light with dark text, so both classes read on the light and the dark theme. */
export const CURRENT_CLASS = 'fill:#fde68a,stroke:#b45309,stroke-width:3px,color:#1f2937,font-weight:bold';
export const PREVIOUS_CLASS = 'stroke:#b45309,stroke-width:2px';
export const TAKEN_MARK = '▶ ';

export function stateDiagram<S extends string, E extends string>(def: MachineDef<S, E>, opts: StateDiagramOptions<S, E> = {}): string {
  const ids = stateIds(def.states);
  const idOf = (s: S): string => ids.get(s) ?? `s_unknown`;
  const lines = ['stateDiagram-v2', `  accTitle: ${stateText(def.title)}`];
  for (const s of def.states) lines.push(`  state "${stateText(s)}" as ${idOf(s)}`);
  // A transition may name a state the `states` list forgot; declare it too rather than fail.
  for (const t of def.transitions) {
    for (const s of [t.from, t.to]) {
      if (ids.has(s)) continue;
      ids.set(s, freshId(s, ids));
      lines.push(`  state "${stateText(s)}" as ${idOf(s)}`);
    }
  }
  if (ids.has(def.initial)) lines.push(`  [*] --> ${idOf(def.initial)}`);
  const last = opts.lastTransition;
  const taken = last ? def.transitions.find((t) => t.from === last.from && t.on === last.on && t.to === last.to) : undefined;
  const labelOf = (t: Transition<S, E>): string => (t === taken ? TAKEN_MARK : '') + t.label;
  const loopsDrawn = new Set<S>();
  for (const t of def.transitions) {
    if (t.from !== t.to) {
      lines.push(`  ${idOf(t.from)} --> ${idOf(t.to)} : ${stateText(labelOf(t))}`);
    } else if (!loopsDrawn.has(t.from)) {
      loopsDrawn.add(t.from);
      const labels = def.transitions.filter((u) => u.from === t.from && u.to === t.from).map(labelOf);
      lines.push(`  ${idOf(t.from)} --> ${idOf(t.to)} : ${stateText(labels.join(' / '))}`);
    }
  }
  lines.push(`  classDef current ${CURRENT_CLASS}`);
  lines.push(`  classDef previous ${PREVIOUS_CLASS}`);
  if (opts.current !== undefined && ids.has(opts.current)) lines.push(`  class ${idOf(opts.current)} current`);
  if (taken && taken.from !== taken.to && taken.from !== opts.current) lines.push(`  class ${idOf(taken.from)} previous`);
  return lines.join('\n') + '\n';
}

/**
 * Text in a state diagram: `mermaidText`, plus what only a state diagram reads. State names are
 * rendered as markdown, so `*`, `~`, `[`, `]` and an underscore at a word's edge (which could
 * open emphasis; one inside a word like CANCEL_REQUESTED cannot) become entity codes; and the
 * lexer takes any line with `direction` followed by TB/BT/LR/RL as a direction statement, so
 * the word never appears whole.
 */
export function stateText(s: string): string {
  return mermaidText(s)
    .replace(/[*~[\]]/g, entity)
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, entity)
    .replace(/(directio)(n)/gi, (_m, head: string, n: string) => head + entity(n));
}

/**
 * A Mermaid id per state, in the table's order: the name with every run of other characters
 * turned into `_` (`cancellation seen` → `cancellation_seen`), when that is a plain identifier the
 * lexer cannot mistake for a keyword; otherwise `s<index>`. Distinct names get distinct ids.
 */
function stateIds<S extends string>(states: readonly S[]): Map<S, string> {
  const ids = new Map<S, string>();
  for (const s of states) if (!ids.has(s)) ids.set(s, freshId(s, ids));
  return ids;
}

/** Words the state lexer reads as keywords when a line starts with them (`default` even as a prefix). */
const KEYWORD = /^(default.*|state|note|class|classdef|scale|hide|statediagram|acctitle|accdescr|end)$/i;
/** Words that preprocessing or the lexer match anywhere on a line. */
const UNSAFE_ANYWHERE = /direction|style|classdef/i;

function freshId<S extends string>(name: S, taken: ReadonlyMap<S, string>): string {
  const used = new Set(taken.values());
  let id = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(id) || KEYWORD.test(id) || UNSAFE_ANYWHERE.test(id)) id = `s${taken.size}`;
  if (used.has(id)) {
    let n = taken.size;
    while (used.has(`${id}_${n}`)) n++;
    id = `${id}_${n}`;
  }
  return id;
}
