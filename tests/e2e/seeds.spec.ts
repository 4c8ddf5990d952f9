/**
 * The two reported bugs, reproduced through the page as a new user would, next to what the
 * real TypeScript SDK v2 does with the same clicks.
 */
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page, server: string, client: string): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByLabel('Server', { exact: true }).selectOption(server);
  await page.getByLabel('Client', { exact: true }).selectOption(client);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
}

async function callWork(page: Page, onCancel: string): Promise<void> {
  await page.locator('#tool').selectOption('work');
  await page.locator('#arg-ms').fill('3000');
  await page.locator('#arg-onCancel').selectOption(onCancel);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

const wire = (page: Page) => page.locator('#wire-table tbody tr');
const callRow = (page: Page, call: string) => page.locator(`#calls-table tbody tr[data-call="${call}"]`);

test('seed 000: python-sdk 1.x answers the cancelled call with code 0; the strict host drops the connection and re-initializes', async ({ page }) => {
  await open(page, 'py-v1', 'strict-host');
  await expect(page.locator('#profile-notes')).toContainText('python-sdk 1.x (1.27–1.29) — emulated');
  await expect(page.locator('#profile-notes a', { hasText: 'session.py RequestResponder.cancel (code 0)' })).toHaveAttribute('href', /python-sdk\/blob\/v1\.29\.0\/src\/mcp\/shared\/session\.py#L138-L151/);
  await callWork(page, 'observe');
  await page.getByRole('button', { name: 'Call', exact: true }).click(); // a second call, still in flight when the connection drops
  await expect(callRow(page, '#2').locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  const codeZero = wire(page).filter({ hasText: '"error":{"code":0,"message":"Request cancelled"}' });
  await expect(codeZero).toHaveCount(1);
  await expect(page.locator('#client-log')).toContainText('Connection error: Received a response for an unknown message ID');
  await expect(page.locator('#client-log')).toContainText('Closing transport');
  // The second initialize carries the badges of the findings whose teardown it shows.
  await expect(wire(page).filter({ hasText: /^\d+\d*initialize/ }).or(wire(page).filter({ has: page.locator('td:nth-child(7)', { hasText: /^initialize\b/ }) }))).toHaveCount(2);
  await expect(callRow(page, '#2')).toContainText('lost with its connection');
  await page.locator('#connection-details summary').click();
  await expect(page.locator('#connection-table')).toContainText('strict host: connection error on an unknown id');
  await page.screenshot({ path: 'tests/e2e/screenshots/seed-000-strict-host.png', fullPage: true });
});

test('seed 000, spec side: the real SDK v2 server sends nothing for the cancelled call; the connection stays', async ({ page }) => {
  await open(page, 'ts-v2', 'strict-host');
  await callWork(page, 'observe');
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('response suppressed');
  await expect(wire(page).filter({ hasText: 'Request cancelled' })).toHaveCount(0);
  await expect(wire(page).filter({ has: page.locator('td:nth-child(7)', { hasText: /^initialize$/ }) })).toHaveCount(1);
});

test('seed 004: a handler that swallowed the cancel returns; python-sdk 1.x dies with AssertionError; later calls fail', async ({ page }) => {
  await open(page, 'py-v1', 'ts-v2');
  await callWork(page, 'swallow');
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(page.locator('#server-log')).toContainText('AssertionError: Request already responded to');
  await expect(page.locator('#server-log')).toContainText('process exited with code 1');
  await expect(callRow(page, '#1').locator('td').nth(3).locator('.state')).toHaveText('crashed');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#2').locator('td').nth(2).locator('.state')).toHaveText('FAILED');
  await expect(callRow(page, '#2')).toContainText('lost with its connection');
  // The user restarts the server: a new process, a new handshake, and calls work again.
  await page.getByRole('button', { name: 'Restart server and reconnect' }).click();
  await page.locator('#tool').selectOption('quick');
  await expect(page.locator('#conn-status')).toContainText('negotiated');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#3').locator('td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  await page.screenshot({ path: 'tests/e2e/screenshots/seed-004-crash.png', fullPage: true });
});

test('seed 004, spec side: python-sdk 2.x drops the late result and stays up', async ({ page }) => {
  await open(page, 'py-v2', 'ts-v2');
  await callWork(page, 'swallow');
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('response suppressed');
  await expect(page.locator('#server-log')).not.toContainText('AssertionError');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callRow(page, '#2').locator('td').nth(3)).toContainText('running');
});

test('the verdict panel judges seed 000: CANCEL-NO-RESPONSE as a warning, with the quote, and highlights its rows', async ({ page }) => {
  await open(page, 'py-v1', 'ts-v2');
  await callWork(page, 'observe');
  await expect(callRow(page, '#1').locator('td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  const finding = page.locator('#findings li[data-rule="CANCEL-NO-RESPONSE"]');
  await expect(finding).toHaveCount(1);
  await expect(finding.locator('summary')).toContainText('warning CANCEL-NO-RESPONSE');
  await expect(page.locator('#verdict-counts')).toContainText('1 warning (SHOULD not followed)');
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await finding.locator('summary').click();
  await expect(finding).toContainText('Not send a response for the cancelled request');
  await expect(finding.locator('a')).toHaveAttribute('href', /modelcontextprotocol\/blob\/b0f60ba5409db7a6582440a7b473cc0398890f15\/docs\/specification\/2025-11-25\/basic\/utilities\/cancellation\.mdx#L37-L40/);
  const codeZero = wire(page).filter({ hasText: '"code":0,"message":"Request cancelled"' });
  await expect(codeZero).toHaveClass(/highlight/);
  await expect(codeZero.locator('.rule-badge')).toContainText('CANCEL-NO-RESPONSE');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download checks.json' }).click();
  const checks = JSON.parse(await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'))) as { id: string; status: string }[];
  expect(checks.find((c) => c.id === 'CANCEL-NO-RESPONSE')?.status).toBe('WARNING');
});
