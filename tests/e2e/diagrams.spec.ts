import { expect, test, type Page } from '@playwright/test';

async function open(page: Page): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await look(page);
}

/** The diagrams draw only while their panel is on screen: its tab picked, and scrolled to (clicking a button may scroll away). */
async function look(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Diagrams' }).click();
  await page.locator('section.diagrams').scrollIntoViewIfNeeded();
}

/** The state the diagram highlights, read off the rendered SVG (the node styled `current`). */
function highlighted(page: Page) {
  return page.locator('#state-diagram svg .current').first();
}

test('the state diagram follows a slow_count call through Stop, and the sequence diagram gains the cancel', async ({ page }) => {
  await open(page);
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await look(page);
  await expect(page.locator('#diagram-subject')).toHaveValue('call:#1');
  await expect(highlighted(page)).toContainText('RUNNING');
  await expect(page.locator('#sequence-diagram svg')).toContainText('tools/call slow_count id=1');
  await expect(page.locator('#sequence-diagram svg')).not.toContainText('notifications/cancelled');
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await look(page);
  await expect(highlighted(page)).toContainText('STOPPED_LOCALLY');
  await expect(page.locator('#state-diagram')).toHaveAttribute('data-transition', 'CANCEL_REQUESTED → STOPPED_LOCALLY');
  await expect(page.locator('#sequence-diagram svg')).toContainText('notifications/cancelled requestId=1');
  // Scrub back through the trace: the moment between Stop and the end of the local wait.
  await page.getByRole('button', { name: 'Pause' }).click();
  await look(page);
  const events = await page.locator('#diagram-position').getAttribute('max');
  let cancelRequested = -1;
  for (let i = Number(events); i >= 0; i--) {
    await page.locator('#diagram-position').fill(String(i));
    // The diagram has drawn position i once its label names it; only then is data-current i's.
    await expect(page.locator('#diagram-position-label')).toContainText(new RegExp(`event ${i}\\b`));
    if ((await page.locator('#state-diagram').getAttribute('data-current')) === 'CANCEL_REQUESTED') {
      cancelRequested = i;
      break;
    }
  }
  expect(cancelRequested).toBeGreaterThan(0);
  await expect(highlighted(page)).toContainText('CANCEL_REQUESTED');
  await expect(page.locator('#diagram-position-label')).toContainText(`event ${cancelRequested}`);
  await page.locator('section.diagrams').screenshot({ path: 'tests/e2e/screenshots/diagrams-cancel-requested.png' });
});

test('a hostile tool argument renders as text in the diagrams and runs no script', async ({ page }) => {
  await open(page);
  await page.locator('#tool').selectOption('ledger_write');
  const hostile = '<img src=x onerror="window.__pwned=1">';
  await page.locator('#arg-key').fill(hostile);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await look(page);
  await expect(page.locator('#sequence-diagram svg')).toContainText('<img src=x onerror=');
  await expect(page.locator('#sequence-diagram img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('Copy Mermaid puts the sequence diagram source on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await look(page);
  await expect(page.locator('#sequence-diagram svg')).toContainText('tools/call');
  await page.locator('figure', { hasText: 'Sequence diagram' }).getByRole('button', { name: 'Copy Mermaid' }).click();
  await expect(page.locator('#diagram-status')).toHaveText('Mermaid source copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^sequenceDiagram\n/);
});

test('the state diagram is drawn at its own size in the drawer, its labels as tall as the page text, and opens on the highlighted state', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await look(page);
  await expect(highlighted(page)).toContainText('STOPPED_LOCALLY');
  const label = page.locator('#state-diagram svg .edgeLabel', { hasText: 'Stop pressed' }).first();
  // Scaled to fit the drawer, this label was about 6 px tall.
  expect((await label.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(14);
  const [box, state] = await Promise.all([page.locator('#state-diagram').boundingBox(), highlighted(page).boundingBox()]);
  expect(box && state && state.x >= box.x && state.x + state.width <= box.x + box.width && state.y >= box.y && state.y + state.height <= box.y + box.height).toBe(true);
});
