import { expect, test } from '@playwright/test';
import { libraryEntry } from '../../src/scenario/library.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';
import { LAYOUT_LATER_CLASS } from '../../site/lib/playground/first-layout.ts';

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

/**
 * A fresh playground's worker starts the fresh run by itself (workers/first-run.ts): the page
 * sends it neither the start nor the handshake, and is ready with the handshake on the wire.
 * With a link, the page starts the link's run itself.
 */
/** Records the op of every command the page posts to a worker, on `window.__ops`. */
function recordOps(): void {
  const ops: string[] = [];
  (window as unknown as { __ops: string[] }).__ops = ops;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
    const op = (message as { command?: { op?: unknown } } | null)?.command?.op;
    if (typeof op === 'string') ops.push(op);
    return post.call(this, message, ...rest);
  } as typeof post;
}

test('a fresh playground\'s worker plays the first run\'s start and handshake by itself; a link\'s run is started by the page', async ({ page }) => {
  await page.addInitScript(recordOps);
  const sentOps = (): Promise<string[]> => page.evaluate(() => (window as unknown as { __ops: string[] }).__ops);
  await page.goto('/playground/');
  await expect(page.locator('.playground[data-ready="true"]')).toBeAttached();
  await expect(page.locator('#wire-table tbody')).toContainText('notifications/initialized');
  expect(await sentOps()).not.toContain('start');
  expect(await sentOps()).not.toContain('handshake');

  const entry = libraryEntry('race-r1-cancel-after-response');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`/playground/#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  expect(await sentOps()).toContain('start');
});

/**
 * The worker answers on its own port, which keeps nothing for a listener that comes later: what
 * it says before the page's code listens is kept by the head script. Here the page's code comes
 * a second late, long after the worker has played the fresh run's start and handshake.
 */
test('a fresh run answered before the page\'s code is read is taken up all the same: the handshake on the wire, nothing sent again', async ({ page }) => {
  await page.addInitScript(recordOps);
  await page.route(/\/_astro\/playground\.astro_astro_type_script[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue();
  });
  await page.goto('/playground/');
  await expect(page.locator('.playground[data-ready="true"]')).toBeAttached();
  await expect(page.locator('#wire-table tbody')).toContainText('notifications/initialized');
  const sent = await page.evaluate(() => (window as unknown as { __ops: string[] }).__ops);
  expect(sent).not.toContain('start');
  expect(sent).not.toContain('handshake');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#wire-table tbody')).toContainText('tools/call');
});

/**
 * Nothing jumps while the playground gets ready: the room the panels fill for the fresh run is
 * kept in the page as it is served (workbench.css), so the layout shifts the browser reports
 * from navigation until both sides are connected add up to almost nothing (they were 0.24 at
 * 1400×900 and 0.19 at 390×844, the timeline alone pushing the wire log 234 px down).
 */
for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
  test(`at ${viewport.width}×${viewport.height} nothing moves while the playground gets ready`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const shifts: { value: number; what: string[] }[] = [];
      (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources: { node?: Node | null }[] })[]) {
          shifts.push({ value: entry.value, what: entry.sources.map((s) => (s.node instanceof Element ? `${s.node.tagName.toLowerCase()}${s.node.id ? `#${s.node.id}` : ''}.${s.node.className}` : String(s.node?.nodeName))) });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/playground/');
    await expect(page.locator('.playground[data-ready="true"]')).toBeAttached();
    await expect(page.locator('#conn-status')).toContainText('Connected');
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: { value: number; what: string[] }[] }).__shifts);
    const total = shifts.reduce((sum, s) => sum + s.value, 0);
    expect(total, `layout shifts: ${JSON.stringify(shifts)}`).toBeLessThan(0.01);
    await context.close();
  });
}

/**
 * The workbench's first layout waits until the worker has started (lib/playground/first-layout.ts):
 * the head script keeps it out of layout for a moment, and lets it go by itself, whether or not
 * the page's code has come by then; a page without scripts shows it at once.
 */
test('the workbench is laid out a moment after the head, before the page\'s code if that is late, and at once without scripts', async ({ page, browser }) => {
  await page.addInitScript((className) => {
    const seen: string[] = [];
    (window as unknown as { __layoutLater: string[] }).__layoutLater = seen;
    // On the document, not its root element: the parser makes the root after this script.
    new MutationObserver(() => {
      const later = document.documentElement.classList.contains(className);
      if (seen.at(-1) !== String(later)) seen.push(String(later));
    }).observe(document, { attributes: true, attributeFilter: ['class'], subtree: true });
  }, LAYOUT_LATER_CLASS);
  // The page's code is handed over only once the workbench is laid out, or after 3 s.
  let laidOutBeforeCode: boolean | null = null;
  await page.route(/\/_astro\/playground\.astro_astro_type_script[^/]*\.js$/, async (route) => {
    laidOutBeforeCode = await page
      .waitForFunction((className) => document.querySelector('.workbench') !== null && !document.documentElement.classList.contains(className), LAYOUT_LATER_CLASS, { timeout: 3000 })
      .then(() => true, () => false);
    await route.continue();
  });
  await page.goto('/playground/');
  await expect(page.locator('.playground[data-ready="true"]')).toBeAttached();
  expect(laidOutBeforeCode).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __layoutLater: string[] }).__layoutLater)).toEqual(['true', 'false']);
  await expect(page.locator('.workbench')).toHaveCSS('content-visibility', 'visible');

  const context = await browser.newContext({ javaScriptEnabled: false });
  const still = await context.newPage();
  await still.goto('/playground/');
  await expect(still.locator('.workbench')).toHaveCSS('content-visibility', 'visible');
  await expect(still.locator('#call')).toBeVisible();
  await context.close();
});

test('served off a secure context (plain http to another host), the playground and an embed say what to do, not the worker\'s TypeError', async ({ context, baseURL }) => {
  // A host name that is not localhost, over http: the origin the page sees is not secure, as the
  // dev server opened from a phone on the LAN is. Its requests are served by the test's server.
  await context.route('http://lab.test/**', (route) => route.continue({ url: route.request().url().replace('http://lab.test', baseURL ?? '') }));
  const page = await context.newPage();
  await page.goto('http://lab.test/playground/');
  expect(await page.evaluate(() => isSecureContext)).toBe(false);
  const advice = 'this page is not a secure context (http://lab.test), and the client and server need one. Open it over https, or from localhost on this machine.';
  await expect(page.locator('#conn-status')).toHaveText(`The workers could not start: ${advice}`);
  const entry = libraryEntry('stop-after-commit-is-not-rollback');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`http://lab.test/embed/#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
  await expect(page.getByText(advice)).toBeVisible();
});
