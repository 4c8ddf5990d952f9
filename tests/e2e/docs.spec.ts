import { expect, test, type Page } from '@playwright/test';
import { CATALOG, ruleById } from '../../src/rules/catalog.ts';
import { plainText } from '../../src/report/rule-reference.ts';

const RULE = 'CANCEL-NO-RESPONSE';
/** The spec repository at the commit the catalog's quotes were checked against. */
const SPEC_BLOB = 'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/b0f60ba';

/** Whitespace collapsed, as the reader sees it in one line. */
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

function baseUrl(): string {
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error('playwright.config.ts sets no baseURL');
  return base;
}

/** Records every request the page makes, to check that none leaves the site's origin. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

async function search(page: Page, query: string): Promise<void> {
  await page.getByRole('button', { name: 'Search' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Search' }).fill(query);
}

test('the docs home page renders: title, the two paragraphs, a link to the playground, search and theme picker', async ({ page }) => {
  await page.goto('/');
  // The site's name once, not "MCP Cancel Lab | MCP Cancel Lab".
  await expect(page).toHaveTitle('MCP Cancel Lab');
  await expect(page.getByRole('heading', { level: 1, name: 'MCP Cancel Lab' })).toBeVisible();
  const content = page.locator('main .sl-markdown-content');
  await expect(content).toContainText('run in a Web Worker in this page, joined by a simulated wire in virtual time');
  await expect(content).toContainText('Every run is deterministic');
  await expect(content.getByRole('link', { name: 'Open the playground →' })).toHaveAttribute('href', '/playground/');
  await expect(page.getByRole('button', { name: 'Search' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Select theme' }).first()).toBeAttached();
});

test(`the rule reference shows ${RULE}: its 2025-11-25 wording, keyword, and the spec link at the pinned commit`, async ({ page }) => {
  const rule = ruleById(RULE);
  const clause = rule?.revisions['2025-11-25']?.[0];
  if (!rule || !clause) throw new Error(`${RULE} has no 2025-11-25 clause in the catalog`);

  await page.goto(`/reference/rules/#${RULE}`);
  const heading = page.locator(`h3#${RULE}`);
  await expect(heading).toHaveText(RULE);
  await expect(heading).toBeInViewport();
  const article = page.locator(`article[data-rule-id="${RULE}"]`);
  await expect(article).toContainText(rule.name);

  // Keyword, per revision.
  await expect(article.locator('tr.row-keyword td[data-revision="2025-11-25"]')).toHaveText(clause.keyword);

  // The quote: "=" where 2025-11-25 words it as 2025-06-18 did, with the wording one click away.
  const cell = article.locator('tr.row-quote td[data-revision="2025-11-25"]');
  const shown = cell.locator('.quote').first();
  if ((await cell.getAttribute('class'))?.includes('cell-same')) {
    await expect(cell.locator('.same-mark')).toHaveText('=');
    await cell.locator('summary', { hasText: 'wording' }).click();
  }
  await expect(shown).toBeVisible();
  const text = squash(await shown.innerText());
  for (const part of plainText(clause.quote).split(' • ')) expect(text).toContain(squash(part));

  // The source link: the spec file and lines at the pinned commit.
  const link = article.locator('tr.row-source td[data-revision="2025-11-25"] a').first();
  await expect(link).toHaveAttribute('href', clause.source.url);
  expect(await link.getAttribute('href')).toMatch(new RegExp(`^${SPEC_BLOB}[0-9a-f]{33}/docs/specification/2025-11-25/`));

  // A rule the checker cannot judge says so, with the reason.
  const notJudged = ruleById('CANCEL-RECV-FREE');
  if (!notJudged || notJudged.judged) throw new Error('CANCEL-RECV-FREE is expected to be not judged');
  await expect(page.locator('article[data-rule-id="CANCEL-RECV-FREE"] .not-judged')).toHaveText(`not judged: ${notJudged.reason}`);

  // Every catalog rule has its heading.
  await expect(page.locator('article.rule')).toHaveCount(CATALOG.length);
});

test(`the search dialog (Pagefind) finds ${RULE} and opens the rule reference at it`, async ({ page }) => {
  await page.goto('/guides/getting-started/');
  await search(page, RULE);
  const hit = page.getByRole('dialog').locator(`a[href*="/reference/rules/#${RULE}"]`).first();
  await expect(hit).toBeVisible();
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/reference/rules/#${RULE}$`));
  await expect(page.locator(`h3#${RULE}`)).toBeInViewport();
});

test('no request leaves the site: docs pages, search, the rule reference and the playground', async ({ page }) => {
  const urls = recordRequests(page);
  await page.goto('/');
  await page.goto('/guides/getting-started/');
  await search(page, RULE);
  await expect(page.getByRole('dialog').locator(`a[href*="#${RULE}"]`).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/reference/rules/');
  await page.goto('/playground/');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version');
  expect(urls.length).toBeGreaterThan(0);
  const base = baseUrl();
  expect(urls.filter((u) => !u.startsWith(base))).toEqual([]);
});

test('the docs link to the playground, and the playground links back to the docs', async ({ page }) => {
  await page.goto('/');
  await page.locator('main').getByRole('link', { name: 'Open the playground', exact: true }).click();
  await expect(page).toHaveURL(/\/playground\/$/);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version');

  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Docs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();

  // Starlight's header carries a Playground link on every docs page.
  await page.locator('header').getByRole('link', { name: 'Playground' }).first().click();
  await expect(page).toHaveURL(/\/playground\/$/);

  // Each rule links to a scenario in the playground.
  await page.goto(`/reference/rules/#${RULE}`);
  await page.locator(`article[data-rule-id="${RULE}"]`).getByRole('link', { name: /Open a scenario that violates it/ }).click();
  await expect(page).toHaveURL(/\/playground\//);
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version');
});

test('each card of the scenario gallery names its file, so its command can be run as it is', async ({ page }) => {
  await page.goto('/scenarios/');
  const cards = page.locator('.gallery > li');
  expect(await cards.count()).toBeGreaterThan(50);
  for (const card of await cards.all()) {
    const id = await card.getAttribute('id');
    await expect(card).toContainText(`npx cancel-lab run content/scenarios/${id}.json`);
  }
});

test('a lesson counts the frames an embed folds in words: "1 more frame", never "1 more frames"', async ({ page }) => {
  await page.goto('/lessons/races/');
  const more = await page.locator('figure.cancel-lab-embed .more').allTextContents();
  expect(more.length).toBeGreaterThan(0);
  for (const text of more) expect(text).toMatch(/^(1 more frame|[\d,]+ more frames): open it in the playground, or Run it here\.$/);
  expect(more.some((text) => text.startsWith('1 more frame:'))).toBe(true);
});

test('the rule reference’s word diffs say in words what was removed and added, for a screen reader', async ({ page }) => {
  await page.goto('/reference/rules/');
  const removed = page.locator('.rule-changes del').first();
  const added = page.locator('.rule-changes ins').first();
  await expect(removed).toHaveText(/^\[removed: .+\]$/s);
  await expect(added).toHaveText(/^\[added: .+\]$/s);
  // On screen the words are struck through and underlined, the brackets hidden.
  await expect(removed.locator('.sr-only').first()).toHaveCSS('position', 'absolute');
});
