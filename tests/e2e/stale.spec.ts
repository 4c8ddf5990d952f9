/**
 * Nothing the playground shows is left over from before: the status line, the reproduction
 * banner and the hold buttons each follow the run as the user changes it.
 */
import { expect, test } from '@playwright/test';
import { libraryEntry } from '../../src/scenario/library.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

test('after Crash server on stdio the status line says the server crashed, not "Connected"', async ({ page }) => {
  await page.goto('/playground/');
  const status = page.locator('#conn-status');
  await expect(status).toContainText('Connected: negotiated protocol version 2025-11-25');
  await page.getByRole('button', { name: 'Crash server' }).click();
  await expect(status).toContainText('The server crashed');
  await expect(status).not.toContainText('Connected');
  // Restarting brings the handshake, and the status line, back.
  await page.getByRole('button', { name: 'Restart server and reconnect' }).click();
  await expect(status).toContainText('Connected: negotiated protocol version 2025-11-25');
});

test('the "Reproduced exactly" banner goes once the scenario is edited and re-run', async ({ page }) => {
  const entry = libraryEntry('stop-after-commit-is-not-rollback');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`/playground/#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
  const banner = page.locator('#replay-status');
  await expect(banner).toContainText('Reproduced exactly');
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  const content = page.locator('#scenario-editor .cm-content');
  await expect(content).toContainText('"key": "order-42"');
  await content.fill(JSON.stringify({ ...entry.scenario, latency: { c2s: 40, s2c: 40 } }, null, 2));
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#lat-c2s')).toHaveValue('40');
  await expect(page.locator('#ledger-table tbody tr')).toContainText('order-42');
  await expect(banner).toBeHidden();
  await expect(page.getByText('Reproduced exactly')).toBeHidden();
});

test('the banner also goes when the user acts on the replayed run', async ({ page }) => {
  const entry = libraryEntry('stop-after-commit-is-not-rollback');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`/playground/#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"]')).toBeVisible();
  await expect(page.locator('#replay-status')).toBeHidden();
});

test('a permalink with a hold step opens with the hold button saying Release, pressed', async ({ page }) => {
  const scenario = {
    ...defaultScenario(),
    steps: [
      { at: 20, action: { type: 'hold' as const, dir: 's2c' as const } },
      { at: 30, action: { type: 'call' as const, call: '#1', tool: 'quick', args: {} } },
    ],
    endAt: 200,
  };
  await page.goto(`/playground/#${await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' })}`);
  await expect(page.locator('#replay-status')).toBeVisible();
  const hold = page.locator('#hold-s2c');
  await expect(hold).toHaveText('Release server → client');
  await expect(hold).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('#hold-c2s')).toHaveText('Hold client → server');
  // The held response is still on the wire; released, it arrives once time runs on.
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'result of tools/call' }).locator('td.delivered')).toHaveText('held');
  await hold.click();
  await expect(hold).toHaveText('Hold server → client');
  await expect(hold).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
});
