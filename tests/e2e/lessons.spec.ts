/**
 * Lessons: static first (the wire log is in the HTML, rendered at build time from a headless run
 * that matched the recorded trace), live on Run, and found by search.
 */
import { expect, test } from '@playwright/test';
import { libraryEntry } from '../../src/scenario/library.ts';
import { clientRequestMachine } from '../../src/machines/index.ts';
import { ruleById } from '../../src/rules/catalog.ts';
import { plainText, sourceLabel } from '../../src/report/rule-reference.ts';
import { decodeLink } from '../../src/scenario/permalink.ts';

const LESSON = '/lessons/case-studies/';

test('without JavaScript, a lesson shows each embed’s wire log and outcome, pinned to the recorded trace', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto(LESSON);
  const embed = page.locator('figure.cancel-lab-embed').filter({ hasText: 'code 0' }).first();
  await expect(embed.locator('tbody tr').first()).toContainText('initialize');
  const all = page.locator('figure.cancel-lab-embed');
  expect(await all.count()).toBeGreaterThan(3);
  for (const figure of await all.all()) {
    const href = (await figure.getByRole('link', { name: 'Open in playground' }).getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/playground\/#v1\./);
    expect(await figure.getAttribute('data-trace')).toMatch(/^[0-9a-f]{16}$/);
  }
  // The seed 004 embed is the library's scenario, built to exactly its recorded trace.
  const seed = libraryEntry('seed-004-python-v1-swallowed-cancel-crash');
  const seedEmbed = page.locator(`figure.cancel-lab-embed[data-trace="${seed?.trace}"]`);
  await expect(seedEmbed).toHaveCount(1);
  await expect(seedEmbed).toContainText('"code":0,"message":"Request cancelled"');
  await expect(seedEmbed.locator('.embed-outcome')).toContainText('crashed');
  await context.close();
});

test('with JavaScript, Run makes an embed live in its own workers; Reset puts the static log back', async ({ page }) => {
  await page.goto(LESSON);
  const embed = page.locator('figure.cancel-lab-embed').first();
  const staticRows = await embed.locator('tbody tr').count();
  // Every status the embed says, however briefly: the live run lasts its scenario's 410 ms, less than a poll may wait.
  await embed.locator('.status').evaluate((status) => {
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    new MutationObserver(() => said.push(status.textContent ?? '')).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await embed.getByRole('button', { name: 'Run live' }).click();
  await expect(embed.locator('.status')).toContainText(/live: t =|ended at t = 410 ms/);
  await expect(embed.locator('.status')).toContainText('ended at t = 410 ms');
  const said = await page.evaluate(() => (window as unknown as { __said: string[] }).__said);
  expect(said.some((text) => text.includes('live: t =')), said.join(' | ')).toBe(true);
  await expect(embed.locator('tbody tr').first()).toContainText('initialize');
  await expect.poll(async () => embed.locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(Math.min(staticRows, 8));
  await embed.getByRole('button', { name: 'Reset' }).click();
  await expect(embed.getByRole('button', { name: 'Run live' })).toBeEnabled();
  await expect(embed.locator('tbody tr')).toHaveCount(staticRows);
  // From the keyboard, Run live and Reset hand the focus to each other as they trade places, not to the page.
  await embed.getByRole('button', { name: 'Run live' }).focus();
  await page.keyboard.press('Enter');
  await expect(embed.getByRole('button', { name: 'Reset' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(embed.getByRole('button', { name: 'Run live' })).toBeFocused();
});

/** Whitespace collapsed, as the reader sees it in one line. */
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

test('a lesson shows the client-request lifecycle as the engine’s table: every state, every transition, the initial state first', async ({ page }) => {
  await page.goto('/lessons/writing-a-client/');
  const region = page.getByRole('region', { name: `${clientRequestMachine.title} lifecycle` });
  const table = region.getByRole('table');
  await expect(table).toBeVisible();
  for (const state of clientRequestMachine.states) await expect(table.locator('caption code', { hasText: new RegExp(`^${state}$`) })).toHaveCount(1);
  await expect(table.locator('caption')).toContainText(`${clientRequestMachine.initial} (initial)`);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(clientRequestMachine.transitions.length + 1);
  await expect(rows.first()).toHaveText(squash(`— start ${clientRequestMachine.initial} initial state`), { useInnerText: true });
  const cells = await rows.evaluateAll((trs) => trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  expect(cells).toEqual(clientRequestMachine.transitions.map((t) => [t.from, t.on, t.to, t.label]));
});

test('a RuleQuote shows the catalog’s exact wording for the rule and revision, and links to its lines at the pinned spec commit', async ({ page }) => {
  const clause = ruleById('CANCEL-NO-RESPONSE')?.revisions['2025-11-25']?.[0];
  if (!clause) throw new Error('CANCEL-NO-RESPONSE has no 2025-11-25 clause in the catalog');
  await page.goto('/lessons/case-studies/');
  // The lesson quotes this clause twice (case 1, and the stream left open); the first is checked.
  const quote = page.locator('blockquote.rule-quote[data-rule-id="CANCEL-NO-RESPONSE"][data-revision="2025-11-25"]').first();
  await expect(quote).toBeVisible();
  // The catalog writes list items after ` | `; the page shows them as a list.
  const [lead = '', ...items] = plainText(clause.quote).split(' • ');
  await expect(quote.locator('.lead')).toHaveText(lead);
  await expect(quote.locator('li')).toHaveText(items);
  await expect(quote).toHaveAttribute('cite', clause.source.url);
  const link = quote.getByRole('link', { name: `2025-11-25, ${sourceLabel(clause.source)}`, exact: true });
  await expect(link).toHaveAttribute('href', clause.source.url);
  expect(clause.source.url).toMatch(/^https:\/\/github\.com\/modelcontextprotocol\/modelcontextprotocol\/blob\/[0-9a-f]{40}\/docs\/specification\/2025-11-25\//);
  await expect(quote.getByRole('link', { name: 'CANCEL-NO-RESPONSE' })).toHaveAttribute('href', '/reference/rules/#CANCEL-NO-RESPONSE');
  await expect(quote.locator('.rule-quote-cite')).toContainText(`(${clause.keyword})`);
});

test('search finds a lesson by a rule id', async ({ page }) => {
  await page.goto('/lessons/races/');
  await page.getByRole('button', { name: 'Search' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Search' }).fill('CANCEL-NO-INITIALIZE');
  await expect(dialog.locator('a[href*="/lessons/"]').first()).toBeVisible({ timeout: 10_000 });
});

test('the handler lesson is in the sidebar, and every embed on it shows the run its link pins, in light and dark', async ({ page }) => {
  await page.goto('/guides/getting-started/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Writing a handler that stops well' }).click();
  await expect(page).toHaveURL(/\/lessons\/writing-a-handler\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Writing a handler that stops well');
  await expect.poll(async () => page.locator('figure.cancel-lab-embed').count()).toBeGreaterThanOrEqual(10);
  const figures = await page.locator('figure.cancel-lab-embed').all();
  for (const figure of figures) {
    const decoded = await decodeLink((await figure.getAttribute('data-link')) ?? '');
    expect(decoded.ok && decoded.meta?.trace).toBe(await figure.getAttribute('data-trace'));
    await expect(figure.locator('tbody tr').first()).toContainText('initialize');
  }
  // The seed 004 crash, and its fix on the same emulated server: the server survives.
  const crash = page.locator(`figure.cancel-lab-embed[data-trace="${libraryEntry('seed-004-python-v1-swallowed-cancel-crash')?.trace}"]`);
  await expect(crash.locator('.embed-outcome')).toContainText('crashed');
  const fix = page.locator('figure.cancel-lab-embed').filter({ has: page.locator('.caption', { hasText: 'python-sdk 1.x (emulated), work with onCancel observe' }) });
  await expect(fix).toHaveCount(1);
  await expect(fix.locator('.embed-outcome')).not.toContainText('crashed');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const figure = page.locator('figure.cancel-lab-embed').first();
    const [text, background] = await figure.evaluate((el) => {
      const pick = (e: Element): string => getComputedStyle(e).color;
      const bodyBg = getComputedStyle(document.body).backgroundColor;
      return [pick(el.querySelector('td') ?? el), bodyBg];
    });
    expect(text, `${theme}: the wire log is not drawn in the page's background colour`).not.toBe(background);
  }
});

test('the CI lesson is in the sidebar, its two seed runs reproduce with opposite verdicts, and search finds it by a CI format', async ({ page }) => {
  await page.goto('/lessons/writing-a-handler/');
  // Permalink embeds carry the title the lesson gives them, not a placeholder.
  expect(await page.locator('figure.cancel-lab-embed figcaption strong').allTextContents()).not.toContain('Scenario');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Testing cancellation in CI' }).click();
  await expect(page).toHaveURL(/\/lessons\/testing-in-ci\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Testing cancellation in CI');
  const crash = page.locator(`figure.cancel-lab-embed[data-trace="${libraryEntry('seed-004-python-v1-swallowed-cancel-crash')?.trace}"]`);
  const survives = page.locator(`figure.cancel-lab-embed[data-trace="${libraryEntry('seed-004-python-v2-survives-swallowed-cancel')?.trace}"]`);
  await expect(crash.locator('.embed-outcome')).toContainText('MUST broken: CANCEL-RACE-GRACEFUL');
  await expect(survives.locator('.embed-outcome')).toContainText('No MUST or SHOULD rule is broken.');
  await page.getByRole('button', { name: 'Search' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Search' }).fill('SARIF code scanning');
  await expect(dialog.locator('a[href*="/lessons/testing-in-ci/"]').first()).toBeVisible({ timeout: 10_000 });
});

test('search finds the handler lesson by what it teaches', async ({ page }) => {
  await page.goto('/lessons/races/');
  await page.getByRole('button', { name: 'Search' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Search' }).fill('abandon_on_cancel');
  await expect(dialog.locator('a[href*="/lessons/writing-a-handler/"]').first()).toBeVisible({ timeout: 10_000 });
});

test('the rule reference opens a scenario that violates the rule, and the playground shows that finding', async ({ page }) => {
  await page.goto('/reference/rules/');
  const link = page.locator('a[data-rule-scenario="CANCEL-NO-INITIALIZE"]');
  await expect(link).toContainText('Open a scenario that violates it');
  await link.click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.locator('#findings li[data-rule="CANCEL-NO-INITIALIZE"] summary')).toContainText('error CANCEL-NO-INITIALIZE');
});

test('no page of the site asks for anything outside its origin', async ({ page, baseURL }) => {
  const outside: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(baseURL ?? '') && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
  });
  const pages = ['/', '/guides/getting-started/', '/reference/rules/', '/scenarios/', '/playground/', '/embed/', '/scenario.schema.json'];
  // The sidebar of a docs page lists every lesson.
  await page.goto('/guides/getting-started/');
  for (const href of await page.locator('nav a[href^="/lessons/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))) pages.push(href);
  expect(pages.filter((p) => p.startsWith('/lessons/')).length).toBeGreaterThanOrEqual(7);
  for (const path of pages) await page.goto(path, { waitUntil: 'networkidle' });
  expect(outside).toEqual([]);
});

test('every embed shows, among its first rows, each message its caption names; the handshake before the first action is folded behind a button', async ({ page }) => {
  test.setTimeout(120_000);
  const METHOD = /\b(notifications\/[a-z_]+|tools\/call|initialize|server\/discover|tasks\/[a-z]+)\b/g;
  const lessons = ['what-cancellation-is', 'notifications-cancelled', 'races', 'revisions-and-transports', 'timeouts-and-progress', 'writing-a-client', 'writing-a-handler', 'case-studies'];
  const missing: string[] = [];
  let folded = 0;
  for (const lesson of lessons) {
    await page.goto(`/lessons/${lesson}/`);
    for (const figure of await page.locator('figure.cancel-lab-embed').all()) {
      const caption = (await figure.locator('.caption').textContent()) ?? '';
      const shown = await figure.locator('tbody tr').evaluateAll((rows) => rows.filter((r) => getComputedStyle(r).display !== 'none').map((r) => r.textContent ?? ''));
      for (const [method] of caption.matchAll(METHOD)) {
        if (method === 'initialize' && /before the first action/.test(caption)) continue;
        if (!shown.some((row) => row.includes(method))) missing.push(`${lesson}: "${caption.slice(0, 60)}…" names ${method}`);
      }
      const setup = figure.locator('tbody tr.setup');
      // A lesson about the handshake itself opens it from the start (<Scenario setup="shown">).
      const opened = await figure.evaluate((f) => f.classList.contains('show-setup'));
      if ((await setup.count()) > 0 && !opened) {
        folded++;
        const toggle = figure.locator('button.setup-toggle');
        await expect(toggle).toHaveText(new RegExp(`^Show the setup: ${await setup.count()} frames? before the first action`));
        await expect(setup.first()).toBeHidden();
      }
    }
  }
  expect(missing).toEqual([]);
  expect(folded).toBeGreaterThan(5);
  // Unfolded, the handshake is there, first.
  await page.goto('/lessons/case-studies/');
  const embed = page.locator('figure.cancel-lab-embed').filter({ has: page.locator('tr.setup') }).first();
  await embed.locator('button.setup-toggle').click();
  await expect(embed.locator('tbody tr').first()).toBeVisible();
  await expect(embed.locator('tbody tr').first()).toContainText(/initialize|server\/discover/);
  await expect(embed.locator('button.setup-toggle')).toHaveAttribute('aria-expanded', 'true');
});
