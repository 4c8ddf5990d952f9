// Where the browser tests find Chromium: Debian's /usr/bin/chromium first, else Playwright's own.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** @returns {string | undefined} an executable path, or undefined when no Chromium is installed */
export function findChromium() {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const bundled = chromium.executablePath();
  return existsSync(bundled) ? bundled : undefined;
}
