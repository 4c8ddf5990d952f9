/**
 * The real TypeScript SDK v1 (1.32.2) as the page's client and server: its code is fetched only
 * when a v1 side is picked, and what reaches the wire and the calls table is v1's own.
 */
import { expect, test, type Page } from '@playwright/test';

const wire = (page: Page) => page.locator('#wire-table tbody tr');
const callRow = (page: Page, call: string) => page.locator(`#calls-table tbody tr[data-call="${call}"]`);

async function ready(page: Page): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

test('the v2 playground does not fetch v1; picking v1 on both sides runs it: Stop cancels, and a crash fails the call in flight with McpError -32000', async ({ page }) => {
  const v1Chunks: string[] = [];
  page.on('request', (request) => {
    // Both v1 sides come in one chunk (workers/v1/index.ts), fetched when either is picked.
    if (/\/v1-[^/]+\.js$/.test(new URL(request.url()).pathname)) v1Chunks.push(request.url());
  });
  await ready(page);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  expect(v1Chunks, 'the default v2 run loads no v1 code').toEqual([]);

  await page.getByLabel('Server', { exact: true }).selectOption('ts-v1');
  await page.getByLabel('Client', { exact: true }).selectOption('ts-v1');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await expect(page.locator('#profile-notes')).toContainText('Server: TypeScript SDK v1 (real, 1.32.2)');
  await expect(page.locator('#profile-notes')).toContainText('Client: TypeScript SDK v1 (real, 1.32.2)');
  expect(v1Chunks).toHaveLength(1);
  // v1 writes its own notification shape: the method before "jsonrpc".
  await expect(wire(page).filter({ hasText: '{"method":"notifications/initialized","jsonrpc":"2.0"}' })).toHaveCount(1);

  await page.locator('#tool').selectOption('work');
  await page.locator('#arg-ms').fill('3000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(wire(page).filter({ hasText: '"method":"notifications/cancelled","params":{"requestId":1,"reason":"user pressed Stop"}' })).toHaveCount(1);
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('response suppressed');
  await expect(page.locator('#server-log')).not.toContainText('emulated');

  // A call in flight when the v1 server dies: v1 rejects it with McpError -32000, and the page says it was lost.
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#2').locator('td').nth(3)).toContainText('running');
  await page.locator('#crash').click();
  await expect(callRow(page, '#2')).toContainText('lost with its connection (rejected: MCP error -32000: Connection closed)');
});

test('the v1 pair over sessionful Streamable HTTP; on 2025-06-18 a v1 client cannot meet a v1 server, and the page says why', async ({ page }) => {
  await ready(page);
  await page.getByLabel('Server', { exact: true }).selectOption('ts-v1');
  await page.getByLabel('Client', { exact: true }).selectOption('ts-v1');
  await page.locator('#transport').selectOption('streamable-http');
  await page.locator('#http-server').selectOption('sessionful');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#1').locator('td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  await expect(wire(page).filter({ hasText: 'mcp-session-id: session-1' }).first()).toBeAttached();

  await page.locator('#revision').selectOption('2025-06-18');
  await expect(page.locator('#client-profile option[value="ts-v1"]')).toBeDisabled();
  await expect(page.locator('#unavailable')).toContainText('a v1 pair speaks 2025-11-25 only');
  // The v1 server stays, and answers the v2 client the revision it pins.
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-06-18');
});

test('tasks on the v1 pair: a call made as a task, Cancel task sends tasks/cancel, and the work runs on; on v2 the box is off and says why', async ({ page }) => {
  await ready(page);
  await page.locator('#tool').selectOption('background_job');
  const asTask = page.getByRole('checkbox', { name: 'as a task' });
  await expect(asTask).toBeDisabled();
  await expect(asTask).toHaveAccessibleDescription(/^Not here: tasks run on 2025-11-25 with the real TypeScript SDK v1 on both sides/);

  await page.getByLabel('Server', { exact: true }).selectOption('ts-v1');
  await page.getByLabel('Client', { exact: true }).selectOption('ts-v1');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await expect(asTask).toBeEnabled();
  await expect(asTask).toHaveAccessibleDescription('');
  await asTask.check();
  await page.locator('#arg-ms').fill('2000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(wire(page).filter({ hasText: '"task":{"taskId":"task-1","status":"working"' })).toHaveCount(1);
  // Paused, so the polls do not redraw the row under the click.
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('button', { name: 'Cancel task #1' }).click();
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(wire(page).filter({ hasText: '{"method":"tasks/cancel","params":{"taskId":"task-1"}' })).toHaveCount(1);
  await expect(wire(page).filter({ hasText: '"status":"cancelled"' }).first()).toBeAttached();
  await expect(callRow(page, '#1')).toContainText('Task task-1 was cancelled');
  await expect(wire(page).filter({ hasText: 'notifications/cancelled' })).toHaveCount(0);
  // The work was never told: it finishes and tries to store its result.
  await expect(page.locator('#server-log')).toContainText('background_job: the work for task-1 is done after 2000 ms', { timeout: 15_000 });
});
