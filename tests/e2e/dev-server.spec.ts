/**
 * A newcomer's `npm run dev`: on an empty Vite cache, the first playground visit connects and
 * takes a Call without the dev server re-bundling the workers' dependencies and reloading the
 * page (it did, 6–8 s in, when those dependencies were found only as the workers started).
 * This test starts its own `astro dev` on a free port with a cache directory of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/** A port nothing listens on now, as the system hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, 'localhost', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

let dev: ChildProcess | undefined;
let cache = '';
let base = '';
/** Everything the dev server printed, to show when the page reloads and why. */
let log = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  cache = mkdtempSync(join(tmpdir(), 'cancel-lab-vite-'));
  dev = spawn('node_modules/.bin/astro', ['dev', '--port', String(port), '--host', 'localhost'], {
    env: { ...process.env, CANCEL_LAB_VITE_CACHE: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  dev.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  await expect
    .poll(() => fetch(`${base}/`).then((r) => r.ok, () => false), { timeout: 120_000, intervals: [250] })
    .toBe(true);
});

test.afterAll(() => {
  dev?.kill();
  if (cache) rmSync(cache, { recursive: true, force: true });
});

test('the first playground visit on an empty Vite cache connects and takes a Call without a re-bundle or a reload', async ({ page }) => {
  test.setTimeout(180_000);
  // A dependency found late is answered 504 (Outdated Optimize Dep) while the server re-bundles.
  const outdated: string[] = [];
  page.context().on('response', (r) => r.status() === 504 && outdated.push(r.url()));
  let ready = false;
  let navigationsAfterReady = 0;
  page.on('framenavigated', (frame) => frame === page.mainFrame() && ready && navigationsAfterReady++);
  await page.goto(`${base}/playground/`, { timeout: 120_000 });
  await expect(page.locator('.playground[data-ready="true"]')).toBeVisible({ timeout: 120_000 });
  ready = true;
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const result = page.locator('#wire-table tbody tr').filter({ has: page.locator('td', { hasText: /^result of tools\/call/ }) });
  await expect(result).toHaveCount(1, { timeout: 30_000 });
  // A re-bundle found late reloads the page a few seconds after it connected.
  await page.waitForTimeout(3000);
  expect(log).not.toContain('optimized dependencies changed');
  expect(outdated).toEqual([]);
  expect(navigationsAfterReady).toBe(0);
  await expect(result).toHaveCount(1);
});
