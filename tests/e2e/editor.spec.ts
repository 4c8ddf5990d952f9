import { expect, test } from '@playwright/test';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

test('the scenario editor follows the run, lints against the schema, and Run replays an edited scenario', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  const content = page.locator('#scenario-editor .cm-content');
  await expect(content).toContainText('"revision": "2025-11-25"');
  await expect(content).toContainText('"tool": "quick"');

  // A wrong value: the linter marks it at its path, and Run refuses with the path.
  const bad = JSON.stringify({ version: 1, revision: '2025-11-25', transport: 'pigeon', httpServer: 'sessionful', latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 500 }, null, 2);
  await content.fill(bad);
  await expect(page.locator('#scenario-editor .cm-lintRange-error')).toHaveCount(1);
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#editor-errors')).toContainText('transport:');

  // A valid edit: the pickers follow it and the run replays it.
  const good = JSON.stringify(
    {
      version: 1,
      revision: '2026-07-28',
      transport: 'streamable-http',
      httpServer: 'stateless',
      latency: { c2s: 5, s2c: 5 },
      steps: [
        { at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps: 3, stepMs: 50 } } },
        { at: 90, action: { type: 'stop', call: '#1' } },
      ],
      endAt: 500,
    },
    null,
    2,
  );
  await content.fill(good);
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#editor-errors')).toBeEmpty();
  await expect(page.locator('#revision')).toHaveValue('2026-07-28');
  await expect(page.locator('#transport')).toHaveValue('streamable-http');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2026-07-28');
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'stream closed by client' })).toHaveCount(1);
});

test('Copy bug report puts Markdown with the permalink, the findings and a mermaid block on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByLabel('Server', { exact: true }).selectOption('py-v1');
  await expect(page.locator('#conn-status')).toContainText('negotiated');
  await page.locator('#tool').selectOption('work');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(3)).toContainText('running');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(page.locator('#findings li[data-rule="CANCEL-NO-RESPONSE"]')).toHaveCount(1);
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Copy bug report (Markdown)' }).click();
  await expect(page.locator('#share-message')).toContainText('Bug report copied');
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  expect(markdown).toMatch(/\*\*Replay it:\*\* http:\/\/localhost:\d+\/playground\/#v1\./);
  expect(markdown).toContain('| warning | CANCEL-NO-RESPONSE');
  expect(markdown).toContain('```mermaid\nsequenceDiagram\n');
  expect(markdown).toContain('<details><summary>Trace (JSON Lines)</summary>');
  expect(markdown).toContain('python-sdk 1.x (1.27–1.29) — emulated');
  // The link in the report replays the same run.
  const link = /\*\*Replay it:\*\* (\S+)/.exec(markdown)?.[1] ?? '';
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.locator('#replay-status')).toContainText('Reproduced exactly');
});

test('a run whose link would be too long is refused at Share, with the scenario to download instead', async ({ page }) => {
  // Opening a long link is fine (only sharing one is refused); this one replays 150 calls.
  const steps = Array.from({ length: 150 }, (_, i) => ({
    at: 20 + i * 7,
    action: { type: 'call' as const, call: `#${i + 1}`, tool: 'ledger_write', args: { key: `order-${i * 7919}`, value: `v${i * 104729}`, commitAfterMs: i, totalMs: i * 3 } },
  }));
  const link = await encodeLink({ ...defaultScenario(), steps, endAt: 2000 }, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' });
  expect(link.length).toBeGreaterThan(2000);
  await page.goto(`/playground/#${link}`);
  await expect(page.locator('#replay-status')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(150);
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.locator('#share-message')).toContainText('over the 2000');
  await expect(page.getByLabel('Permalink')).toHaveValue('');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download scenario.json' }).click();
  expect((await download).suggestedFilename()).toBe('scenario.json');
});
