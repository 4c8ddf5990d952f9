/**
 * The playground's first script: it starts the two workers before anything else, so their
 * scripts load, compile and import the SDK (the longest part of getting ready) while the page's
 * own, larger script and its chunks are still loading; the page's first session takes the pair
 * (browser-sides.ts).
 *
 * It imports nothing, on purpose: an import shared with the page's script would become a chunk
 * of its own, one more round trip before the workers start. So the two `new Worker` lines are
 * also in browser-sides.ts, which makes the workers of every later run and of the embeds; the
 * bundler emits one script per worker for both.
 */
window.__cancelLabEarlyWorkers = {
  client: new Worker(new URL('../../workers/client.worker.ts', import.meta.url), { type: 'module', name: 'mcp-client' }),
  server: new Worker(new URL('../../workers/server.worker.ts', import.meta.url), { type: 'module', name: 'mcp-server' }),
};
