import { expect, test, type Locator } from '@playwright/test';
import { libraryEntry } from '../../src/scenario/library.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { runHeadless } from '../../src/host/node.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { deriveRunView, type RunView } from '../../src/views/run-view.ts';
import { describeCall } from '../../src/views/call-views.ts';

test('the /embed/ route works inside an iframe on another page: Run replays the scenario live', async ({ page, baseURL }) => {
  const entry = libraryEntry('seed-004-python-v1-swallowed-cancel-crash');
  if (!entry) throw new Error('library entry missing');
  const link = await encodeLink(entry.scenario, { engine: '0.1.0', sdk: '2.4.0', trace: entry.trace });
  const base = baseURL ?? '';
  // A host page that embeds the snippet, served by the test. (Chromium's local-network checks
  // block a page the test fulfils on another origin from framing localhost, so it shares it.)
  const host = `${base}/host-page-for-test`;
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Host</title><p>Host page</p><iframe id="lab" src="${base}/embed/?theme=dark&height=480#${link}" title="MCP Cancel Lab scenario" width="900" height="480"></iframe><p><a href="#after">after the iframe</a></p>`,
    }),
  );
  await page.goto(host);
  const frame = page.frameLocator('#lab');
  await expect(frame.locator('#embed-setting')).toContainText('2025-11-25 · stdio');
  await expect(frame.locator('.status')).toContainText('Replayed in your browser', { timeout: 15_000 });
  await frame.getByRole('button', { name: 'Run live' }).click();
  await expect(frame.locator('.status')).toContainText('ended at t =', { timeout: 15_000 });
  await expect(frame.locator('tbody')).toContainText('"code":0,"message":"Request cancelled"');
  await expect(frame.locator('.embed-outcome')).toContainText('crashed');
  await expect(frame.getByRole('link', { name: 'Open in playground' })).toHaveAttribute('href', `/playground/#${link}`);
  // No focus trap: Tab moves through the iframe's controls and back out to the host page.
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
  const outside = await page.evaluate(() => document.activeElement?.tagName);
  expect(['A', 'BODY', 'IFRAME']).toContain(outside);
});

/** The outcome list shows each call, the ledger line and the verdict, as the headless run has them. */
async function expectOutcome(outcome: Locator, view: RunView): Promise<void> {
  for (const c of view.calls) await expect(outcome).toContainText(describeCall(c), { timeout: 15_000 });
  for (const e of view.ledger) await expect(outcome).toContainText(`ledger: ${e.key} = ${e.value} committed at ${e.t} ms`);
  const broken = view.findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
  for (const f of broken) await expect(outcome).toContainText(`${f.severity === 'error' ? 'MUST broken' : 'SHOULD not followed'}: ${f.rule}`);
  if (broken.length === 0) await expect(outcome).toContainText('No MUST or SHOULD rule is broken.');
}

test('a broken embed link says so, in the frame', async ({ page }) => {
  await page.goto('/embed/#v1.broken');
  await expect(page.getByRole('alert')).toContainText('could not be opened');
});

test('a live embed shows what the static one does: each call, the ledger line and the verdict', async ({ page }) => {
  for (const id of ['stop-after-commit-is-not-rollback', 'seed-004-python-v1-swallowed-cancel-crash']) {
    const entry = libraryEntry(id);
    if (!entry) throw new Error('library entry missing');
    const view = deriveRunView(entry.scenario, await runHeadless(entry.scenario));
    await page.goto('about:blank');
    await page.goto(`/embed/#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`);
    // Past the replay on load, so what follows is the live run's own rendering.
    await expect(page.locator('.status')).toContainText('Replayed in your browser', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Run live' }).click();
    await expect(page.locator('.status')).toContainText('live: t =', { timeout: 15_000 });
    await expect(page.locator('.status')).toContainText('ended at t =', { timeout: 15_000 });
    await expectOutcome(page.locator('.embed-outcome'), view);
  }
});

async function embedUrl(id: string, query = ''): Promise<string> {
  const entry = libraryEntry(id);
  if (!entry) throw new Error('library entry missing');
  return `/embed/${query}#${await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace })}`;
}

test('an embed shows its run at once, without a click: the wire log, the outcome, the ledger and the verdict', async ({ page }) => {
  for (const id of ['seed-004-python-v1-swallowed-cancel-crash', 'stop-after-commit-is-not-rollback']) {
    const entry = libraryEntry(id);
    if (!entry) throw new Error('library entry missing');
    const view = deriveRunView(entry.scenario, await runHeadless(entry.scenario));
    await page.goto('about:blank');
    await page.goto(await embedUrl(id, '?theme=light&height=520'));
    // One row per frame the headless run put on the wire, in order, each with its message.
    const rows = page.locator('.embed-log tbody tr:not(.connection-break)');
    await expect(rows).toHaveCount(view.cells.length, { timeout: 15_000 });
    for (const [i, cells] of view.cells.entries()) await expect(rows.nth(i)).toContainText(cells.excerpt);
    await expectOutcome(page.locator('.embed-outcome'), view);
    await expect(page.locator('.status')).toContainText('Replayed in your browser: ended at t =');
  }
});

test('an embed counts its actions in words: one call is "1 action"', async ({ page }) => {
  const scenario = { ...defaultScenario(), steps: [{ at: 20, action: { type: 'call' as const, call: '#1', tool: 'quick', args: {} } }] };
  await page.goto(`/embed/#${await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' })}`);
  await expect(page.locator('#embed-setting')).toHaveText('2025-11-25 · stdio · 1 action');
});

test('a bare /embed/ says how to embed a scenario', async ({ page, baseURL }) => {
  await page.goto('/embed/');
  await expect(page.getByRole('heading', { name: 'Embed an MCP Cancel Lab scenario' })).toBeVisible();
  await expect(page.locator('#embed-snippet')).toHaveText(`<iframe src="${baseURL ?? ''}/embed/?theme=light&height=520#v1.…" title="MCP Cancel Lab scenario" width="100%" height="520" style="border:0" loading="lazy"></iframe>`);
  await expect(page.getByRole('link', { name: 'playground' })).toHaveAttribute('href', '/playground/');
  await expect(page.getByRole('button', { name: 'Run live' })).toBeHidden();
  await expect(page.getByRole('alert')).toBeHidden();
});

test('a live embed says when the run ended, as its replay does, and Reset puts the replayed result back', async ({ page }) => {
  await page.goto(await embedUrl('stop-after-commit-is-not-rollback'));
  const status = page.locator('.status');
  await expect(status).toContainText('Replayed in your browser', { timeout: 15_000 });
  const replayed = await page.locator('.embed-log tbody').innerText();
  // The run's last event: the handler's end after the cancel (the scenario's summary says 205 ms).
  await expect(status).toHaveText('Replayed in your browser: ended at t = 205 ms.');
  await page.getByRole('button', { name: 'Run live' }).click();
  await expect(status).toContainText('live: t =', { timeout: 15_000 });
  // The live clock runs on past the last event until the embed pauses; the time it ended at does not.
  await expect(status).toHaveText('ended at t = 205 ms', { timeout: 15_000 });
  await page.waitForTimeout(1000);
  await expect(status).toHaveText('ended at t = 205 ms');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(status).toContainText('Replayed in your browser');
  await page.waitForTimeout(1000);
  await expect(status).toContainText('Replayed in your browser');
  expect(await page.locator('.embed-log tbody').innerText()).toBe(replayed);
});

test('where a strict host reconnects, the embed says a new connection starts and its request ids start again', async ({ page }) => {
  await page.goto('/lessons/case-studies/');
  const seed = page.locator(`figure.cancel-lab-embed[data-trace="${libraryEntry('seed-000-strict-host-python-v1')?.trace}"]`);
  const rows = seed.locator('tbody tr');
  const mark = rows.filter({ hasText: 'Connection 2: a new connection, its request ids start again' });
  await expect(mark).toHaveCount(1);
  await expect(mark).toBeVisible();
  // The row after the mark is the new connection's own initialize, with id 0 again.
  const after = seed.locator('tbody tr.connection-break + tr');
  await expect(after).toContainText('initialize');
  await expect(after.locator('td').nth(3)).toHaveText('0');
});

test('with a height in the query the embed fits its frame: the log scrolls, the outcome and its verdict stay in the frame', async ({ page }) => {
  // A frame of 400 px, as the snippet's height sets it, on a phone and on a desk.
  for (const width of [390, 1400]) {
    await page.setViewportSize({ width, height: 400 });
    await page.goto('about:blank');
    await page.goto(await embedUrl('stop-after-commit-is-not-rollback', '?height=400'));
    await expect(page.locator('.status')).toContainText('Replayed in your browser', { timeout: 15_000 });
    const fits = await page.evaluate(() => {
      const root = document.documentElement;
      const verdict = [...document.querySelectorAll('.embed-outcome li')].at(-1);
      const outcome = document.querySelector('.embed-outcome')?.getBoundingClientRect();
      return { page: root.scrollHeight <= innerHeight + 1, verdict: verdict?.textContent ?? '', outcomeBottom: outcome?.bottom ?? Infinity };
    });
    expect(fits.page, `${width} px: the page does not scroll`).toBe(true);
    expect(fits.outcomeBottom).toBeLessThanOrEqual(400);
    expect(fits.verdict).toContain('SHOULD');
    // The log takes the room left and scrolls; the outcome scrolls too when it is long, by keyboard as well.
    await expect(page.locator('.embed-log')).toHaveCSS('overflow-y', 'auto');
    await expect(page.locator('.embed-outcome')).toHaveAttribute('tabindex', '0');
  }
});

test('on a phone, no cell of an embed’s wire log draws over another, and a new connection’s row is no time', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The races lesson: a 2026-07-28 run's long ids (server-discover-probe-1), rule and fault badges.
  await page.goto('/lessons/races/');
  const overflows = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLTableRowElement>('figure.cancel-lab-embed tbody tr')]
      .filter((tr) => tr.getClientRects().length > 0)
      .flatMap((tr) =>
        [...tr.cells]
          .filter((td) => td.scrollWidth > td.clientWidth + 1)
          .map((td) => `${td.textContent ?? ''} (${td.scrollWidth} px in ${td.clientWidth})`),
      ),
  );
  expect(overflows).toEqual([]);
  const breaks = page.locator('figure.cancel-lab-embed tr.connection-break td');
  expect(await breaks.count()).toBeGreaterThan(0);
  for (const after of await breaks.evaluateAll((cells) => cells.map((td) => getComputedStyle(td, '::after').content))) expect(after).toBe('none');
});

test('a double-click on Run live starts one run, which Reset stops: no worker is left', async ({ page }) => {
  await page.goto(await embedUrl('stop-after-commit-is-not-rollback'));
  await expect(page.locator('.status')).toContainText('Replayed in your browser', { timeout: 15_000 });
  await expect.poll(() => page.workers().length).toBe(0);
  await page.getByRole('button', { name: 'Run live' }).dblclick();
  await expect(page.locator('.status')).toContainText(/live: t =|ended at t =/, { timeout: 15_000 });
  await expect.poll(() => page.workers().length).toBe(1);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.locator('.status')).toContainText('Replayed in your browser');
  await expect.poll(() => page.workers().length).toBe(0);
});

test('another link in the fragment of an open /embed/ shows that scenario', async ({ page }) => {
  await page.goto(await embedUrl('race-r1-cancel-after-response'));
  await expect(page.locator('.status')).toContainText('Replayed in your browser: ended at t = 265 ms.', { timeout: 15_000 });
  const r4 = await embedUrl('race-r4-cancel-unknown-id');
  await page.evaluate((hash) => (location.hash = hash), r4.slice(r4.indexOf('#')));
  await expect(page.locator('.embed-log tbody')).toContainText('9999', { timeout: 15_000 });
  await expect(page.getByRole('link', { name: 'Open in playground' })).toHaveAttribute('href', `/playground/${r4.slice(r4.indexOf('#'))}`);
  // And a broken one says so, rather than leave the last scenario under its address.
  await page.evaluate(() => (location.hash = '#v1.broken'));
  await expect(page.getByRole('alert')).toContainText('could not be opened');
});

test('an embed served securely in a page that is not: the message says the embedding page must change', async ({ context, baseURL }) => {
  // The frame's own origin is https (secure); the page around it is plain http on a LAN name.
  await context.route('https://lab.test/**', async (route) => route.fulfill({ response: await route.fetch({ url: route.request().url().replace('https://lab.test', baseURL ?? '') }) }));
  const link = (await embedUrl('stop-after-commit-is-not-rollback')).replace('/embed/', '');
  await context.route('http://docs.test/host', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Docs</title><iframe id="lab" src="https://lab.test/embed/${link}" width="900" height="480"></iframe>` }),
  );
  const page = await context.newPage();
  await page.goto('http://docs.test/host');
  const frame = page.frameLocator('#lab');
  await expect(frame.locator('.status')).toHaveText(
    'The workers could not start: the page this scenario is embedded in is not a secure context, and the client and server need one. The embedding page must be served over https, or from localhost.',
    { timeout: 15_000 },
  );
});
