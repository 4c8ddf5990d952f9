/**
 * The same scenario gives the same trace in Chromium as in Node: each scenario runs headless
 * here first, its trace hash goes into a permalink, and the page must replay it exactly.
 */
import { expect, test } from '@playwright/test';
import { runHeadless } from '../../src/host/node.ts';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { LIBRARY } from '../../src/scenario/library.ts';
import { defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import { traceHash } from '../../src/trace/hash.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

const scenarios: Record<string, Scenario> = {
  'stdio 2025-11-25, slow_count + Stop + injected late result': {
    ...defaultScenario(),
    steps: [
      { at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
      { at: 250, action: { type: 'stop', call: '#1' } },
      { at: 400, action: { type: 'inject-response', call: '#1', outcome: 'result' } },
    ],
    endAt: 1000,
  },
  'stateless Streamable HTTP 2025-06-18, stubborn + ledger_write + Stop': {
    ...defaultScenario(),
    revision: '2025-06-18',
    transport: 'streamable-http',
    httpServer: 'stateless',
    latency: { c2s: 3, s2c: 11 },
    steps: [
      { at: 30, action: { type: 'call', call: '#1', tool: 'stubborn', args: { ms: 200 } } },
      { at: 35, action: { type: 'call', call: '#2', tool: 'ledger_write', args: { key: 'k', value: 'v', commitAfterMs: 50, totalMs: 300 } } },
      { at: 120, action: { type: 'stop', call: '#1' } },
      { at: 121, action: { type: 'stop', call: '#2' } },
    ],
    endAt: 1500,
  },
  'Streamable HTTP 2026-07-28 and HTTP+SSE 2024-11-05 alike: slow_count + Stop': {
    ...defaultScenario(),
    revision: '2026-07-28',
    transport: 'streamable-http',
    httpServer: 'stateless',
    steps: [
      { at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps: 4, stepMs: 70 } } },
      { at: 180, action: { type: 'stop', call: '#1' } },
    ],
    endAt: 800,
  },
};

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`replays exactly in Chromium what Node ran: ${name}`, async ({ page }) => {
    const nodeHash = await traceHash(await runHeadless(scenario));
    const link = await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: nodeHash });
    expect(link.length).toBeLessThan(2000);
    await page.goto(`/playground/#${link}`);
    await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
    await expect(page.locator('#replay-status')).toContainText(nodeHash);
  });
}

test('a broken link gives a clear error and an untouched playground', async ({ page }) => {
  await page.goto('/playground/#v1.this-is-not-a-scenario');
  await expect(page.getByRole('alert')).toContainText('This link could not be opened');
  await expect(page.locator('#conn-status')).toContainText('negotiated protocol version 2025-11-25');
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(0);
});

test('Share makes a link that reopens to the same trace', async ({ page, context }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(4)).toHaveText(/^1 \/ 5/);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByLabel('Permalink')).toHaveValue(/\/playground\/#v1\./);
  const link = await page.getByLabel('Permalink').inputValue();
  const rowsBefore = await page.locator('#wire-table tbody tr').allTextContents();
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.locator('#replay-status')).toContainText('Reproduced exactly');
  expect(await fresh.locator('#wire-table tbody tr').allTextContents()).toEqual(rowsBefore);
});

test('the gallery lists the library; a scenario opens in the playground and reproduces exactly', async ({ page }) => {
  await page.goto('/scenarios/');
  await expect(page.getByRole('heading', { name: 'Scenario gallery' })).toBeVisible();
  const seed004 = page.locator('li#seed-004-python-v1-swallowed-cancel-crash');
  await expect(seed004).toContainText('server py-v1 (emulated)');
  await seed004.getByRole('link').first().click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.locator('#server-log')).toContainText('AssertionError: Request already responded to');
});

test('the gallery sorts the new kinds of run into their own sections: tasks, requests in both directions, forged frames', async ({ page }) => {
  await page.goto('/scenarios/');
  const section = (heading: string) => page.locator('section.gallery-group').filter({ has: page.getByRole('heading', { level: 2, name: heading }) });
  await expect(section('Tasks (R9), on the real TypeScript SDK v1').locator('li#task-cancel-does-not-stop-the-work')).toBeVisible();
  await expect(section('Tasks (R9), on the real TypeScript SDK v1').locator('li#sdk-ts-v1-task-stop-sends-notifications-cancelled')).toBeVisible();
  await expect(section('Requests in both directions: the server asks the client, and ping').locator('li#server-cancels-its-elicitation')).toBeVisible();
  await expect(section('Requests in both directions: the server asks the client, and ping').locator('li#ping-both-ways')).toBeVisible();
  await expect(section('Frames and ids of your choosing (forged)').locator('li#forged-request-with-id-0')).toBeVisible();
  await expect(section('More').locator('li#server-cancels-its-elicitation')).toHaveCount(0);
});

test('every library scenario replays in Chromium to its recorded trace hash, its calls’ rows whole in the 1400 px workbench', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const differs: string[] = [];
  const overflowing: string[] = [];
  for (const entry of LIBRARY) {
    const link = await encodeLink(entry.scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: entry.trace });
    await page.goto('about:blank');
    await page.goto(`/playground/#${link}`);
    const status = page.locator('#replay-status');
    await expect(status).toBeVisible({ timeout: 20_000 });
    const text = (await status.textContent()) ?? '';
    if (!text.includes('Reproduced exactly') || !text.includes(entry.trace)) differs.push(`${entry.id}: ${text}`);
    // Each call's row, its buttons included, fits the calls pane without scrolling it sideways.
    const past = await page.locator('.calls-scroll').evaluate((pane) => pane.scrollWidth - pane.clientWidth);
    if (past > 0) overflowing.push(`${entry.id}: ${past} px`);
  }
  expect(differs).toEqual([]);
  expect(overflowing).toEqual([]);
});
