import { expect, test, type Page } from '@playwright/test';

async function choose(page: Page, revision: string, transport: string): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#revision').selectOption(revision);
  await page.locator('#transport').selectOption(transport);
  await expect(page.locator('#conn-status')).toContainText(`negotiated protocol version ${revision}`);
}

function rows(page: Page) {
  return page.locator('#wire-table tbody tr');
}

async function slowCallThenStop(page: Page): Promise<void> {
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const call = page.locator('#calls-table tbody tr[data-call="#1"]');
  await expect(call.locator('td').nth(4)).toHaveText(/^2 \/ 5/);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(call.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await expect(call.locator('td').nth(3)).toContainText('response suppressed');
}

test('stdio on 2025-11-25: Stop writes notifications/cancelled as one raw line', async ({ page }) => {
  await choose(page, '2025-11-25', 'stdio');
  await slowCallThenStop(page);
  const cancel = rows(page).filter({ hasText: 'notifications/cancelled' });
  await expect(cancel).toHaveCount(1);
  // stdio has no streams and no HTTP framing: the frame is the line itself.
  await expect(cancel.locator('td').nth(4)).toHaveText('—');
  await expect(cancel.locator('td.message')).toHaveText(/^\{"jsonrpc":"2\.0","method":"notifications\/cancelled","params":\{"requestId":1,/);
  await expect(page.locator('#conn-status')).toContainText('(legacy era)');
  await page.screenshot({ path: 'tests/e2e/screenshots/stdio-2025-11-25.png', fullPage: true });
});

test('Streamable HTTP on 2026-07-28: Stop closes the request stream, no notifications/cancelled', async ({ page }) => {
  await choose(page, '2026-07-28', 'streamable-http');
  await expect(page.locator('#conn-status')).toContainText('(modern era)');
  // The unavailable combinations say why.
  await expect(page.locator('#unavailable')).toContainText('HTTP+SSE is the 2024-11-05 transport');
  await slowCallThenStop(page);
  const request = rows(page).filter({ hasText: 'tools/call' }).first();
  await expect(request.locator('td').nth(5)).toContainText('POST /mcp');
  // The headers that matter are in the selected frame's pane.
  await request.click();
  await expect(page.locator('#wire-detail .headers')).toContainText('mcp-protocol-version: 2026-07-28');
  const stream = (await request.locator('td').nth(4).textContent())?.trim() ?? '';
  expect(stream).toMatch(/^#\d+$/);
  const onStream = rows(page).filter({ has: page.locator('td:nth-child(5)', { hasText: new RegExp(`^${stream}$`) }) });
  await expect(onStream.filter({ hasText: /200 text\/event-stream/ })).toHaveCount(1);
  await expect(onStream.filter({ hasText: 'SSE event: message' }).first()).toContainText('notifications/progress');
  await expect(onStream.filter({ hasText: 'stream closed by client' })).toHaveCount(1);
  await expect(rows(page).filter({ hasText: 'notifications/cancelled' })).toHaveCount(0);
  // The server saw the disconnect as the cancellation.
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(3)).toContainText('cancellation seen');
  await page.locator('#connection-details summary').click();
  await expect(page.locator('#connection-table')).toContainText('the client closed the stream before the response ended');
  // "JSON-RPC messages only" hides the framing rows.
  await page.getByLabel('Show transport framing').uncheck();
  await expect(onStream.filter({ hasText: 'stream closed by client' })).toBeHidden();
  await expect(request).toBeVisible();
  await page.screenshot({ path: 'tests/e2e/screenshots/streamable-http-2026-07-28.png', fullPage: true });
});

test('the Streamable HTTP server picker shows only for Streamable HTTP; the embed snippet only after Share', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByLabel('Streamable HTTP server')).toBeHidden();
  await expect(page.locator('#embed-snippet')).toBeHidden();
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.getByLabel('Streamable HTTP server')).toBeVisible();
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.locator('#embed-snippet')).toBeVisible();
  await expect(page.locator('#embed-snippet')).toHaveValue(/^<iframe src="http:\/\/localhost:\d+\/embed\/\?theme=light&height=520#v1\./);
});

test('what is unavailable says each reason once, naming every option it rules out', async ({ page }) => {
  await choose(page, '2026-07-28', 'streamable-http');
  const bullets = await page.locator('#unavailable li').allTextContents();
  const disabled = await page.locator('.setup select option:disabled').count();
  expect(bullets.length).toBeGreaterThan(0);
  // Each bullet is "what, what: reason", or the reason alone when it begins with the one option
  // it rules out; no reason is said twice.
  const reasons = bullets.map((b) => b.slice(b.indexOf(': ') + 2));
  expect(new Set(reasons).size).toBe(reasons.length);
  expect(bullets.length).toBeLessThanOrEqual(disabled);
  await expect(page.locator('#unavailable li', { hasText: 'HTTP+SSE' })).toHaveCount(1);
  await expect(page.locator('#unavailable li', { hasText: 'HTTP+SSE' })).toHaveText(/^HTTP\+SSE is the 2024-11-05 transport;/);
  // …and names each option once: the server's and the client's TypeScript SDK v1 share a label.
  for (const bullet of bullets) {
    const names = bullet.slice(0, bullet.indexOf(': ')).split(/, (?=[A-Z])/);
    expect(new Set(names).size, bullet).toBe(names.length);
  }
  expect(bullets.some((b) => b.startsWith('TypeScript SDK v1 (real, 1.32.2): '))).toBe(true);
});
