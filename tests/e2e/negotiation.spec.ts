/**
 * Version negotiation in the Connection panel, and a reported race opened from the gallery:
 * what the controls set reaches the real SDKs' handshake on the wire, a negotiation the schema
 * refuses is refused where it was typed, and a gallery scenario replays its symptom exactly.
 */
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { libraryEntry } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

const wire = (page: Page) => page.locator('#wire-table tbody tr');

async function ready(page: Page): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

test('each side’s supported revisions: the server counter-offers, the client refuses, and auto falls back to initialize', async ({ page }) => {
  await ready(page);
  await page.locator('#negotiation summary').click();
  await page.getByLabel('Protocol revision').selectOption('2025-06-18');
  await expect(wire(page).filter({ hasText: '"protocolVersion":"2025-06-18"' })).toHaveCount(2);

  await page.getByLabel('Client supports').fill('2025-06-18');
  await page.getByLabel('Client supports').dispatchEvent('change');
  await page.getByLabel('Server supports').fill('2025-11-25');
  await page.getByLabel('Server supports').dispatchEvent('change');
  // The client offers 2025-06-18; the server answers with its own, which the client does not support.
  await expect(wire(page).filter({ hasText: '"method":"initialize","params":{"protocolVersion":"2025-06-18"' })).toHaveCount(1);
  await expect(wire(page).filter({ hasText: '"result":{"protocolVersion":"2025-11-25"' })).toHaveCount(1);
  await expect(wire(page).filter({ hasText: 'notifications/initialized' })).toHaveCount(0);
  await expect(page.locator('#conn-status')).toContainText('Disconnected');
  await expect(page.locator('#conn-status')).toContainText('client supports 2025-06-18 · server supports 2025-11-25');

  // pin without a 2026-era revision is refused beside the controls; the run keeps its setting.
  await page.getByLabel('Client mode').selectOption('pin');
  await expect(page.locator('#negotiation-error')).toContainText('needs 2026-07-28');
  await expect(wire(page).filter({ hasText: 'server/discover' })).toHaveCount(0);

  await page.getByLabel('Protocol revision').selectOption('2026-07-28');
  await page.getByLabel('Client supports').fill('2026-07-28, 2025-11-25');
  await page.getByLabel('Client mode').selectOption('auto');
  await expect(page.locator('#negotiation-error')).toBeHidden();
  await expect(wire(page).filter({ hasText: '"method":"server/discover"' })).toHaveCount(1);
  await expect(wire(page).filter({ hasText: '"error":{"code":-32601,"message":"Method not found"}' })).toHaveCount(1);
  await expect(wire(page).filter({ hasText: '"method":"initialize","params":{"protocolVersion":"2025-11-25"' })).toHaveCount(1);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
});

test('a reported race from the gallery: the Go SDK server still answers a cancelled request, reproduced exactly', async ({ page }) => {
  await page.goto('/scenarios/');
  const reported = page.locator('section.gallery-group').filter({ has: page.getByRole('heading', { level: 2, name: 'Reported races, from the SDKs’ and hosts’ issue trackers' }) });
  const go = reported.locator('li#go-sdk-1235-cancelled-request-still-answered');
  await expect(go).toContainText('server go (emulated)');
  await expect(go.getByRole('link', { name: 'modelcontextprotocol/go-sdk#1235 (and #1259)' })).toHaveAttribute('href', 'https://github.com/modelcontextprotocol/go-sdk/issues/1235');
  await expect(reported.locator('li#rust-sdk-1251-server-cancel-removes-a-client-waiter')).toBeVisible();
  await go.getByRole('link').first().click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(wire(page).filter({ hasText: '"id":1,"result":{"content":[{"type":"text","text":"context canceled"}],"isError":true}' })).toHaveCount(1);
  await expect(page.locator('#server-log')).toContainText('processResult writes the response for cancelled request 1');
  await expect(page.locator('#profile-notes')).toContainText('Go SDK server (v1.7.0) — emulated');
});

test("a reported race from the gallery: rmcp's client ends an unrelated call with Cancelled when the server cancels its own elicitation (rust-sdk #1251)", async ({ page }) => {
  await page.goto('/scenarios/');
  const rmcp = page.locator('li#rust-sdk-1251-server-cancel-removes-a-client-waiter');
  await expect(rmcp).toContainText('client rmcp (emulated)');
  await rmcp.getByRole('link').first().click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(wire(page).filter({ hasText: '"method":"notifications/cancelled","params":{"requestId":1,"reason":"the server stopped waiting"}' })).toHaveCount(1);
  const callA = page.locator('#calls-table tbody tr[data-call="A"]');
  await expect(callA.locator('td').nth(2).locator('.state')).toHaveText('FAILED');
  await expect(callA).toContainText('ServiceError::Cancelled: task cancelled for reason the server stopped waiting');
  await expect(page.locator('#profile-notes')).toContainText('rust-sdk rmcp 3.1.4 client — emulated');
});

test('the editor lints a negotiation its sides cannot take, and a link carries one into the controls', async ({ page }) => {
  const entry = libraryEntry('negotiation-server-answers-an-older-client');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`/playground/#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.getByLabel('Client supports')).toHaveValue('2025-06-18');
  await expect(page.getByLabel('Server supports')).toHaveValue('2025-11-25, 2025-06-18');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-06-18');

  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  const content = page.locator('#scenario-editor .cm-content');
  await expect(content).toContainText('"negotiation"');
  const refused = { ...entry.scenario, clientProfile: 'ts-v1' };
  await content.fill(JSON.stringify(refused, null, 2));
  // The mark covers the client list (one range per line it spans).
  await expect(page.locator('#scenario-editor .cm-lintRange-error').first()).toBeVisible();
  await expect(page.locator('#scenario-editor .cm-lintRange-error').first()).toContainText('[');
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#editor-errors')).toContainText('negotiation.client: the real TypeScript SDK v1 takes no list');
});


test('what the user types in the next field while the run of the last change starts is kept: the paint of that run does not write over it', async ({ page }) => {
  await ready(page);
  await page.locator('#negotiation summary').click();
  await page.getByLabel('Protocol revision').selectOption('2025-06-18');
  await expect(wire(page).filter({ hasText: '"protocolVersion":"2025-06-18"' })).toHaveCount(2);
  // One change starts a run, and the user is typing in the next field before that run paints:
  // all in one task, so no paint can come between.
  await page.evaluate(() => {
    const client = document.getElementById('client-versions') as HTMLInputElement;
    const server = document.getElementById('server-versions') as HTMLInputElement;
    client.value = '2025-06-18';
    client.dispatchEvent(new Event('change'));
    server.focus();
    server.value = '2025-11-25';
  });
  await expect(page.locator('#conn-status')).toContainText('client supports 2025-06-18');
  await expect(page.getByLabel('Server supports')).toHaveValue('2025-11-25');
  await page.getByLabel('Server supports').dispatchEvent('change');
  await expect(page.locator('#conn-status')).toContainText('client supports 2025-06-18 · server supports 2025-11-25');
});
