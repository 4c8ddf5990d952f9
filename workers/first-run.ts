/**
 * The run a playground opened without a link or saved work starts with, and how its handshake
 * is played. The page's head script (site/pages/playground.astro) starts the sides' worker under
 * FRESH_RUN_WORKER (worker-names.ts), and the worker plays these commands as soon as it has
 * loaded (sides-start.ts), before the page's own code is read; the session then takes that run
 * as its first (RunChannel.takePrestart) when it is the one it starts.
 */
import { defaultScenario, type Scenario } from '../src/scenario/index.ts';
import type { RunCommand } from './run-service.ts';

/** The default scenario, played until the user stops. */
export function freshScenario(): Scenario {
  return { ...defaultScenario(), endAt: Number.MAX_SAFE_INTEGER };
}

/**
 * A new live run plays its handshake at once, up to this virtual time, and its clock starts where
 * the client is connected: the handshake is not the user's race, and pacing it at 1× only kept
 * the page from being ready. A handshake that takes longer (a slow wire, a dropped initialize)
 * plays on live from there.
 */
export const CONNECT_AT_ONCE_MS = 1_000;

/** The first commands of a fresh playground's run, numbered as a RunChannel numbers them. */
export function prestartCommands(): { id: number; command: RunCommand }[] {
  return [
    { id: 0, command: { op: 'start', scenario: freshScenario() } },
    { id: 1, command: { op: 'handshake', through: CONNECT_AT_ONCE_MS } },
  ];
}
