/**
 * The built site served the way a static host serves it: every text file compressed once,
 * ahead of any request (a `.gz` beside it), and handed out as stored (sirv). `vite preview`
 * instead gzips each response as it sends it, in one Node process on the same two cores as
 * the browser it serves, so a cold page load there also waits for about 1.5 MB of JavaScript
 * being compressed. The bench times the playground's load under both.
 */
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import sirv from 'sirv';

const COMPRESSED = /\.(?:html|js|mjs|css|svg|json|xml|txt)$/;

/** Writes `file.gz` beside every text file under `dir`, as a host's deploy step does. */
function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) precompress(path);
    else if (COMPRESSED.test(name)) writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: 9 }));
  }
}

/** Serves `dir` on `port` (localhost) until the returned server is closed. */
export async function serveStatic(dir: string, port: number): Promise<Server> {
  precompress(dir);
  const server = createServer(sirv(dir, { gzip: true, etag: true }));
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return server;
}
