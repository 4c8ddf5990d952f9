/**
 * The requests a forged frame can be for that every run has: the handshake's, and any id typed
 * below. The Faults panel lists them after the run's calls; the page is served with them in its
 * select already, so that filling it in for a fresh run (no calls yet) changes nothing and moves
 * nothing beside it.
 */
export const FIXED_TARGETS = [
  ['initialize', 'initialize'],
  ['any', 'any id (below)'],
] as const;
