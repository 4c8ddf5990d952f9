/** The Faults panel's Content-Type relabel: the wire log shows the relabelled head, the real client fails the call, and the verdict blames the server. */
import { expect, test } from '@playwright/test';

test('relabelling the answer to tools/call as text/plain fails the call and is judged a broken HTTP-RESPONSE-CONTENT-TYPE', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await page.getByRole('tab', { name: 'Faults' }).click();
  await page.getByText('Standing wire faults').click();
  await page.locator('#fault-action').selectOption('content-type');
  // Only the server writes a response head: the direction follows.
  await expect(page.locator('#fault-dir')).toHaveValue('s2c');
  await expect(page.locator('#fault-dir')).toBeDisabled();
  await page.getByLabel('Frames (method, "response", or empty for any)').fill('tools/call');
  await page.getByLabel(/^Content-Type/).fill('text/plain');
  await page.getByRole('button', { name: 'Add fault and replay' }).click();
  await expect(page.locator('#fault-list')).toHaveText('server → client: relabel the answer to tools/call as Content-Type text/plain');
  await page.locator('#arg-steps').fill('2');
  await page.locator('#arg-stepMs').fill('50');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const head = page.locator('#wire-table tbody tr').filter({ has: page.locator('.badge', { hasText: 'retyped' }) });
  await expect(head).toHaveCount(1);
  await expect(head.locator('.badge', { hasText: 'retyped' })).toHaveAttribute('title', 'A wire fault the user set relabelled this head: the server wrote Content-Type text/event-stream');
  await expect(page.locator('#calls-table tbody tr[data-call="#1"]')).toContainText('FAILED');
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await expect(page.locator('#findings li[data-rule="HTTP-RESPONSE-CONTENT-TYPE"]')).toContainText('text/plain');
});
