/**
 * An imported trace's run view, derived in the import worker and carried to the page in parts
 * small enough that no one message takes long to read: a structured clone of 100,000 events and
 * their wire rows at once held the page for over a second. The head (findings, calls, logs…)
 * comes first, then the events and the wire rows in slices; the page rebuilds the trace index
 * from the events a slice at a time, yielding between slices, and has the very view
 * `deriveRunView` gave the worker.
 */
import { createTraceIndex, type TraceEvent } from '../../src/trace/index.ts';
import type { RunView, WireCells, WireRow } from '../../src/views/index.ts';

export type ViewHead = Omit<RunView, 'trace' | 'index' | 'wire' | 'cells'>;

export type ViewPart = { kind: 'head'; head: ViewHead } | { kind: 'events'; events: TraceEvent[] } | { kind: 'rows'; wire: WireRow[]; cells: WireCells[] };

/** Events or wire rows per part: each part reads in a few milliseconds. */
export const PART_SIZE = 500;

export function* viewParts(view: RunView, size = PART_SIZE): Generator<ViewPart> {
  const { trace, wire, cells } = view;
  const head: ViewHead = {
    scenario: view.scenario,
    setting: view.setting,
    calls: view.calls,
    connections: view.connections,
    ledger: view.ledger,
    negotiated: view.negotiated,
    status: view.status,
    holding: view.holding,
    logs: view.logs,
    errors: view.errors,
    findings: view.findings,
    verdict: view.verdict,
    badges: view.badges,
    lastT: view.lastT,
  };
  yield { kind: 'head', head };
  for (let i = 0; i < trace.length; i += size) yield { kind: 'events', events: trace.slice(i, i + size) };
  for (let i = 0; i < wire.length; i += size) yield { kind: 'rows', wire: wire.slice(i, i + size), cells: cells.slice(i, i + size) };
}

export interface ViewAssembler {
  add(part: ViewPart): void;
  /** The view, its trace index built `sliceMs` at a time with `pause` between slices. */
  finish(pause: () => Promise<void>, sliceMs?: number): Promise<RunView>;
}

export function createViewAssembler(): ViewAssembler {
  let head: ViewHead | null = null;
  const trace: TraceEvent[] = [];
  const wire: WireRow[] = [];
  const cells: WireCells[] = [];
  return {
    add(part) {
      if (part.kind === 'head') head = part.head;
      else if (part.kind === 'events') for (const e of part.events) trace.push(e);
      else {
        for (const r of part.wire) wire.push(r);
        for (const c of part.cells) cells.push(c);
      }
    },
    async finish(pause, sliceMs = 30) {
      if (head === null) throw new Error('the view came without its head');
      const builder = createTraceIndex();
      let slice = performance.now();
      for (const [i, e] of trace.entries()) {
        builder.add(e);
        if (i % 500 === 0 && performance.now() - slice > sliceMs) {
          await pause();
          slice = performance.now();
        }
      }
      return { ...head, trace, index: builder.index, wire, cells };
    },
  };
}
