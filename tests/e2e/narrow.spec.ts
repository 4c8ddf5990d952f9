/**
 * On a phone (390×844) no page of the docs scrolls sideways, in the light theme or the dark: the
 * home page, every page in Starlight's sidebar (the guide, the lessons, the rule reference), the
 * scenario gallery and the embed with a run on its log. Wide content scrolls in its own box or
 * reflows; the page itself is as wide as the screen. axe finds no serious or critical violation
 * on the rule reference and the gallery at that width. (The playground has its own layout work.)
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

test.use({ viewport: { width: 390, height: 844 } });

/** The theme Starlight (and the gallery's layout) reads before the first paint. */
async function pickTheme(page: Page, theme: Theme): Promise<void> {
  await page.addInitScript((t) => localStorage.setItem('starlight-theme', t), theme);
}

/** How far the page scrolls sideways, and the elements that stick out past the viewport. */
async function sideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number; widest: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const widest = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
      .filter((el) => (el.parentElement?.getBoundingClientRect().right ?? 0) <= root.clientWidth + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.classList.value} (${el.textContent?.trim().slice(0, 40) ?? ''})`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest: widest.slice(0, 5) };
  });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth, widest } = await sideways(page);
  expect(scrollWidth, `${page.url()} is ${scrollWidth} px wide in a ${clientWidth} px viewport: ${widest.join('; ')}`).toBeLessThanOrEqual(
    clientWidth,
  );
}

/** The home page and every docs page the sidebar lists (the playground is not one of them). */
async function docsPages(page: Page): Promise<string[]> {
  await page.goto('/guides/getting-started/');
  const hrefs = await page.locator('nav.sidebar a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const pages = ['/', ...new Set(hrefs.filter((h) => h !== '/playground/'))];
  // The list is the sidebar's: the guide, seven lessons and the rule reference at least.
  expect(pages).toEqual(expect.arrayContaining(['/', '/guides/getting-started/', '/lessons/races/', '/reference/rules/']));
  expect(pages.length).toBeGreaterThanOrEqual(10);
  return pages;
}

async function serious(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

for (const theme of THEMES) {
  test(`no docs page scrolls sideways at 390 px (${theme})`, async ({ page }) => {
    await pickTheme(page, theme);
    for (const path of await docsPages(page)) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expectNoSidewaysScroll(page);
    }
  });

  test(`the gallery and a running embed fit at 390 px (${theme})`, async ({ page }) => {
    await pickTheme(page, theme);
    await page.goto('/scenarios/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectNoSidewaysScroll(page);

    // The embed is themed by its query (other sites' iframes have no localStorage of ours).
    const href = (await page.locator('li#sdk-stateless-http-loses-cancel a').first().getAttribute('href')) ?? '';
    await page.goto(href.replace('/playground/#', `/embed/?theme=${theme}#`));
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.getByRole('button', { name: 'Run live' }).click();
    // The run has reached the cancel: the log holds long JSON lines by now.
    await expect(page.locator('.embed-log')).toContainText('notifications/cancelled');
    await expectNoSidewaysScroll(page);
  });

  test(`axe at 390 px: the rule reference (${theme})`, async ({ page }) => {
    // Sixty-odd tables: axe takes tens of seconds here on a busy machine.
    test.slow();
    await pickTheme(page, theme);
    await page.goto('/reference/rules/');
    // Stacked, not side by side: a revision's wording is as wide as the table.
    const table = page.locator('table.rule-table').first();
    const quote = table.locator('tr.row-quote td').first();
    expect((await quote.boundingBox())?.width).toBeGreaterThan(0.9 * ((await table.boundingBox())?.width ?? 0));
    expect(await serious(page)).toEqual([]);
  });

  test(`axe at 390 px: the gallery (${theme})`, async ({ page }) => {
    await pickTheme(page, theme);
    await page.goto('/scenarios/');
    expect(await serious(page)).toEqual([]);
  });
}

test('at 1400 px the rule reference keeps one column per revision', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/reference/rules/');
  const row = page.locator('table.rule-table').first().locator('tr.row-quote');
  const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().top));
  expect(cells.length).toBeGreaterThan(1);
  expect(new Set(cells).size).toBe(1);
});

test('a docs table wider than the column takes the focus, so a keyboard can scroll it; one that fits is no tab stop', async ({ page }) => {
  await page.goto('/lessons/revisions-and-transports/');
  const tables = page.locator('.sl-markdown-content table');
  await expect(tables.first()).toBeVisible();
  const wide = await tables.evaluateAll((all) => all.map((t) => [t.scrollWidth > t.clientWidth, t.getAttribute('tabindex')]));
  expect(wide.some(([scrolls]) => scrolls)).toBe(true);
  await expect.poll(() => tables.evaluateAll((all) => all.map((t) => (t.scrollWidth > t.clientWidth) === (t.getAttribute('tabindex') === '0')))).not.toContain(false);
  // Scrolled from the keyboard: focus it, then the arrow key moves it sideways.
  const matrix = tables.filter({ hasText: 'HTTP+SSE' }).first();
  await matrix.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => matrix.evaluate((t) => t.scrollLeft)).toBeGreaterThan(0);
  expect(await serious(page)).toEqual([]);
});
