import { expect, test } from '@playwright/test';

/**
 * How the playground gets ready: every module the page's scripts import is asked for from the
 * HTML at once (a modulepreload link), none discovered a level later by parsing another. (The
 * workers' scripts are started by an inline script at the top of the head; their resource
 * timings are not comparable with the page's, so only their arrival is checked here.)
 */
test('the playground asks for all its modules from the HTML', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground[data-ready="true"]')).toBeAttached();
  const load = await page.evaluate(() => {
    const modules = performance.getEntriesByType('resource').filter((r): r is PerformanceResourceTiming => r instanceof PerformanceResourceTiming && /\/_astro\/.+\.js$/.test(r.name));
    const entries = [...document.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')].map((s) => s.src);
    const preloaded = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href);
    const path = (url: string): string => new URL(url).pathname;
    return {
      workers: modules.filter((r) => /\.worker-/.test(r.name)).map((r) => path(r.name).replace(/-[^/]+$/, '')),
      // Modules the page itself loaded: not the workers' scripts, not an entry or a preloaded one.
      late: modules.filter((r) => !/\.worker-/.test(r.name) && !entries.includes(r.name) && !preloaded.includes(r.name)).map((r) => path(r.name)),
      preloaded: preloaded.length,
    };
  });
  // Both sides run in one worker, started once.
  expect(load.workers).toEqual(['/_astro/sides.worker']);
  expect(load.preloaded).toBeGreaterThan(0);
  expect(load.late, 'modules found only by parsing another module').toEqual([]);
});
