/**
 * A built page lists every module its entry scripts import as a modulepreload link, so the
 * browser fetches them all at once instead of one level of imports per round trip.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importsOf, withPreloads } from '../../site/integrations/module-preload.ts';

// An entry importing two chunks that share a third, which imports the first back (a cycle).
const graph = new Map([
  ['/_astro/page.js', ['/_astro/views.js', '/_astro/session.js']],
  ['/_astro/views.js', ['/_astro/scenario.js']],
  ['/_astro/session.js', ['/_astro/scenario.js']],
  ['/_astro/scenario.js', ['/_astro/views.js']],
  ['/_astro/other.js', ['/_astro/unused.js']],
]);

const page = (head = ''): string =>
  `<!doctype html><html><head><title>t</title>${head}</head><body><script type="module" src="/_astro/page.js"></script></body></html>`;

describe('module preloads', () => {
  test('every module an entry imports, directly or not, once, nearest first', () => {
    assert.deepEqual(importsOf(graph, ['/_astro/page.js']), ['/_astro/views.js', '/_astro/session.js', '/_astro/scenario.js']);
  });

  test('the links go at the end of the head, and a page without module scripts is left alone', () => {
    const html = withPreloads(page(), graph);
    assert.equal(
      html,
      page('<link rel="modulepreload" href="/_astro/views.js"><link rel="modulepreload" href="/_astro/session.js"><link rel="modulepreload" href="/_astro/scenario.js">'),
    );
    const plain = '<html><head></head><body><p>no scripts</p></body></html>';
    assert.equal(withPreloads(plain, graph), plain);
  });

  test('a module the page already links is not linked twice, and a run over a processed page changes nothing', () => {
    const linked = page('<link rel="modulepreload" href="/_astro/session.js">');
    const html = withPreloads(linked, graph);
    assert.equal(html.match(/href="\/_astro\/session\.js"/g)?.length, 1);
    assert.equal(withPreloads(html, graph), html);
  });
});
