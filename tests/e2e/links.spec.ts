/**
 * Every link of the built site to its own pages leads somewhere: a page or file the build has,
 * and, with a fragment, an element of that id on it. Read off the build the tests are served
 * from (dist-e2e/, playwright.config.ts), because the preview server answers any unknown path
 * with the home page and a 200, so asking it would find nothing broken. A fragment that is a
 * permalink (`#v1.…` on the playground or an embed) names a scenario, not an element.
 */
import { expect, test } from '@playwright/test';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUILD = fileURLToPath(new URL('../../dist-e2e/', import.meta.url));

async function htmlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await htmlFiles(path)));
    else if (entry.name.endsWith('.html')) found.push(path);
  }
  return found;
}

/** The site path a built file is served at: `/lessons/races/` for lessons/races/index.html. */
function pagePath(file: string): string {
  const rel = file.slice(BUILD.length).split('\\').join('/');
  return `/${rel.endsWith('index.html') ? rel.slice(0, -'index.html'.length) : rel}`;
}

/** The built file a site path is served from, if the build has one. */
async function fileOf(path: string): Promise<string | null> {
  const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`, `${path}.html`];
  for (const candidate of candidates) {
    const file = join(BUILD, decodeURIComponent(candidate));
    if (await stat(file).then((s) => s.isFile(), () => false)) return file;
  }
  return null;
}

const decodeEntities = (s: string): string => s.replace(/&amp;/g, '&').replace(/&#38;/g, '&').replace(/&quot;/g, '"');

test('every link of the site to its own pages reaches a built page, and every fragment an element on it', async () => {
  const files = await htmlFiles(BUILD);
  expect(files.length).toBeGreaterThan(10);
  const ids = new Map<string, Set<string>>();
  const idsOf = async (file: string): Promise<Set<string>> => {
    let set = ids.get(file);
    if (!set) {
      const html = await readFile(file, 'utf8');
      set = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? '')));
      ids.set(file, set);
    }
    return set;
  };
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    const html = await readFile(file, 'utf8');
    const from = pagePath(file);
    for (const match of html.matchAll(/\shref="([^"]*)"/g)) {
      const href = decodeEntities(match[1] ?? '');
      if (/^[a-z][a-z+.-]*:/i.test(href) || href.startsWith('//')) continue;
      const [target = '', fragment] = href.split('#', 2);
      const pathOnly = target.split('?')[0] ?? '';
      let resolved = posix.resolve(from.endsWith('/') ? from : posix.dirname(from), pathOnly);
      if (pathOnly.endsWith('/') && resolved !== '/') resolved += '/';
      const targetFile = pathOnly === '' ? file : await fileOf(resolved);
      checked++;
      if (targetFile === null) {
        broken.push(`${from}: ${href} (no page at ${resolved})`);
        continue;
      }
      if (fragment === undefined || fragment === '' || /^v\d+\./.test(fragment)) continue;
      if (!(await idsOf(targetFile)).has(decodeURIComponent(fragment))) broken.push(`${from}: ${href} (no element #${fragment} there)`);
    }
  }
  expect(checked).toBeGreaterThan(500);
  expect(broken).toEqual([]);
});
