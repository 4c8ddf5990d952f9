import { expect, test } from '@playwright/test';

test('keyboard: c calls, s stops the newest running call, p pauses, n steps, ? lists the keys', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('c');
  const call = page.locator('#calls-table tbody tr[data-call="#1"]');
  await expect(call.locator('td').nth(3)).toContainText('running');
  await page.keyboard.press('s');
  await expect(call.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  // Pause once the cancel has played out, so that the next event is the next call's.
  await expect(call.locator('td').nth(3)).toContainText('response suppressed');
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('#next-event')).toHaveText('nothing scheduled');
  await page.locator('#tool').selectOption('quick');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('c');
  // The call's request is written at once; count the rows once the page shows it.
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(2);
  const rows = await page.locator('#wire-table tbody tr').count();
  await page.keyboard.press('n');
  await expect(page.locator('#wire-table tbody tr')).toHaveCount(rows + 1);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
});

test('typing in a field does not trigger shortcuts', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#arg-stepMs').fill('');
  await page.locator('#arg-stepMs').pressSequentially('5');
  await page.locator('#target-id').fill('');
  await page.locator('#target-id').pressSequentially('cs');
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(0);
});
