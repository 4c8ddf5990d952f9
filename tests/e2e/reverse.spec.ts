/**
 * Requests in both directions in the playground: the server's elicitation and its cancel, read
 * off the wire rows; the client's handler settings in the page, which replay the steps and
 * change what the client answers; ask_client refused with the reason where the revision has no
 * such request.
 */
import { expect, test, type Page } from '@playwright/test';
import { libraryEntry, type Scenario } from '../../src/scenario/index.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

const rows = (page: Page) => page.locator('#wire-table tbody tr');
/** The wire rows whose Method cell matches, going the given way. */
const wireRows = (page: Page, method: string | RegExp, direction: 'client → server' | 'server → client') =>
  rows(page)
    .filter({ has: page.locator('td:nth-child(7)', { hasText: method }) })
    .filter({ has: page.locator('td:nth-child(4)', { hasText: direction }) });

async function open(page: Page): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

async function askClient(page: Page, request: string, then: 'wait' | 'cancel', cancelAfterMs = 1000): Promise<void> {
  await page.locator('#tool').selectOption('ask_client');
  await page.locator('#arg-request').selectOption(request);
  await page.locator('#arg-afterMs').fill('50');
  await page.locator('#arg-then').selectOption(then);
  await page.locator('#arg-cancelAfterMs').fill(String(cancelAfterMs));
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

test('the library’s server-cancelled elicitation replays exactly: elicitation/create and its cancel go server → client, and no answer comes back', async ({ page }) => {
  const entry = libraryEntry('server-cancels-its-elicitation');
  if (!entry) throw new Error('library entry missing');
  const scenario: Scenario = entry.scenario;
  await page.goto(`/playground/#${await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(wireRows(page, /^elicitation\/create$/, 'server → client')).toHaveCount(1);
  const cancel = wireRows(page, /^notifications\/cancelled$/, 'server → client');
  await expect(cancel).toHaveCount(1);
  await expect(cancel).toContainText('"requestId":0');
  await expect(wireRows(page, 'result of elicitation/create', 'client → server')).toHaveCount(0);
  // The calls table lists the elicitation under the call whose handler sent it, with both tables' steps.
  const asked = page.getByRole('list', { name: 'A asked the client' });
  await expect(asked).toContainText('elicitation/create (server id 0): server awaiting → cancelled; client handler running → cancellation seen → threw → response suppressed');
});

test('the client handler settings: a declared, slow elicitation handler answers the server after its ms', async ({ page }) => {
  await open(page);
  await page.locator('#client-handlers summary').click();
  await page.locator('#handler-elicitation').check();
  await page.locator('#handler-elicitation-ms').fill('300');
  await page.locator('#handler-elicitation-ms').dispatchEvent('change');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  const initialize = wireRows(page, /^initialize$/, 'client → server');
  await expect(initialize).toContainText('"elicitation":{}');
  await askClient(page, 'elicitation/create', 'wait');
  const ask = wireRows(page, /^elicitation\/create$/, 'server → client');
  await expect(ask).toHaveCount(1);
  const answer = wireRows(page, 'result of elicitation/create', 'client → server');
  await expect(answer).toHaveCount(1, { timeout: 10_000 });
  await expect(answer).toContainText('"action":"accept"');
  const sentAt = async (row: ReturnType<typeof wireRows>): Promise<number> => Number(await row.locator('td:nth-child(2)').textContent());
  expect((await sentAt(answer)) - (await sentAt(ask))).toBeGreaterThanOrEqual(300);
  await expect(wireRows(page, 'result of tools/call', 'server → client')).toContainText('the client answered elicitation/create');
});

test('ask_client is refused in the form, with the reason, when the client declares no elicitation; ping goes either way', async ({ page }) => {
  await open(page);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await page.locator('#tool').selectOption('ask_client');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#call-errors')).toContainText('Not called: ask_client cannot send elicitation/create here. The client declares no elicitation capability');
  await expect(rows(page).filter({ hasText: 'tools/call' })).toHaveCount(0);
  await askClient(page, 'ping', 'wait');
  await expect(wireRows(page, /^ping$/, 'server → client')).toHaveCount(1);
  await expect(wireRows(page, 'result of ping', 'client → server')).toHaveCount(1);
});
