import { expect, test } from '@playwright/test';
import { libraryEntry } from '../../src/scenario/library.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { runHeadless } from '../../src/host/node.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';
import { deriveRunView } from '../../src/views/run-view.ts';
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
  await frame.getByRole('button', { name: 'Run live' }).click();
  await expect(frame.locator('tbody')).toContainText('"code":0,"message":"Request cancelled"', { timeout: 15_000 });
  await expect(frame.locator('.embed-outcome')).toContainText('crashed');
  await expect(frame.getByRole('link', { name: 'Open in playground' })).toHaveAttribute('href', `/playground/#${link}`);
  // No focus trap: Tab moves through the iframe's controls and back out to the host page.
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
  const outside = await page.evaluate(() => document.activeElement?.tagName);
  expect(['A', 'BODY', 'IFRAME']).toContain(outside);
});

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
    await page.getByRole('button', { name: 'Run live' }).click();
    const outcome = page.locator('.embed-outcome');
    for (const c of view.calls) await expect(outcome).toContainText(describeCall(c), { timeout: 15_000 });
    for (const e of view.ledger) await expect(outcome).toContainText(`ledger: ${e.key} = ${e.value} committed at ${e.t} ms`);
    const broken = view.findings.filter((f) => f.verdict === 'violated' && f.severity !== 'info');
    for (const f of broken) await expect(outcome).toContainText(`${f.severity === 'error' ? 'MUST broken' : 'SHOULD not followed'}: ${f.rule}`);
    if (broken.length === 0) await expect(outcome).toContainText('No MUST or SHOULD rule is broken.');
  }
});
