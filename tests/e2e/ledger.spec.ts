/**
 * The Ledger tab says, for each side effect the server committed, when it was committed
 * against its call's Stop: before it, or after it and by how much. Permalinks fix the times.
 */
import { expect, test, type Page } from '@playwright/test';
import { encodeLink } from '../../src/scenario/permalink.ts';
import { defaultScenario, type Scenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/versions.ts';

const linkOf = (scenario: Scenario) => encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: '' });

/** ledger_write order-42=paid at 20 ms with its commit 150 ms into the handler; Stop at 240 ms. */
function stoppedWrite(latency: Scenario['latency']): Scenario {
  return {
    ...defaultScenario(),
    latency,
    steps: [
      { at: 20, action: { type: 'call', call: 'A', tool: 'ledger_write', args: { key: 'order-42', value: 'paid', commitAfterMs: 150, totalMs: 2000 } } },
      { at: 240, action: { type: 'stop', call: 'A' } },
    ],
    endAt: 1000,
  };
}

async function ledgerRow(page: Page, scenario: Scenario) {
  await page.goto(`/playground/#${await linkOf(scenario)}`);
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('tab', { name: 'Ledger' }).click();
  const rows = page.locator('#ledger-table tbody tr');
  await expect(rows).toHaveCount(1);
  return rows.first().locator('td');
}

test('a commit before Stop: the Ledger tab names the call and says it was committed before Stop and not rolled back', async ({ page }) => {
  // The request reaches the server at 25 ms, so the write commits at 175 ms, before Stop at 240.
  const cells = await ledgerRow(page, stoppedWrite({ c2s: 5, s2c: 5 }));
  await expect(cells).toHaveText(['order-42', 'paid', 'A', '1', 'committed at 175 ms — Stop at 240 ms — not rolled back']);
});

test('a commit after Stop: the cancel is still on its way, and the Ledger tab says by how much the commit followed Stop', async ({ page }) => {
  // 100 ms to the server: the request arrives at 120 ms and commits at 270, while the cancel sent at 240 arrives at 340.
  const cells = await ledgerRow(page, stoppedWrite({ c2s: 100, s2c: 5 }));
  await expect(cells).toHaveText(['order-42', 'paid', 'A', '1', 'committed at 270 ms, 30 ms after Stop at 240 ms — not rolled back']);
});
