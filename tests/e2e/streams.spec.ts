/**
 * Streams that resume, in Chromium: the gallery's resumption scenario replays exactly, and the
 * wire log shows the SSE event ids and the retry the server sent, and the GET that resumes the
 * stream with Last-Event-ID; the gallery gives streams, sessions and batches a section. The
 * Connection panel's resumable toggle (with its retry) and the Calls panel's line for a stream
 * that ended without its response.
 */
import { expect, test, type Page } from '@playwright/test';

const rows = (page: Page) => page.locator('#wire-table tbody tr');
const framing = (page: Page, text: string | RegExp) => rows(page).filter({ has: page.locator('td.framing', { hasText: text }) });

test('a server-closed stream resumed with Last-Event-ID: the id and retry lines and the reconnect row', async ({ page }) => {
  await page.goto('/scenarios/');
  const section = page.locator('section.gallery-group').filter({ has: page.getByRole('heading', { level: 2, name: 'Streams that resume, sessions that expire, batches' }) });
  for (const id of ['stream-resumes-after-server-close-2025-11-25', 'session-expires-mid-call-client-never-reinitializes', 'batch-holds-a-request-and-its-cancel-2025-03-26', 'cancel-in-a-batch-2025-03-26']) {
    await expect(section.locator(`li#${id}`)).toBeVisible();
  }
  await section.locator('li#stream-resumes-after-server-close-2025-11-25').getByRole('link').first().click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');

  // The priming event: an id, the retry, no data; then each event with its id.
  await expect(framing(page, 'SSE id: s2.1 · retry: 200')).toHaveCount(1);
  await expect(framing(page, 'SSE event: message · id: s2.2')).toHaveCount(1);
  // The server's close before the response, and the client's GET 200 ms later naming the last id it saw.
  const reconnect = framing(page, 'GET /mcp · resume after s2.2');
  await expect(reconnect).toHaveCount(1);
  await expect(reconnect.locator('td').nth(1)).toHaveText('355');
  await reconnect.click();
  await expect(page.locator('#wire-detail .headers')).toContainText('last-event-id: s2.2');
  // The replayed progress and the result come on the resumed stream.
  const resumedStream = (await reconnect.locator('td').nth(4).textContent()) ?? '';
  await expect(rows(page).filter({ has: page.locator('td', { hasText: 'result of tools/call' }) }).locator('td').nth(4)).toHaveText(resumedStream);
  await expect(page.locator('#calls-table tbody tr[data-call="A"]')).toContainText('SUCCEEDED');
});

test('from the Faults panel the server closes a call\'s stream and forgets the session; the next call gets 404', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('tab', { name: 'Faults' }).click();
  const close = page.getByRole('button', { name: "Close the call's stream" });
  const expire = page.getByRole('button', { name: 'Expire the session' });
  // stdio has no streams to close and no session to forget.
  await expect(expire).toBeDisabled();
  await expect(expire).toHaveAttribute('title', /Not on this run: it needs sessionful Streamable HTTP/);
  await page.locator('#revision').selectOption('2025-06-18');
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-06-18');
  await expect(expire).toBeEnabled();

  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const post = rows(page).filter({ has: page.locator('td', { hasText: /^tools\/call$/ }) });
  await expect(post).toHaveCount(1);
  const stream = (await post.locator('td').nth(4).textContent()) ?? '';
  await page.locator('#target').selectOption('call:#1');
  await close.click();
  await expect(framing(page, 'end of response (server)').filter({ has: page.locator('td:nth-child(5)', { hasText: stream }) })).toHaveCount(1);

  await expire.click();
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(framing(page, '404 application/json').first()).toBeVisible();
  await expect(page.locator('#calls-table tbody tr[data-call="#2"]')).toContainText('FAILED');
});

test('the Connection panel makes the server resumable with a retry, only where the schema allows it, and forgets it with the transport', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  const resumable = page.locator('#resumable');
  const retry = page.locator('#retry-ms');
  // stdio has no SSE streams to resume: the toggle is not even shown.
  await expect(resumable).toBeHidden();
  await expect(retry).toBeHidden();
  await page.locator('#transport').selectOption('streamable-http');
  await page.locator('#http-server').selectOption('sessionful');
  await expect(resumable).toBeEnabled();
  await expect(retry).toBeDisabled();
  await resumable.check();
  await expect(retry).toBeEnabled();
  await retry.fill('300');
  await retry.dispatchEvent('change');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');

  // Every POST stream opens with the priming event and the retry asked for: the handshake's,
  // then the call's.
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const call = rows(page).filter({ has: page.locator('td', { hasText: /^tools\/call$/ }) });
  await expect(call).toHaveCount(1);
  const stream = (await call.locator('td').nth(4).textContent()) ?? '';
  await expect(framing(page, /SSE id: s\d+\.1 · retry: 300/).filter({ has: page.locator('td:nth-child(5)', { hasText: stream }) })).toHaveCount(1);
  await expect(framing(page, /SSE id: s\d+\.1 · retry: 300/)).toHaveCount(2);

  // 2026-07-28 has no resumable streams: the toggle goes off and says why.
  await page.locator('#revision').selectOption('2026-07-28');
  await expect(resumable).toBeDisabled();
  await expect(resumable).not.toBeChecked();
  await expect(page.locator('#unavailable')).toContainText('Resumable streams: a resumable server needs a revision before 2026-07-28');
  // (2026-07-28 moved the shape to stateless, its only one.)
  await page.locator('#revision').selectOption('2025-11-25');
  await page.locator('#http-server').selectOption('sessionful');
  await resumable.check();
  await expect(resumable).toBeChecked();
  // A new transport starts without them, and coming back does not bring them back.
  await page.locator('#transport').selectOption('stdio');
  await expect(resumable).toBeHidden();
  await expect(resumable).not.toBeChecked();
  await page.locator('#transport').selectOption('streamable-http');
  await page.locator('#http-server').selectOption('sessionful');
  await expect(resumable).toBeEnabled();
  await expect(resumable).not.toBeChecked();

  // The stateless shape is named for what each SDK runs.
  await expect(page.locator('#http-server option[value="stateless"]')).toHaveText('stateless (createMcpHandler)');
  await page.locator('#server-profile').selectOption('ts-v1');
  await expect(page.locator('#http-server option[value="stateless"]')).toHaveText('stateless (a server and transport per request)');
});

test('the Calls panel says when a call\'s stream ended without its response, and that the session had expired', async ({ page }) => {
  await page.goto('/scenarios/');
  await page.locator('li#session-expires-mid-call-client-never-reinitializes').getByRole('link').first().click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.locator('#calls-table tbody tr[data-call="A"] .stream-end')).toHaveText('stream ended without a response at 150 ms (session expired)');
  await expect(page.locator('#calls-table tbody tr[data-call="B"] .stream-end')).toHaveText('stream ended without a response at 305 ms (session expired)');
});
