/**
 * The diagrams layer: Mermaid text, pure and headless — a run's sequence diagram (from the
 * trace, paired through the trace index) and a lifecycle's state diagram (from its table), with
 * which lifecycles a trace has and where each stands.
 */
export { sequenceDiagram, type SequenceDiagramOptions } from './sequence-diagram.ts';
export { stateDiagram, type StateDiagramOptions } from './state-diagram.ts';
export { subjectOf, subjectsOf } from './subjects.ts';
