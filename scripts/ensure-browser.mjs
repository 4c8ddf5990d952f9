// Before the browser tests: make sure a Chromium is there. Debian's package is preferred
// (Playwright's own download does not work on machines without general network access).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from '../tests/e2e/chromium.mjs';

if (findChromium() !== undefined) process.exit(0);

const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (root && existsSync('/usr/bin/apt-get')) {
  console.log('No Chromium found: installing Debian\'s chromium package (apt-get install -y chromium)…');
  execSync('apt-get update && apt-get install -y chromium', { stdio: 'inherit' });
  if (findChromium() !== undefined) process.exit(0);
}
console.error(
  'The browser tests need Chromium. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu) ' +
    'or `npx playwright install chromium`, then run `npm test` again.',
);
process.exit(1);
