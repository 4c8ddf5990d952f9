/** Standing wire faults belong to the run's scenario: adding or clearing one replays the run's steps with it, and the wire log shows its effect. */
import { expect, test } from '@playwright/test';

test('a standing fault that drops notifications/cancelled restarts the run; the cancel never arrives, until the fault is cleared', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByText('Standing wire faults').click();
  await page.getByLabel('Frames (method, "response", or empty for any)').fill('notifications/cancelled');
  await page.getByRole('button', { name: 'Add fault and replay' }).click();
  await expect(page.locator('#fault-count')).toHaveText('1');
  await expect(page.locator('#fault-list')).toHaveText('client → server: drop notifications/cancelled');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const call = page.locator('#calls-table tbody tr[data-call="#1"]');
  await expect(call.locator('td').nth(4)).toHaveText(/^1 \/ 5/);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  const cancel = page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/cancelled' });
  await expect(cancel.locator('td.delivered')).toHaveText('never (dropped)');
  await expect(cancel.locator('.badge', { hasText: 'dropped' })).toBeVisible();
  // The server never heard of the cancel: its handler runs on.
  await expect(call.locator('td').nth(3)).toContainText('running');
  // Clearing the fault replays the same call and Stop without it: now the cancel arrives.
  await page.getByRole('button', { name: 'Clear faults' }).click();
  await expect(page.locator('#fault-count')).toHaveText('0');
  await expect(page.locator('#fault-list li')).toHaveCount(0);
  await expect(page.locator('#work-notice')).toContainText('Replayed your 2 steps under 0 standing faults.');
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(1);
  await expect(cancel.locator('td.delivered')).not.toHaveText('never (dropped)');
  await expect(cancel.locator('.badge', { hasText: 'dropped' })).toHaveCount(0);
});

test('a forged cancel that carries an id is judged a broken NOTIFICATION-NO-ID, and the server answers it as the request it is', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(4)).toHaveText(/^1 \/ 5/);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('#target').selectOption('call:#1');
  await page.getByLabel('carries an id').check();
  await page.getByRole('button', { name: 'Inject cancel' }).click();
  await page.getByRole('button', { name: 'Step' }).click();
  await page.getByRole('button', { name: 'Step' }).click();
  const forged = page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/cancelled' });
  await expect(forged.locator('td.message')).toContainText('"id":"forged-notification-id"');
  await expect(page.locator('#findings li[data-rule="NOTIFICATION-NO-ID"]')).toHaveCount(1);
  // The server does not take it for a cancel: the call is still running.
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(3)).toContainText('running');
});

test('progress forged for one call on another call’s stream is put on that stream, marked injected, and flagged HTTP-RELATED-MESSAGES', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await page.locator('#tool').selectOption('stubborn');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#2"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('#target').selectOption('call:#1');
  await page.getByLabel('on the stream of (HTTP)').selectOption('#2');
  await page.getByRole('button', { name: 'Inject progress' }).click();
  const forged = page.locator('#wire-table tbody tr').filter({ has: page.locator('.badge', { hasText: 'injected' }) });
  await expect(forged).toContainText('notifications/progress');
  // It rides on call #2's stream: the same stream number as #2's tools/call.
  const own = page.locator('#wire-table tbody tr').filter({ has: page.locator('td', { hasText: /^tools\/call/ }) }).nth(1);
  await expect(forged.locator('td').nth(4)).toHaveText((await own.locator('td').nth(4).textContent()) ?? '');
  await expect(page.locator('#findings li[data-rule="HTTP-RELATED-MESSAGES"]')).toHaveCount(1);
});

test('a fault field the run cannot take is refused where it was typed, never changed: a delay of -1, an nth of 0 or one that is no number, 1e', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByText('Standing wire faults').click();
  await page.locator('#fault-action').selectOption('delay');
  const add = page.getByRole('button', { name: 'Add fault and replay' });
  const delay = page.locator('#fault-ms');
  const nth = page.locator('#fault-nth');
  await delay.fill('-1');
  await add.click();
  expect(await delay.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('A delay is a whole number of ms from 0 to 86,400,000.');
  await expect(page.locator('#fault-count')).toHaveText('0');
  await delay.fill('40');
  for (const typed of ['0', '1e']) {
    await nth.pressSequentially(typed);
    await add.click();
    expect(await nth.evaluate((input: HTMLInputElement) => input.validationMessage), typed).toBe('A whole number from 1, or empty for every match.');
    await expect(page.locator('#fault-count')).toHaveText('0');
    await nth.fill('');
  }
  // Corrected, the fault is added as typed.
  await nth.fill('2');
  await add.click();
  await expect(page.locator('#fault-list')).toHaveText('client → server: delay notifications/cancelled (match #2 only) by 40 ms');
});
