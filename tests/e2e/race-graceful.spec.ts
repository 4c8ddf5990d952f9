/**
 * Seed 000 opened from the scenario gallery, as a user would: the strict host tears the
 * connection down on the late code-0 answer, and the verdict names CANCEL-RACE-GRACEFUL. Its
 * witnesses are the causal chain, so the late answer's wire row and the row of the failure
 * (the initialize of the new connection) carry its badge, and the timeline marks it.
 */
import { expect, test } from '@playwright/test';

test('seed 000: the late answer and the teardown it causes carry the CANCEL-RACE-GRACEFUL badge', async ({ page }) => {
  await page.goto('/scenarios/');
  await page.locator('li#seed-000-strict-host-python-v1').getByRole('link').first().click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');

  const finding = page.locator('#findings li[data-rule="CANCEL-RACE-GRACEFUL"]');
  await expect(finding).toHaveCount(1);
  await expect(finding.locator('summary')).toContainText('error CANCEL-RACE-GRACEFUL');
  await expect(page.locator('#verdict-counts')).toContainText('1 error (MUST broken)');

  const wire = page.locator('#wire-table tbody tr');
  const lateAnswer = wire.filter({ hasText: '"code":0,"message":"Request cancelled"' });
  await expect(lateAnswer).toHaveCount(1);
  await expect(lateAnswer.locator('.rule-badge.sev-error')).toHaveText('✖ CANCEL-RACE-GRACEFUL');
  await expect(lateAnswer.locator('.rule-badge.sev-warning')).toHaveText(['⚠ CANCEL-NO-RESPONSE', '⚠ CANCEL-IGNORE-LATE-RESPONSE']);
  // The method cell holds the row's badges after the method.
  const initializes = wire.filter({ has: page.locator('td:nth-child(7)', { hasText: /^initialize\b/ }) });
  await expect(initializes).toHaveCount(2);
  await expect(initializes.nth(0).locator('.rule-badge')).toHaveCount(0);
  await expect(initializes.nth(1).locator('.rule-badge.sev-error')).toHaveText('✖ CANCEL-RACE-GRACEFUL');

  await expect(page.locator('#timeline .tl-mark.kind-finding').filter({ hasText: 'CANCEL-RACE-GRACEFUL' })).not.toHaveCount(0);
});
