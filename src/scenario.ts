/**
 * A scenario is everything that decides a run. A run is a pure function of it: the same
 * scenario gives the same trace, frame for frame and virtual millisecond for millisecond.
 */
import type { UserAction } from './trace.ts';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

export interface Step {
  /** Virtual time in ms at which the user acts. */
  at: number;
  action: UserAction;
}

export interface Scenario {
  version: 1;
  revision: Revision;
  transport: 'stdio';
  /** One-way latency per direction, in virtual ms. */
  latency: { c2s: number; s2c: number };
  steps: Step[];
  /** The run stops at this virtual time even if timers are still pending (the SDK's 60 s request timeout, say). */
  endAt: number;
}

export function defaultScenario(): Scenario {
  return { version: 1, revision: '2025-11-25', transport: 'stdio', latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 10_000 };
}
