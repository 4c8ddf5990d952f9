/**
 * A hostile tool argument renders as text wherever a wire row is shown: the playground's wire
 * log (live), and the static embed's HTML (the renderer Astro puts into <Scenario> at build time).
 */
import { expect, test } from '@playwright/test';
import { runHeadless } from '../../src/host/node.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { deriveRunView } from '../../src/views/run-view.ts';
import { outcomeHtml, wireHeadHtml, wireRowHtml } from '../../site/lib/wire-html.ts';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const pwned = () => (window as unknown as { __pwned?: number }).__pwned;

test('the wire log shows a hostile tool argument as text and runs no script', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#tool').selectOption('ledger_write');
  await page.locator('#arg-key').fill(HOSTILE);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const call = page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' }).first();
  await expect(call.locator('td.message')).toContainText('"key":"<img src=x onerror=\\"window.__pwned=1\\">"');
  await expect(page.locator('#ledger-table tbody')).toContainText(HOSTILE);
  await expect(page.locator('.playground img')).toHaveCount(0);
  expect(await page.evaluate(pwned)).toBeUndefined();
});

test('the static embed renders a hostile tool argument as text, in the wire log and the outcome', async ({ page }) => {
  const scenario = {
    ...defaultScenario(),
    steps: [{ at: 20, action: { type: 'call' as const, call: HOSTILE, tool: 'ledger_write', args: { key: HOSTILE, value: HOSTILE, commitAfterMs: 10, totalMs: 20 } } }],
    endAt: 300,
  };
  const view = deriveRunView(scenario, await runHeadless(scenario));
  const rows = view.cells.map((cells) => wireRowHtml(cells, 'embed')).join('');
  await page.setContent(`<table><thead>${wireHeadHtml('embed')}</thead><tbody>${rows}</tbody></table><ul id="outcome">${outcomeHtml(view)}</ul>`);
  await expect(page.locator('tbody tr').filter({ hasText: 'tools/call' }).first().locator('code')).toContainText('<img src=x onerror=');
  await expect(page.locator('#outcome')).toContainText(`ledger: ${HOSTILE} = ${HOSTILE} committed`);
  await expect(page.locator('#outcome')).toContainText(`${HOSTILE} ledger_write: client SUCCEEDED`);
  await expect(page.locator('img')).toHaveCount(0);
  expect(await page.evaluate(pwned)).toBeUndefined();
});
