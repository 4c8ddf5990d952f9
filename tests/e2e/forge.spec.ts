/** Any message typed as JSON in the Faults panel, and Stop before the wire from the Call form. */
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { defaultScenario, libraryEntry } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

async function open(page: Page, fragment = ''): Promise<void> {
  await page.goto(`/playground/${fragment}`);
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
}

const injectedRows = (page: Page) => page.locator('#wire-table tbody tr').filter({ has: page.locator('.badge', { hasText: 'injected' }) });

test('a request typed as JSON goes on the wire exactly as typed, marked injected, and its reused id is judged', async ({ page }) => {
  await open(page);
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
  await open(page);
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
  await open(page);
  await page.getByRole('button', { name: 'Call + Stop in the same tick' }).click();
  const call = page.locator('#calls-table tbody tr[data-call="#1"]');
  await expect(call.locator('td').nth(2)).toContainText('STOPPED_BEFORE_SEND');
  await expect(call.locator('td').nth(1)).toHaveText('—');
  // Nothing will ever reach the server: not "not received yet".
  await expect(call.locator('td').nth(3)).toHaveText('never sent');
  await expect(call.getByRole('button', { name: 'Stop #1' })).toBeDisabled();
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(0);
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/cancelled' })).toHaveCount(0);
  // A call with a signal already aborted ends the same way.
  await page.getByRole('button', { name: 'Call with an aborted signal' }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#2"] td').nth(2)).toContainText('STOPPED_BEFORE_SEND');
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(0);
});

test('a forged message past the bound is marked in the editor at its path, and Run refuses it', async ({ page }) => {
  await open(page);
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  const content = page.locator('#scenario-editor .cm-content');
  await expect(content).toContainText('"revision": "2025-11-25"');
  const message = { jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(10_000) } };
  const tooLong = { ...defaultScenario(), steps: [{ at: 20, action: { type: 'inject', dir: 'c2s', message } }] };
  await content.fill(JSON.stringify(tooLong, null, 2));
  // One problem, marked on the long value (CodeMirror may draw one range in several pieces).
  await expect(page.locator('#scenario-editor .cm-lintRange-error').first()).toBeVisible();
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#editor-errors li')).toHaveText([`steps.0.action.message: ${JSON.stringify(message).length.toLocaleString('en-US')} characters as JSON, more than the 10,000 a forged message may have`]);
});

test('a permalink with forged messages and a Stop before the wire replays them', async ({ page }) => {
  const entry = libraryEntry('forged-request-reuses-an-in-flight-id');
  if (!entry) throw new Error('library entry missing');
  const steps = [...entry.scenario.steps, { at: 300, action: { type: 'call' as const, call: 'B', tool: 'quick', args: {}, stop: 'same-tick' as const } }];
  const link = await encodeLink({ ...entry.scenario, steps }, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' });
  await open(page, `#${link}`);
  const forged = injectedRows(page);
  await expect(forged).toHaveCount(1);
  await expect(forged.locator('td.message')).toContainText('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quick","arguments":{}}}');
  await expect(page.locator('#calls-table tbody tr[data-call="A"] td').nth(2)).toContainText('SUCCEEDED');
  await expect(page.locator('#calls-table tbody tr[data-call="B"] td').nth(2)).toContainText('STOPPED_BEFORE_SEND');
  await expect(page.locator('#findings li[data-rule="ID-UNIQUE"]')).toHaveCount(1);
});
