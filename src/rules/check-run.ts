/**
 * The one way product code judges a run: the catalog's rules for the revision the run really
 * negotiated and the scenario's transport, applied to its trace (and to its index, when the
 * caller has built it already). A trace `cancel-lab probe` recorded is judged for the server
 * it probed (probe-trace.ts).
 */
import { REVISIONS, type Revision, type Scenario } from '../scenario/index.ts';
import type { TraceEvent, TraceIndex } from '../trace/index.ts';
import { CATALOG } from './catalog.ts';
import { check, type Finding } from './checker.ts';
import { probeTraceFindings } from './probe-trace.ts';

function isRevision(version: string): version is Revision {
  return (REVISIONS as readonly string[]).includes(version);
}

/**
 * The revision a run is judged by: the one the client reports it negotiated on its latest
 * connection (a reconnect negotiates again), not the one the scenario asked for — a server may
 * answer initialize with another version, and then that revision's rules are the ones that
 * bind. A run that never connected, or agreed on a version no revision here names, is judged
 * by the scenario's.
 */
export function judgedRevision(scenario: Pick<Scenario, 'revision'>, trace: readonly TraceEvent[]): Revision {
  const last = trace.findLast((e) => e.kind === 'handler' && e.note.type === 'connected');
  const agreed = last?.kind === 'handler' && last.note.type === 'connected' ? last.note.protocolVersion : null;
  return agreed !== null && isRevision(agreed) ? agreed : scenario.revision;
}

export function checkRun(scenario: Pick<Scenario, 'revision' | 'transport'>, trace: readonly TraceEvent[], index?: TraceIndex): Finding[] {
  return probeTraceFindings(check(CATALOG, judgedRevision(scenario, trace), scenario.transport, trace, index), trace);
}

/** The rules a run breaks (MUST / SHOULD violated, not info): what a library file's `violates` records. */
export function violatedRules(scenario: Pick<Scenario, 'revision' | 'transport'>, trace: readonly TraceEvent[]): string[] {
  const rules = checkRun(scenario, trace)
    .filter((f) => f.verdict === 'violated' && f.severity !== 'info')
    .map((f) => f.rule);
  return [...new Set(rules)].sort();
}
