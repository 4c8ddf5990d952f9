import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './tests/e2e/chromium.mjs';

const PORT = Number(process.env.E2E_PORT ?? 4329);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  webServer: {
    // The tests run against the built site, as users get it.
    command: `astro build --outDir dist-e2e && vite preview --outDir dist-e2e --port ${PORT} --strictPort --host localhost`,
    url: `http://localhost:${PORT}/playground/`,
    reuseExistingServer: !process.env.CI,
    timeout: 600_000,
  },
});
