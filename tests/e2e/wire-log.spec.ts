/**
 * The wire log as an inspector, as a user works it: hide a method, look up a request id, keep
 * a selected frame across a running call and a filter, read why a call failed (on a phone too), and scroll a
 * run of thousands of frames that renders only the rows in view.
 */
import { expect, test, type Page } from '@playwright/test';
import { defaultScenario } from '../../src/scenario/index.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

const rows = (page: Page) => page.locator('#wire-table tbody tr');
const methodCell = (page: Page, text: string | RegExp) => rows(page).filter({ has: page.locator('td:nth-child(7)', { hasText: text }) });

async function open(page: Page): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

async function countTo(page: Page, steps: number, stepMs: number): Promise<void> {
  await page.locator('#tool').selectOption('slow_count');
  await page.locator('#arg-steps').fill(String(steps));
  await page.locator('#arg-stepMs').fill(String(stepMs));
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

test('hiding notifications/progress leaves the other frames, and the count says how many', async ({ page }) => {
  await open(page);
  await countTo(page, 5, 20);
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(1);
  await expect(methodCell(page, 'notifications/progress')).toHaveCount(5);
  const total = await rows(page).count();
  await expect(page.locator('#wire-count')).toHaveText(`${total} of ${total} frames`);
  await page.locator('#wire-methods label', { hasText: 'notifications/progress' }).getByRole('checkbox').uncheck();
  await expect(methodCell(page, 'notifications/progress')).toHaveCount(0);
  await expect(rows(page)).toHaveCount(total - 5);
  await expect(page.locator('#wire-count')).toHaveText(`${total - 5} of ${total} frames`);
  await expect(methodCell(page, /^tools\/call$/)).toHaveCount(1);
  // The duration column: the request to its response.
  await expect(methodCell(page, /^tools\/call$/).locator('td.duration')).toHaveText(/^\d+ ms$/);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows(page)).toHaveCount(total);
});

test('a request id and free text narrow the log to one call', async ({ page }) => {
  await open(page);
  await countTo(page, 2, 10);
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(1);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(2);
  await page.locator('#wire-id').fill('2');
  await expect(methodCell(page, /^tools\/call$/)).toHaveCount(1);
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(1);
  for (const id of await rows(page).locator('td:nth-child(8)').allTextContents()) expect(id).toBe('2');
  await page.locator('#wire-id').fill('');
  await page.locator('#wire-search').fill('"requestId":1'); // nothing carries it: the calls were not cancelled
  await expect(rows(page)).toHaveCount(0);
  await expect(page.locator('#wire-count')).toHaveText(/^0 of \d+ frames$/);
  await page.locator('#wire-search').fill('"_meta":{"progressToken"');
  await expect(rows(page)).toHaveCount(2);
});

test('a selected frame stays selected while the run goes on, and through a filter that hid it', async ({ page }) => {
  await open(page);
  await countTo(page, 5, 300);
  const request = methodCell(page, /^tools\/call$/);
  await request.click();
  await expect(request).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#wire-detail pre')).toContainText('"name": "slow_count"');
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(1, { timeout: 10_000 });
  await expect(methodCell(page, 'notifications/progress')).toHaveCount(5);
  await expect(request).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#wire-table tbody tr[aria-current="true"]')).toHaveCount(1);
  await page.locator('#wire-methods label', { hasText: 'tools/call' }).getByRole('checkbox').uncheck();
  await expect(request).toHaveCount(0);
  await expect(page.locator('#wire-detail')).toContainText('The filter hides this frame');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(request).toHaveAttribute('aria-current', 'true');
});

test('the arrow keys move the selection row by row through the rows the filter keeps', async ({ page }) => {
  await open(page);
  await countTo(page, 3, 10);
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(1);
  await page.locator('#wire-methods label', { hasText: 'notifications/progress' }).getByRole('checkbox').uncheck();
  const request = methodCell(page, /^tools\/call$/);
  await request.click();
  await expect(request).toHaveAttribute('aria-current', 'true');
  // The next row the filter keeps is the call's result: the progress rows between are hidden.
  await page.keyboard.press('ArrowDown');
  await expect(methodCell(page, 'result of tools/call')).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#wire-detail pre')).toContainText('"result"');
  await page.keyboard.press('ArrowUp');
  await expect(request).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#wire-table tbody tr[aria-current="true"]')).toHaveCount(1);
});

test('a call that failed says why above the log and in the calls table, in the server’s words', async ({ page }) => {
  const scenario = {
    ...defaultScenario(),
    steps: [{ at: 20, action: { type: 'call' as const, call: '#1', tool: 'slow_count', args: { steps: 0, stepMs: 1 } } }],
    endAt: 200,
  };
  await page.goto(`/playground/#${await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' })}`);
  await expect(page.locator('#wire-calls li[data-call="#1"] .outcome')).toHaveText(/^FAILED — tool error: Input validation error: .*steps/);
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(2).locator('.why')).toHaveText(/^tool error: Input validation error: .*steps/);
  await page.locator('#wire-calls li[data-call="#1"]').getByRole('button', { name: 'Only #1' }).click();
  await expect(page.locator('#wire-call')).toHaveValue('#1');
  await expect(rows(page)).toHaveCount(2);
});

test('a run of thousands of frames renders only the rows in view, and scrolls to the end', async ({ page }) => {
  const scenario = {
    ...defaultScenario(),
    steps: [{ at: 20, action: { type: 'call' as const, call: '#1', tool: 'slow_count', args: { steps: 3000, stepMs: 1 } } }],
    endAt: 4000,
  };
  await page.goto(`/playground/#${await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' })}`);
  const count = page.locator('#wire-count');
  await expect(count).toHaveText('3005 of 3005 frames', { timeout: 60_000 });
  await expect(page.locator('#wire-table')).toHaveAttribute('aria-rowcount', '3006');
  // At the tail: the rows in view and the 20 above them (wire-scroller.ts), not the 3,006 the log holds.
  expect(await rows(page).count()).toBeLessThan(60);
  const scroller = page.locator('#wire-scroll');
  await scroller.evaluate((el) => (el.scrollTop = 0));
  await expect(rows(page).first()).toHaveAttribute('aria-rowindex', '2');
  await expect(methodCell(page, /^initialize$/)).toHaveCount(1);
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(methodCell(page, 'result of tools/call')).toHaveCount(1);
  await expect(rows(page).last()).toHaveAttribute('aria-rowindex', '3006');
  await expect(methodCell(page, /^initialize$/)).toHaveCount(0);
  // Searching finds what is not rendered.
  await page.locator('#wire-search').fill('"progress":1500,');
  await expect(rows(page)).toHaveCount(1);
});

test('at 390 px a call above the log reads across: its outcome has the width of the log, not one letter a line', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page);
  await countTo(page, 5, 1000);
  const item = page.locator('#wire-calls li[data-call="#1"]');
  await expect(item.locator('.outcome')).toHaveText('running');
  const [outcome, list, button] = await Promise.all([item.locator('.outcome').boundingBox(), page.locator('#wire-calls').boundingBox(), item.getByRole('button', { name: 'Only #1' }).boundingBox()]);
  if (!outcome || !list || !button) throw new Error('the call strip is not laid out');
  // One line of text, and the word whole on it (before, the outcome got what the other three columns left: a few px).
  expect(outcome.height).toBeLessThan(30);
  expect(outcome.width).toBeGreaterThan(list.width / 3);
  // Its button is still in the strip, on screen.
  expect(button.x + button.width).toBeLessThanOrEqual(list.x + list.width + 0.5);
});

test('the frame count is announced when the user filters, not at every frame a run adds', async ({ page }) => {
  await open(page);
  const count = page.locator('#wire-count');
  // Count every change of its text while its region is live: under 20 ms progress it was ~16 a second.
  await count.evaluate((output) => {
    const heard: string[] = [];
    Object.assign(window, { __heard: heard });
    new MutationObserver(() => {
      if (output.getAttribute('aria-live') !== 'off') heard.push(output.textContent ?? '');
    }).observe(output, { childList: true, characterData: true, subtree: true });
  });
  await countTo(page, 40, 20);
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(4)).toHaveText(/^40 \/ 40/);
  const heard = () => page.evaluate(() => (window as unknown as { __heard: string[] }).__heard);
  expect(await heard()).toEqual([]);
  await page.locator('#wire-dir').selectOption('c2s');
  await expect(count).toHaveAttribute('aria-live', 'polite');
  await expect.poll(heard).toEqual([expect.stringMatching(/^\d+ of \d+ frames$/)]);
});
