/**
 * Nothing the page runs is unbounded: Reset stops a long replay at once, and a live run where
 * every virtual millisecond brings events (each a round trip to a worker) plays to its end.
 */
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

function callRow(page: Page, call: string) {
  return page.locator(`#calls-table tbody tr[data-call="${call}"]`);
}

/** Five calls counting 10,000 steps of 1 ms at once: a replay that runs up to the event bound. */
const LONG_REPLAY: Scenario = {
  ...defaultScenario(),
  steps: ['#1', '#2', '#3', '#4', '#5'].map((call) => ({ at: 20, action: { type: 'call', call, tool: 'slow_count', args: { steps: 10_000, stepMs: 1 } } })),
  endAt: 60_000,
};

test('Reset during a long replay starts the new run at once, not after the replay', async ({ page }) => {
  test.setTimeout(120_000);
  // The hash is never compared: the point is how long the replay holds the page.
  const link = await encodeLink(LONG_REPLAY, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: 'not-recorded' });
  const status = page.locator('#conn-status');

  // The floor, measured in the same run: the replay left to itself runs up to the engine's bound.
  let started = Date.now();
  await page.goto(`/playground/#${link}`);
  await expect(status).toContainText('Replaying 5 actions');
  await expect(status).not.toContainText('Replaying', { timeout: 90_000 });
  const wholeReplayMs = Date.now() - started;

  // Reset while it replays: the new run starts after the current event, not after the replay.
  await page.goto('/playground/');
  await page.goto(`/playground/#${link}`);
  await expect(status).toContainText('Replaying 5 actions');
  started = Date.now();
  await page.getByRole('button', { name: 'Reset run' }).click();
  await expect(status).toContainText('negotiated protocol version 2025-11-25', { timeout: 90_000 });
  const resetMs = Date.now() - started;
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await expect(callRow(page, '#1')).toHaveCount(0);
  console.log(`replay left alone: ${wholeReplayMs} ms; Reset to a connected new run: ${resetMs} ms`);
  expect(resetMs, 'Reset did not wait for the replay to end').toBeLessThan(wholeReplayMs / 2);
});

test('2,000 steps of 1 ms at 4× play to their end, every progress shown (the wall time is a figure of npm run bench)', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await page.getByLabel('Speed').selectOption('4');
  await page.getByLabel('Tool', { exact: true }).selectOption('slow_count');
  await page.locator('#tool-args input[name="steps"]').fill('2000');
  await page.locator('#tool-args input[name="stepMs"]').fill('1');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#1').locator('td').nth(4)).toHaveText(/^2000 \/ 2000/, { timeout: 60_000 });
  await expect(callRow(page, '#1')).toContainText('SUCCEEDED');
});
