/**
 * What a sides worker serves, said by its name: the one thing a worker has from its first
 * instruction on. Each serves on its own global port (no first message naming a port), so the
 * page's main thread, busy reading the page's own modules while the worker loads, never has to
 * relay anything before the worker can start or answer.
 */

/** Serves the playground's runs (workers/run-service.ts). */
export const RUN_WORKER = 'mcp-sides';

/** Serves the playground's runs, and starts the fresh run by itself first (workers/first-run.ts). */
export const FRESH_RUN_WORKER = 'mcp-sides (fresh run)';

/** Serves whole schedules, a lane of the explorer's pool (src/explore/pool.ts). */
export const EXPLORE_LANE_WORKER = 'mcp-sides (explorer lane)';
