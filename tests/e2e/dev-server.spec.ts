import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * `npm start` as a newcomer meets it: the dev server, with an empty dependency cache, serves the
 * playground, and the page connects on the first visit without Vite re-bundling the workers'
 * dependencies and reloading it (astro.config.mjs declares them).
 */
const PORT = Number(process.env.E2E_DEV_PORT ?? 4402);
let server: ChildProcess | undefined;
let cache = '';
let log = '';

test.beforeAll(async () => {
  cache = mkdtempSync(join(tmpdir(), 'cancel-lab-vite-'));
  server = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'dev', '--port', String(PORT)], {
    env: { ...process.env, CANCEL_LAB_VITE_CACHE: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer): void => {
      log += chunk.toString();
      if (log.includes(`localhost:${PORT}`)) resolve();
    };
    server?.stdout?.on('data', take);
    server?.stderr?.on('data', take);
    server?.on('exit', (code) => reject(new Error(`astro dev exited with ${String(code)}:\n${log}`)));
  });
  await started;
});

test.afterAll(() => {
  server?.kill();
  rmSync(cache, { recursive: true, force: true });
});

test('the dev server’s first playground visit connects without a dependency reload', async ({ page }) => {
  test.setTimeout(120_000);
  let loads = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) loads++;
  });
  await page.goto(`http://localhost:${PORT}/playground/`);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version', { timeout: 60_000 });
  expect(loads, 'the page was loaded once, not reloaded by the dependency optimizer').toBe(1);
  expect(log).not.toContain('optimized dependencies changed');
});
