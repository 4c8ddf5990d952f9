/**
 * One browser module and its stylesheet, bundled by Vite as a single script a blank page can take
 * (the benchmark injects it with `addScriptTag` and measures it alone, without the site around it).
 */
import { build } from 'vite';

export async function bundleForPage(entry: string, globalName: string): Promise<{ js: string; css: string }> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, lib: { entry, formats: ['iife'], name: globalName, fileName: globalName } },
  });
  const files = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const js = files.map((f) => (f.type === 'chunk' ? f.code : '')).join('\n');
  const css = files.map((f) => (f.type === 'asset' && f.fileName.endsWith('.css') ? String(f.source) : '')).join('\n');
  return { js, css };
}
