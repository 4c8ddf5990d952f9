/**
 * From an imported log to a link a maintainer replays: "Make a scenario from this trace" runs
 * the scenario made from the import at once and marks each imported frame against its run;
 * Share and the bug report describe the import while it is shown, and carry the made scenario's
 * permalink once there is one. And a 100,000-event import shows its progress as it is read.
 */
import { expect, test, type Page } from '@playwright/test';
import { importSample, sample } from './import-samples.ts';
import { paintedValues, samplePaints } from './painted.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';


const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('a python-sdk 1.x log becomes a scenario whose run matches it frame for frame; its link goes into the bug report', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await importSample(page, 'stdio-python-v1-code-0.log');
  // While the import is shown, Share and the bug report are about it: it has no link yet.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.locator('#share-message')).toContainText('This is the trace imported from stdio-python-v1-code-0.log: it has no link of its own');
  await page.getByRole('button', { name: 'Copy bug report (Markdown)' }).click();
  await expect(page.locator('#share-message')).toContainText('Bug report copied');
  const before = await clipboard(page);
  expect(before).toContain('- Captured outside the lab: stdio\\-python\\-v1\\-code\\-0.log (a stdio log');
  expect(before).toContain('**Replay it:** no lab scenario has been made from this trace yet');

  await page.getByRole('button', { name: 'Make a scenario from this trace' }).click();
  await expect(page.locator('#import-match')).toHaveText('The scenario’s run against the imported trace: 10 of 10 frames match.');
  await expect(page.locator('#import-match-rows li.matched')).toHaveCount(10);
  await expect(page.locator('#import-match-rows li').first()).toContainText('✓ matched · frame 0: client → server request initialize #1');
  await expect(page.locator('#import-scenario-notes')).toContainText('python-sdk 1.x (emulated)');
  // The page now shows the scenario's run: its two calls, the code-0 answer in the wire log.
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(2);
  await expect(page.locator('#wire-scroll')).toContainText('Request cancelled');

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.locator('#share-link')).toHaveValue(/\/playground\/#v1\./);
  const link = await page.locator('#share-link').inputValue();
  await page.getByRole('button', { name: 'Copy bug report (Markdown)' }).click();
  await expect(page.locator('#share-message')).toContainText('Bug report copied');
  const report = await clipboard(page);
  expect(report).toContain(`**Replay it:** ${link}`);
  expect(report).toContain('its run against the capture: 10 of 10 frames match.');
  expect(report).toContain('server: python-sdk 1.x (1.27–1.29) — emulated');

  // The link replays the same run for whoever opens it.
  await page.goto(link);
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(2);
});

test('a real Inspector export: each answer arrives in the run when the Inspector saw it; the one frame left is the Inspector client’s own, and a note says why', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('tab', { name: 'Share' }).click();
  // The export does not say which transport the server used.
  await page.locator('#import-transport').selectOption('stdio');
  await page.locator('#import-file').setInputFiles(sample('inspector-sdk-v2-stdio.json'));
  await expect(page.locator('#import-message')).toContainText('Imported inspector-sdk-v2-stdio.json');
  await page.getByRole('button', { name: 'Make a scenario from this trace' }).click();
  await expect(page.locator('#import-match')).toHaveText('The scenario’s run against the imported trace: 8 of 9 frames match; 1 differ.');
  await expect(page.locator('#import-match-rows li.differs')).toHaveText(['≠ differs · frame 2: client → server notifications/initialized — written at 375 ms in the run, 397 ms in the log (-22 ms)']);
  await expect(page.locator('#import-scenario-notes')).toContainText("The lab's server reads initialize 315 ms late");
  await expect(page.locator('#import-scenario-notes')).toContainText("the lab's client writes it as the answer arrives");
});

test('a HAR of HTTP+SSE: the one frame the lab cannot express is marked missing, the rest match', async ({ page }) => {
  await importSample(page, 'har-http-sse-cancel.har');
  await page.getByRole('button', { name: 'Make a scenario from this trace' }).click();
  await expect(page.locator('#import-match')).toHaveText('The scenario’s run against the imported trace: 17 of 18 frames match; 1 missing from the run.');
  await expect(page.locator('#import-match-rows li.missing')).toHaveText(['✗ missing · frame 14: server → client HTTP end of GET']);
});

test('a 100,000-event import: the progress bar moves in front of the user while it is read, then the wire log holds every frame', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(join(tmpdir(), 'cancel-lab-import-'));
  const lines = ['> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}', '< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}'];
  for (let i = 1; lines.length < 50_000; i++) lines.push(`> {"jsonrpc":"2.0","id":${i},"method":"ping"}`, `< {"jsonrpc":"2.0","id":${i},"result":{}}`);
  const file = join(dir, 'big.log');
  // 50,000 frames and their 50,000 deliveries: 100,000 trace events.
  await writeFile(file, lines.join('\n'));
  try {
    await page.goto('/playground/');
    await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
    await page.getByRole('tab', { name: 'Share' }).click();
    await samplePaints(page, 'import-progress');
    await page.locator('#import-file').setInputFiles(file);
    await expect(page.locator('#import-message')).toContainText('Imported big.log: a stdio log', { timeout: 120_000 });
    await expect(page.locator('#wire-count')).toHaveText('50000 of 50000 frames', { timeout: 60_000 });
    // The worker reports every 1,000 lines read: the page painted the bar at many of those values, rising.
    const painted = await paintedValues(page, 'import-progress');
    expect(painted.length, `painted at ${painted.join(', ')}`).toBeGreaterThanOrEqual(3);
    expect(painted).toEqual([...painted].sort((a, b) => a - b));
    await expect(page.locator('#import-progress')).toBeHidden();
    // The last ping and its answer are there to look up.
    await page.locator('#wire-id').fill('24999');
    await expect(page.locator('#wire-table tbody tr')).toHaveCount(2);
    await expect(page.locator('#wire-count')).toHaveText('2 of 50000 frames');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the how-to is in the docs sidebar and walks through the sample', async ({ page }) => {
  await page.goto('/guides/getting-started/');
  await page.locator('nav[aria-label="Main"]').getByRole('link', { name: 'Paste a real log into a bug report' }).click();
  await expect(page).toHaveURL(/\/guides\/paste-a-log\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paste a real log into a bug report');
  await expect(page.locator('main')).toContainText('10 of 10 frames match.');
});
