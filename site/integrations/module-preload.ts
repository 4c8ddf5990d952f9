/**
 * Lets a page fetch every module its scripts import at once, instead of one level of imports per
 * round trip. A built page names only its entry scripts; the browser learns of an entry's imports
 * when the entry has arrived and been parsed, and of theirs one level later (the playground's
 * went three deep, about 200 ms after the HTML). So after the build, each page gets a
 * `<link rel="modulepreload">` for each module its entry scripts import, directly or not, read off
 * the client bundle's own chunk graph rather than by scanning the emitted code.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';

/** Each client chunk's static imports, by the path a page refers to it with. */
type ChunkGraph = Map<string, readonly string[]>;

const ENTRY = /<script type="module" src="(\/[^"]+)"/g;

/** Every module `entries` import, directly or not, in a stable order (first reached first). */
export function importsOf(graph: ChunkGraph, entries: readonly string[]): string[] {
  const seen = new Set(entries);
  const out: string[] = [];
  const pending = [...entries];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    for (const dep of graph.get(next) ?? []) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      out.push(dep);
      pending.push(dep);
    }
  }
  return out;
}

/** The page with a modulepreload link at the end of its head for each module its entries import. */
export function withPreloads(html: string, graph: ChunkGraph): string {
  const entries = [...html.matchAll(ENTRY)].map((m) => m[1] ?? '');
  const links = importsOf(graph, entries)
    .filter((href) => !html.includes(`href="${href}"`))
    .map((href) => `<link rel="modulepreload" href="${href}">`)
    .join('');
  return links === '' ? html : html.replace('</head>', `${links}</head>`);
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

export function modulePreload(): AstroIntegration {
  const graph: ChunkGraph = new Map();
  let base = '/';
  const recordGraph: Plugin = {
    name: 'cancel-lab:chunk-graph',
    generateBundle(_options, bundle) {
      // Only the client build's chunks are what pages load.
      if (this.environment.name !== 'client') return;
      for (const out of Object.values(bundle)) {
        if (out.type === 'chunk') graph.set(base + out.fileName, out.imports.map((file) => base + file));
      }
    },
  };
  return {
    name: 'cancel-lab:module-preload',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        base = config.base.endsWith('/') ? config.base : `${config.base}/`;
        updateConfig({ vite: { plugins: [recordGraph] } });
      },
      'astro:build:done': async ({ dir }) => {
        for (const file of await htmlFiles(fileURLToPath(dir))) {
          const html = await readFile(file, 'utf8');
          const next = withPreloads(html, graph);
          if (next !== html) await writeFile(file, next);
        }
      },
    },
  };
}
