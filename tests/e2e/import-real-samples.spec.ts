/**
 * The captured import samples (tests/fixtures/import/README.md, "Captured from real exchanges")
 * opened in the playground's Import panel: the verdict a user reads is the one `cancel-lab check`
 * gives (tests/unit/import-real-samples.test.ts).
 */
import { expect, test } from '@playwright/test';
import { importSample } from './import-samples.ts';


test('a stdio tee’s log of the SDK v2 client and server: the crossed cancel is an allowed race, the one in flight got no response', async ({ page }) => {
  await importSample(page, 'stdio-sdk-v2-tee.log');
  await expect(page.locator('#work-notice')).toContainText('judged by 2025-11-25 on stdio');
  await expect(page.locator('#wire-count')).toHaveText('10 of 10 frames');
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await expect(page.locator('#verdict-counts')).toContainText('0 errors');
  const race = page.locator('#findings li[data-rule="CANCEL-REF-INPROGRESS"]');
  await expect(race).toHaveCount(1);
  await expect(race.locator('summary span')).toHaveAttribute('title', 'allowed race');
  await expect(race.locator('p').first()).toContainText('The response to request 2 (frame 6) was still on the wire when the client wrote the cancel');
  await page.locator('#show-all-findings').check();
  await expect(page.locator('#findings li[data-rule="CANCEL-NO-RESPONSE"]').first()).toContainText('The server sent no response to request 1 after the cancel (frame 4) reached it.');
});

test('a HAR Chromium recorded: the session header makes it Streamable HTTP, and the cancel POST is judged', async ({ page }) => {
  await importSample(page, 'har-chromium-streamable-http.har');
  await expect(page.locator('#work-notice')).toContainText('judged by 2025-11-25 on streamable-http');
  await expect(page.locator('#wire-scroll')).toContainText('notifications/cancelled');
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await expect(page.locator('#verdict-counts')).toContainText('0 errors');
  await page.locator('#show-all-findings').check();
  await expect(page.locator('#findings li[data-rule="CANCEL-NO-RESPONSE"]')).toContainText(/The server sent no response to request 1 after the cancel \(frame \d+\) reached it\./);
  await expect(page.locator('#findings li[data-rule="HTTP-NOTIFICATION-202"]').nth(1)).toContainText('notifications/cancelled with 202 Accepted');
});
