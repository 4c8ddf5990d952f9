import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';

/**
 * `npm start` as a newcomer meets it: the dev server, with an empty dependency cache, serves the
 * playground, and the page connects on the first visit without Vite re-bundling the workers'
 * dependencies and reloading it (astro.config.mjs declares them).
 */
const PORT = Number(process.env.E2E_DEV_PORT ?? 4402);
let server: ChildProcess | undefined;
const CACHE = 'node_modules/.vite';
let log = '';

test.beforeAll(async () => {
  // Vite's dependency cache, emptied, as on a fresh clone. (Pointing the config at another
  // folder instead would change the Astro config, and Astro reloads the page when it rebuilds
  // its content store for a changed config.)
  rmSync(CACHE, { recursive: true, force: true });
  server = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'dev', '--port', String(PORT)], {
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
});

test('the dev server’s first playground visit connects without a dependency reload', async ({ page }) => {
  test.setTimeout(120_000);
  let loads = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) loads++;
  });
  await page.goto(`http://localhost:${PORT}/playground/`);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version', { timeout: 60_000 });
  expect(loads, `the page was loaded once, not reloaded; the dev server said:\n${log}`).toBe(1);
  expect(log).not.toContain('optimized dependencies changed');
});
