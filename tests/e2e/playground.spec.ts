import { expect, test, type Page } from '@playwright/test';

/** Opens the playground and waits until the real SDK client reports the negotiated version. */
async function open(page: Page): Promise<void> {
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('http://localhost')) outside.push(r.url());
  });
  await page.goto('/playground/');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  expect(outside).toEqual([]);
}

async function callTool(page: Page, tool: string, args: Record<string, string>): Promise<void> {
  await page.getByLabel('Tool', { exact: true }).selectOption(tool);
  for (const [name, value] of Object.entries(args)) await page.locator(`#tool-args input[name="${name}"]`).fill(value);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

function wireRow(page: Page, method: string) {
  return page.locator('#wire-table tbody tr').filter({ has: page.locator('td', { hasText: new RegExp(`^${method}`) }) });
}

function callRow(page: Page, call: string) {
  return page.locator(`#calls-table tbody tr[data-call="${call}"]`);
}

test('the wire log shows the real initialize handshake with the negotiated protocol version', async ({ page }) => {
  await open(page);
  const init = wireRow(page, 'initialize');
  await expect(init).toHaveCount(1);
  await expect(init.locator('td').nth(3)).toHaveText('client → server');
  await expect(wireRow(page, 'result of initialize').locator('td.message')).toContainText('"protocolVersion":"2025-11-25"');
  await expect(page.getByRole('columnheader', { name: 'Direction' })).toBeVisible();
});

test('slow_count + Stop: progress, then notifications/cancelled for the call id, and no response after it', async ({ page }) => {
  await open(page);
  await callTool(page, 'slow_count', { steps: '5', stepMs: '1000' });
  const row = callRow(page, '#1');
  await expect(row.locator('td').nth(4)).toHaveText(/^2 \/ 5/);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(row.locator('td').nth(2)).toContainText('STOPPED_LOCALLY');
  await expect(row.locator('td').nth(2)).toContainText('CANCEL_REQUESTED');
  await expect(row.locator('td').nth(3)).toContainText('response suppressed');
  const requestId = (await row.locator('td').nth(1).textContent())?.trim();
  await expect(wireRow(page, 'tools/call')).toHaveCount(1);
  expect(await wireRow(page, 'notifications/progress').count()).toBeGreaterThanOrEqual(1);
  const cancel = wireRow(page, 'notifications/cancelled');
  await expect(cancel).toHaveCount(1);
  await expect(cancel.locator('td').nth(7)).toHaveText(requestId ?? 'missing');
  // Let the run go on: the server must never answer the cancelled call.
  await page.waitForTimeout(1500);
  await expect(wireRow(page, 'result of tools/call')).toHaveCount(0);
  await expect(wireRow(page, 'error of tools/call')).toHaveCount(0);
  await page.screenshot({ path: 'tests/e2e/screenshots/slow-count-stop.png', fullPage: true });
});

test('stubborn + Stop: the handler returns late, nothing is written, an injected late result is ignored', async ({ page }) => {
  await open(page);
  await callTool(page, 'stubborn', { ms: '1200' });
  const row = callRow(page, '#1');
  await expect(row.locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(row.locator('td').nth(2)).toContainText('STOPPED_LOCALLY');
  await expect(row.locator('td').nth(3)).toContainText('cancellation seen');
  // The handler ignores the signal and returns about a second later; the SDK drops its result.
  await expect(row.locator('td').nth(3)).toContainText('response suppressed', { timeout: 10_000 });
  await expect(row.locator('td').nth(3)).toContainText('returned');
  await expect(wireRow(page, 'result of tools/call')).toHaveCount(0);
  await page.getByRole('button', { name: 'Inject late result #1' }).click();
  await expect(wireRow(page, 'result of tools/call')).toContainText('injected');
  await expect(row.locator('td').nth(5)).toContainText('ignored: arrived after Stop');
  await expect(row.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await page.screenshot({ path: 'tests/e2e/screenshots/stubborn-stop.png', fullPage: true });
});

test('ledger_write stopped after its commit: the ledger keeps the entry while the client shows STOPPED_LOCALLY', async ({ page }) => {
  await open(page);
  await callTool(page, 'ledger_write', { key: 'order-7', value: 'shipped', commitAfterMs: '200', totalMs: '5000' });
  await expect(page.locator('#ledger-table tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  const row = callRow(page, '#1');
  await expect(row.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await expect(page.locator('#ledger-table tbody tr')).toContainText('order-7');
  await expect(page.locator('#ledger-table tbody tr')).toContainText('shipped');
  await page.screenshot({ path: 'tests/e2e/screenshots/ledger-write-stop.png', fullPage: true });
});

test('Pause and Step run one event at a time', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Pause' }).click();
  await callTool(page, 'quick', {});
  // The call's request is written at once (a user action runs at the paused instant).
  await expect(wireRow(page, 'tools/call')).toHaveCount(1);
  const before = await page.locator('#wire-table tbody tr').count();
  // The call's frame is written at once; Step delivers it to the server, which answers.
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(page.locator('#wire-table tbody tr')).toHaveCount(before + 1);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(callRow(page, '#1').locator('td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
});
