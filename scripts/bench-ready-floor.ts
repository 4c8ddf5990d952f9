/**
 * A page for the floor of the playground's time to ready (bench.ts times both in one browser,
 * loads alternating): its head script starts ready-floor/worker.ts, bundled by Vite as the
 * site's build bundles the sides' worker, and records when that worker has connected the bare
 * SDK pair. What the playground takes beyond it is the page, the engine and the simulated wire.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

declare global {
  interface Window {
    /** ms from navigation start until the floor's worker had connected its pair. */
    __readyFloorMs?: number;
  }
}

/** Writes the floor page and its worker under `dir`/ready-floor/; returns the page's path on the host. */
export async function writeReadyFloor(dir: string): Promise<string> {
  const out = join(dir, 'ready-floor');
  mkdirSync(out, { recursive: true });
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    // Minified, as the site's build minifies the sides' worker (a library build would not).
    build: { write: false, minify: true, lib: { entry: fileURLToPath(new URL('./ready-floor/worker.ts', import.meta.url)), formats: ['es'], fileName: 'worker' } },
  });
  const chunks = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : [])).filter((f) => f.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`the floor's worker should be one chunk, not ${chunks.length}`);
  writeFileSync(join(out, 'worker.js'), chunks[0]?.code ?? '');
  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ready floor</title>
<script>new Worker('/ready-floor/worker.js', { type: 'module' }).onmessage = () => { window.__readyFloorMs = performance.now(); };</script>
</head><body><p>The bare SDK pair, in a worker.</p></body></html>\n`,
  );
  return '/ready-floor/';
}
