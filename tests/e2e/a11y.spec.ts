/**
 * Accessibility: axe finds no serious or critical violation on the home page, a lesson, the
 * playground (running a call) and the embed; and no page asks for anything outside its origin.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

async function serious(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

function watchOrigin(page: Page, base: string): string[] {
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) outside.push(r.url());
  });
  return outside;
}

test('home page', async ({ page, baseURL }) => {
  const outside = watchOrigin(page, baseURL ?? '');
  await page.goto('/');
  expect(await serious(page)).toEqual([]);
  expect(outside).toEqual([]);
});

test('a lesson with an embedded scenario', async ({ page, baseURL }) => {
  const outside = watchOrigin(page, baseURL ?? '');
  await page.goto('/lessons/what-cancellation-is/');
  await expect(page.locator('figure.cancel-lab-embed').first()).toBeVisible();
  expect(await serious(page)).toEqual([]);
  expect(outside).toEqual([]);
});

test('a lesson on a phone (390 px): the embed’s wire log stacks to fit the column, and a keyboard can still reach it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/lessons/what-cancellation-is/');
  const log = page.locator('figure.cancel-lab-embed .embed-log').first();
  await expect(log).toBeVisible();
  // Each row is stacked (time, direction, method and id, then the message), so nothing scrolls sideways.
  expect(await log.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(log).toHaveAttribute('tabindex', '0');
  await expect(page.getByRole('region', { name: /^Wire log: / }).first()).toBeVisible();
  expect(await serious(page)).toEqual([]);
});

test('the playground, with a call running and the diagrams drawn', async ({ page, baseURL }) => {
  const outside = watchOrigin(page, baseURL ?? '');
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await page.getByRole('tab', { name: 'Diagrams' }).click();
  await page.locator('section.diagrams').scrollIntoViewIfNeeded();
  await expect(page.locator('#sequence-diagram svg')).toBeVisible();
  expect(await serious(page)).toEqual([]);
  expect(outside).toEqual([]);
  // The page has its one title, above the panels' own headings (axe's page-has-heading-one is a moderate rule).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Playground');
});

test('the embed', async ({ page, baseURL }) => {
  const outside = watchOrigin(page, baseURL ?? '');
  await page.goto('/scenarios/');
  const href = (await page.locator('li#seed-000-strict-host-python-v1 a').first().getAttribute('href')) ?? '';
  await page.goto(href.replace('/playground/', '/embed/'));
  await expect(page.getByRole('button', { name: 'Run live' })).toBeVisible();
  expect(await serious(page)).toEqual([]);
  expect(outside).toEqual([]);
});
