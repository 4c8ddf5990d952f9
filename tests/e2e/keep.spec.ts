/**
 * Nothing a user builds is lost: a reload brings the scenario and the editor's text back, edits
 * survive incoming run events, a changed setting replays the steps, another permalink opened in
 * the same tab replays, Share never makes a link the app refuses, and an early click is not dropped.
 */
import { expect, test, type Page } from '@playwright/test';
import { libraryEntry } from '../../src/scenario/library.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

const linkOf = (scenario: Scenario, trace = '') => encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace });
const callRows = (page: Page) => page.locator('#calls-table tbody tr');
const editorText = (page: Page) => page.locator('#scenario-editor .cm-content');

async function ready(page: Page): Promise<void> {
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

/** The scenario editor, as a user reaches it: the Share tab, then its fold. */
async function openEditor(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
}

/** A fresh playground with slow_count's form filled in (not called). */
async function slowCountForm(page: Page, steps: number, stepMs: number): Promise<void> {
  await page.goto('/playground/');
  await ready(page);
  await page.locator('#tool').selectOption('slow_count');
  await page.locator('#arg-steps').fill(String(steps));
  await page.locator('#arg-stepMs').fill(String(stepMs));
}

async function callQuick(page: Page): Promise<void> {
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

test('a reload brings back the steps and the edited editor text, with a notice; Start fresh empties it', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await callQuick(page);
  await callQuick(page);
  await expect(callRows(page)).toHaveCount(2);
  await openEditor(page);
  await expect(editorText(page)).toContainText('"tool": "quick"');
  const mine = JSON.stringify({ ...defaultScenario(), latency: { c2s: 17, s2c: 17 } }, null, 2);
  await editorText(page).fill(mine);
  await expect(page.locator('#editor-state')).toBeVisible();

  await page.reload();
  await expect(page.locator('#work-notice')).toContainText('Restored your scenario from before the reload (2 steps, and your unsaved editor text)');
  await expect(callRows(page)).toHaveCount(2);
  await expect(page.locator('#calls-table tbody tr[data-call="#2"]')).toBeVisible();
  await expect(editorText(page)).toContainText('"c2s": 17');
  await expect(page.locator('#editor-state')).toContainText('edited');

  await page.getByRole('button', { name: 'Start fresh' }).click();
  await expect(page.locator('#work-notice')).toBeHidden();
  await expect(page.locator('#no-calls')).toBeVisible();
  await expect(callRows(page)).toHaveCount(0);
  await expect(page.locator('#editor-state')).toBeHidden();
  await expect(editorText(page)).toContainText('"steps": []');
  // Fresh stays fresh across the next reload.
  await page.reload();
  await ready(page);
  await expect(page.locator('#work-notice')).toBeHidden();
  await expect(page.locator('#no-calls')).toBeVisible();
});

test('a permalink in the address wins over the saved work', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await callQuick(page);
  await expect(callRows(page)).toHaveCount(1);
  const steps = [1, 2, 3].map((i) => ({ at: 20 * i, action: { type: 'call' as const, call: `#${i}`, tool: 'quick', args: {} } }));
  await page.goto(`/playground/#${await linkOf({ ...defaultScenario(), steps, endAt: 300 })}`);
  await expect(callRows(page)).toHaveCount(3);
  await expect(page.locator('#work-notice')).toBeHidden();
});

test('opening another permalink in an open tab (only the fragment changes) replays it', async ({ page }) => {
  const entry = libraryEntry('stop-after-commit-is-not-rollback');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`/playground/#${await linkOf(entry.scenario, entry.trace)}`);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  const steps = [1, 2, 3].map((i) => ({ at: 20 * i, action: { type: 'call' as const, call: `#${i}`, tool: 'quick', args: {} } }));
  const other = await linkOf({ ...defaultScenario(), transport: 'streamable-http', steps, endAt: 300 });
  const before = await page.evaluate(() => performance.getEntriesByType('navigation').length);
  await page.evaluate((hash) => (location.hash = hash), other);
  await expect(page.locator('#transport')).toHaveValue('streamable-http');
  await expect(callRows(page)).toHaveCount(3);
  await expect(page.locator('#calls-table tbody tr[data-call="#3"] td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  await expect(page.locator('#conn-status')).toContainText('Streamable HTTP');
  // The same document: the page did not navigate.
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(before);
});

test('the call form keeps its tool and the arguments typed into it across a reload', async ({ page }) => {
  await slowCountForm(page, 30, 250);
  await page.reload();
  await ready(page);
  await expect(page.locator('#tool')).toHaveValue('slow_count');
  await expect(page.locator('#arg-steps')).toHaveValue('30');
  await expect(page.locator('#arg-stepMs')).toHaveValue('250');
  // Another tool's form starts from its own defaults, and is what comes back next time.
  await page.locator('#tool').selectOption('stubborn');
  await page.reload();
  await ready(page);
  await expect(page.locator('#tool')).toHaveValue('stubborn');
});

test('a broken link pasted into an open tab takes nothing away: the run stays, and after a reload the saved work comes back', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await callQuick(page);
  await callQuick(page);
  await expect(callRows(page)).toHaveCount(2);
  await page.evaluate(() => (location.hash = '#v1.garbage!!'));
  await expect(page.getByRole('alert')).toContainText('This link could not be opened.');
  await expect(page.getByRole('alert')).toContainText('The run below is the one this tab had.');
  await expect(callRows(page)).toHaveCount(2);
  // Reloaded with the broken link still in the address: the tab's work, not an empty playground.
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('The work saved in this tab is back instead.');
  await expect(callRows(page)).toHaveCount(2);
  await expect(page.locator('#work-notice')).toBeVisible();
});

test('edits in the editor survive incoming run events: it says "edited", and Discard follows the run again', async ({ page }) => {
  await slowCountForm(page, 20, 100);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await openEditor(page);
  await expect(editorText(page)).toContainText('"tool": "slow_count"');
  const mine = JSON.stringify({ ...defaultScenario(), endAt: 1234 }, null, 2);
  await editorText(page).fill(mine);
  await expect(page.locator('#editor-state')).toContainText('edited — Run');
  await expect(page.getByRole('button', { name: 'Discard' })).toBeVisible();
  // Progress keeps arriving (the wire log grows) while the text stays the user's.
  const wireRows = page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/progress' });
  await expect.poll(() => wireRows.count()).toBeGreaterThan(3);
  await page.getByRole('heading', { name: 'Connection', exact: true }).click();
  await expect.poll(() => wireRows.count()).toBeGreaterThan(6);
  await expect(editorText(page)).toContainText('"endAt": 1234');
  await expect(editorText(page)).not.toContainText('slow_count');

  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.locator('#editor-state')).toBeHidden();
  await expect(editorText(page)).toContainText('"tool": "slow_count"');
});

test('changing the transport after two calls replays them under the new transport, and says so', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await callQuick(page);
  await callQuick(page);
  await expect(page.locator('#calls-table tbody tr[data-call="#2"] td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#work-notice')).toContainText('Replayed your 2 steps under Streamable HTTP (sessionful).');
  await expect(page.locator('#conn-status')).toContainText('Streamable HTTP');
  await expect(callRows(page)).toHaveCount(2);
  await expect(page.locator('#calls-table tbody tr[data-call="#2"] td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  // The requests went out again, over HTTP this time.
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'POST /mcp' }).first()).toBeAttached();
  // The next call is the third.
  await callQuick(page);
  await expect(page.locator('#calls-table tbody tr[data-call="#3"]')).toBeVisible();
});

test('a step the new setting cannot carry out is kept, and the notice says the engine refused it', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await callQuick(page);
  await page.getByRole('button', { name: 'Crash server' }).click();
  await expect(page.locator('#conn-status')).toContainText('The server crashed');
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#work-notice')).toContainText('Replayed your 2 steps under Streamable HTTP');
  await expect(page.locator('#work-notice')).toContainText('1 could not apply on this setting');
  await expect(page.locator('section.errors')).toBeVisible();
});

test('an over-long fault match or "any id" is refused at the input, and Share still makes a link that opens', async ({ page, context }) => {
  await page.goto('/playground/');
  await ready(page);
  await page.locator('summary', { hasText: 'Standing wire faults' }).click();
  const match = page.locator('#fault-match');
  await expect(match).toHaveAttribute('maxlength', '100');
  await match.fill('');
  await match.pressSequentially('x'.repeat(120));
  await expect(match).toHaveValue('x'.repeat(100));
  await expect(page.locator('#target-id')).toHaveAttribute('maxlength', '100');
  await expect(page.locator('#lat-c2s')).toHaveAttribute('max', '86400000');
  await page.getByRole('button', { name: 'Add fault and replay' }).click();
  await expect(page.locator('#fault-list li')).toHaveCount(1);
  await ready(page);
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.locator('#share-message')).toContainText('Link ready');
  const url = await page.getByLabel('Permalink').inputValue();
  const fresh = await context.newPage();
  await fresh.goto(url);
  await expect(fresh.locator('#fault-list li')).toHaveCount(1);
  await expect(fresh.locator('#link-error')).toBeHidden();
});

test('Share says what the link replays in words that count: one call is "its 1 action"', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await callQuick(page);
  await expect(callRows(page)).toHaveCount(1);
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.locator('#share-message')).toHaveText(/^Link ready \([\d,]+ characters\): it replays its 1 action up to t = [\d,]+ ms\.$/);
});

test('a latency past the bound is refused where it is typed, and Share refuses to link a run that is not what the form shows; Share after typing a latency says what it did', async ({ page, context }) => {
  await page.goto('/playground/');
  await ready(page);
  await page.getByRole('tab', { name: 'Share' }).click();
  const latency = page.locator('#lat-c2s');
  await latency.fill('99999999');
  await page.getByRole('button', { name: 'Share' }).click();
  expect(await latency.evaluate((input: HTMLInputElement) => input.validationMessage)).toContain('86,400,000');
  // The run kept its own latency: a link of it would not be what the form shows, so none is made.
  await expect(page.locator('#share-message')).toHaveText(/^Not shared: Latency → server is not a value the run can take \(.*86,400,000.*\), so the run kept the last one that was\./);
  await expect(page.getByLabel('Permalink')).toHaveValue('');
  await latency.fill('40');
  // Leaving the field applies it (a new run at 40 ms, which moves the page about); then Share.
  await latency.blur();
  await ready(page);
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.locator('#share-message')).toContainText('Link ready');
  const url = await page.getByLabel('Permalink').inputValue();
  const fresh = await context.newPage();
  await fresh.goto(url);
  await expect(fresh.locator('#lat-c2s')).toHaveValue('40');
  await expect(fresh.locator('#link-error')).toBeHidden();
});

test('Call pressed as soon as the page shows it is not lost', async ({ page }) => {
  await page.goto('/playground/');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"]')).toBeVisible();
  await expect(page.locator('#no-calls')).toBeHidden();
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' }).first()).toBeAttached();
});

test('"Replaying…" ends when a replay ends before the handshake does', async ({ page }) => {
  const slow = { ...defaultScenario(), latency: { c2s: 500, s2c: 500 }, endAt: 100 };
  await page.goto(`/playground/#${await linkOf(slow)}`);
  await expect(page.locator('#conn-status')).toContainText('Connecting');
  await expect(page.locator('#conn-status')).not.toContainText('Replaying');
});

test('the error list under Run clears when a new run starts', async ({ page }) => {
  await page.goto('/playground/');
  await ready(page);
  await openEditor(page);
  await editorText(page).fill('{ "version": 1 }');
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#editor-errors li').first()).toBeVisible();
  await page.getByRole('button', { name: 'Reset run' }).click();
  await expect(page.locator('#editor-errors li')).toHaveCount(0);
});
