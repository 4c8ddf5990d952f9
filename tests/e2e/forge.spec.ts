/** Any message typed as JSON in the Faults panel, and Stop before the wire from the Call form. */
import { expect, test } from '@playwright/test';

test.beforeEach(async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
});

const injectedRows = (page: import('@playwright/test').Page) => page.locator('#wire-table tbody tr').filter({ has: page.locator('.badge', { hasText: 'injected' }) });

test('a request typed as JSON goes on the wire exactly as typed, marked injected, and its reused id is judged', async ({ page }) => {
  const message = '{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"quick","arguments":{}}}';
  await page.getByLabel('Any message (JSON, written exactly as typed)').fill(message);
  await expect(page.locator('#forge-notes li')).toHaveCount(0);
  await page.getByRole('button', { name: 'Inject message' }).click();
  const forged = injectedRows(page);
  await expect(forged).toHaveCount(1);
  await expect(forged.locator('td.message')).toContainText(message);
  await expect(forged).toContainText('client → server');
  // The server answers id 0, which the client no longer waits for (initialize was request 0).
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'quick answer' })).toHaveCount(1);
  await expect(page.locator('#findings li[data-rule="ID-UNIQUE"]')).toHaveCount(1);
});

test('bad JSON gets a message at the field and nothing reaches the run', async ({ page }) => {
  const rows = page.locator('#wire-table tbody tr');
  const before = await rows.count();
  const field = page.getByLabel('Any message (JSON, written exactly as typed)');
  await field.fill('{"jsonrpc":"2.0","method":');
  await page.getByRole('button', { name: 'Inject message' }).click();
  await expect(page.locator('#forge-notes li.refused')).toHaveText(/^Not sent\. Not JSON: /);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(rows).toHaveCount(before);
  await expect(injectedRows(page)).toHaveCount(0);
  // Valid JSON that is not quite JSON-RPC is said beside the field, and sent as typed: a cancel without requestId, with an extra field.
  await field.fill('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"which one?"},"extra":true}');
  await expect(field).toHaveAttribute('aria-invalid', 'false');
  await expect(page.locator('#forge-notes')).toHaveText('Not JSON-RPC (it is sent as typed): an extra field "extra".');
  await page.getByRole('button', { name: 'Inject message' }).click();
  await expect(injectedRows(page)).toHaveCount(1);
  await expect(injectedRows(page).locator('td.message')).toContainText('"reason":"which one?"');
});

test('Stop in the same tick as Call: nothing reaches the wire, and the call says STOPPED_BEFORE_SEND', async ({ page }) => {
  await page.getByRole('button', { name: 'Call + Stop in the same tick' }).click();
  const call = page.locator('#calls-table tbody tr[data-call="#1"]');
  await expect(call.locator('td').nth(2)).toContainText('STOPPED_BEFORE_SEND');
  await expect(call.locator('td').nth(1)).toHaveText('—');
  await expect(call.getByRole('button', { name: 'Stop #1' })).toBeDisabled();
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(0);
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/cancelled' })).toHaveCount(0);
  // A call with a signal already aborted ends the same way.
  await page.getByRole('button', { name: 'Call with an aborted signal' }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#2"] td').nth(2)).toContainText('STOPPED_BEFORE_SEND');
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(0);
});
