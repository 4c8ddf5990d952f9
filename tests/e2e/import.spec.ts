/**
 * Importing a trace in the playground: a file opened (or text pasted) is read in a worker and
 * shown in the wire log and the verdict like a run, while the user's own run waits behind it;
 * bad input gets its message at the import control and changes nothing else.
 */
import { expect, test, type Page } from '@playwright/test';
import { sample } from './import-samples.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';


async function ready(page: Page): Promise<void> {
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

async function openImport(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Share' }).click();
}

test('a stdio log opened from a file shows in the wire log and the verdict; the user’s run comes back', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(1);
  await openImport(page);
  await page.locator('#import-file').setInputFiles(sample('stdio-cancel-initialize.log'));
  await expect(page.locator('#import-message')).toContainText('Imported stdio-cancel-initialize.log: a stdio log');
  await expect(page.locator('#work-notice')).toContainText('Showing the trace imported from stdio-cancel-initialize.log');
  await expect(page.locator('#conn-status')).toContainText('An imported trace: it shows what crossed the wire where the log was taken');
  await expect(page.locator('#wire-scroll')).toContainText('notifications/cancelled');
  // The method chips are the import's (it has no tools/call), not the run's left over.
  const chips = page.locator('#wire-methods label');
  await expect(chips).toHaveText(['initialize(2)', 'notifications/cancelled(1)']);
  await expect(page.locator('#wire-caption')).toHaveText(/^Every frame the imported log recorded/);
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await expect(page.locator('#findings li[data-rule="CANCEL-NO-INITIALIZE"] summary')).toContainText('CANCEL-NO-INITIALIZE');
  await page.getByRole('button', { name: 'Back to your run' }).click();
  await expect(page.locator('#work-notice')).toBeHidden();
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(1);
  await expect(chips.filter({ hasText: 'tools/call' })).toHaveCount(1);
  await expect(page.locator('#wire-caption')).toHaveText(/^Every frame on the simulated stdio wire/);
});

test('over an imported trace, a changed setting replays the user’s own steps, and a reload brings them back', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(1);
  await openImport(page);
  await page.locator('#import-file').setInputFiles(sample('stdio-r2-clean.log'));
  await expect(page.locator('#work-notice')).toContainText('Showing the trace imported from stdio-r2-clean.log');
  await page.reload();
  await expect(page.locator('#work-notice')).toContainText('Restored your scenario from before the reload (1 step');
  await openImport(page);
  await page.locator('#import-file').setInputFiles(sample('stdio-r2-clean.log'));
  await expect(page.locator('#work-notice')).toContainText('Showing the trace imported');
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#work-notice')).toContainText('Replayed your 1 step under Streamable HTTP');
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(1);
});

test('bad input gets its message at the import control; a trace without a transport asks for one', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await openImport(page);
  await page.locator('#import-text').fill('hello\nworld');
  await page.getByRole('button', { name: 'Import the pasted text' }).click();
  await expect(page.locator('#import-message')).toContainText('Unknown format');
  await expect(page.locator('#work-notice')).toBeHidden();
  await page.locator('#import-file').setInputFiles(sample('inspector-sdk-v2-stdio.json'));
  await expect(page.locator('#import-message')).toContainText('does not record its transport: pick it above');
  await page.locator('#import-transport').selectOption('stdio');
  await page.locator('#import-file').setInputFiles(sample('inspector-sdk-v2-stdio.json'));
  await expect(page.locator('#work-notice')).toContainText('judged by 2025-11-25 on stdio');
});

test('a paste that failed while an import is shown: its message goes once a scenario is made from the import', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await openImport(page);
  await page.locator('#import-file').setInputFiles(sample('stdio-python-v1-code-0.log'));
  await expect(page.locator('#import-message')).toContainText('Imported stdio-python-v1-code-0.log');
  await page.locator('#import-text').fill('hello\nworld');
  await page.getByRole('button', { name: 'Import the pasted text' }).click();
  await expect(page.locator('#import-message')).toContainText('Unknown format');
  // The log imported before is still what the page shows, and the user goes on with it.
  await page.getByRole('button', { name: 'Make a scenario from this trace' }).click();
  await expect(page.locator('#import-match')).toHaveText('The scenario’s run against the imported trace: 10 of 10 frames match.');
  await expect(page.locator('#import-message')).toHaveText('');
});

test('a 100,000-line log is read in a worker, with a progress bar, and shown', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = await mkdtemp(join(tmpdir(), 'cancel-lab-import-'));
  const lines = ['> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}', '< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}'];
  for (let i = 1; lines.length < 100_000; i++) lines.push(`> {"jsonrpc":"2.0","id":${i},"method":"ping"}`, `< {"jsonrpc":"2.0","id":${i},"result":{}}`);
  const file = join(dir, 'big.log');
  await writeFile(file, lines.join('\n'));
  try {
    await page.goto('/playground/');
    await ready(page);
    await openImport(page);
    await page.locator('#import-file').setInputFiles(file);
    await expect(page.locator('#import-progress')).toBeVisible();
    await expect(page.locator('#import-message')).toContainText('Imported big.log: a stdio log', { timeout: 60_000 });
    await expect(page.locator('#import-progress')).toBeHidden();
    await expect(page.locator('#wire-count')).toHaveText('100000 of 100000 frames');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the run downloads as another tool’s capture: mcpsnoop JSONL on stdio, which the Import panel reads back; a HAR on HTTP', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr').first()).toContainText('SUCCEEDED');
  await openImport(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download as mcpsnoop JSONL session log' }).click();
  const file = await (await download).path();
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as { direction: string; raw?: { method?: string } });
  expect(lines[0]?.direction).toBe('meta');
  expect(lines.some((l) => l.direction === 'c2s' && l.raw?.method === 'tools/call')).toBe(true);
  // What was downloaded opens in the Import panel as mcpsnoop's log.
  await page.locator('#import-file').setInputFiles(file);
  await expect(page.locator('#import-message')).toContainText('mcpsnoop');
  await expect(page.locator('#wire-scroll')).toContainText('tools/call');
  await page.getByRole('button', { name: 'Back to your run' }).click();
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.getByRole('button', { name: 'Download as HAR 1.2' })).toBeVisible();
});
