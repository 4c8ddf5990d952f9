/**
 * A call's arguments are judged by the tool's own schema (the one the server registers) before
 * anything is sent: the call form refuses them with the reason and sends no call, and the
 * scenario editor marks them at the call's `args`.
 */
import { expect, test } from '@playwright/test';

const STEPS_ZERO = 'steps: at least 1 (the server says "Too small: expected number to be >=1")';

test('a slow_count call with steps 0 is refused in the form, with the reason, and nothing goes on the wire', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.locator('#tool').selectOption('slow_count');
  // The browser's own hint says what the schema says: steps from 1 (it said 0), ms up to an hour.
  await expect(page.locator('#arg-steps')).toHaveAttribute('min', '1');
  await expect(page.locator('#arg-steps')).toHaveAttribute('max', '10000');
  await expect(page.locator('#arg-stepMs')).toHaveAttribute('min', '0');
  await page.locator('#arg-steps').fill('0');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#call-errors')).toContainText(STEPS_ZERO);
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(0);
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(0);

  // Mended, the same form calls, and the reason goes.
  await page.locator('#arg-steps').fill('2');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#call-errors')).toBeEmpty();
  await expect(page.locator('#calls-table tbody tr')).toHaveCount(1);
  await expect(page.locator('#wire-table tbody tr').filter({ hasText: 'tools/call' })).toHaveCount(1);
});

test('the scenario editor marks a call whose arguments the tool refuses, at its args, and Run refuses it', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  const content = page.locator('#scenario-editor .cm-content');
  await expect(content).toContainText('"revision": "2025-11-25"');
  const scenario = {
    version: 1,
    revision: '2025-11-25',
    transport: 'stdio',
    httpServer: 'sessionful',
    latency: { c2s: 5, s2c: 5 },
    steps: [{ at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps: 0, stepMs: 50 } } }],
    endAt: 500,
  };
  await content.fill(JSON.stringify(scenario, null, 2));
  // One diagnostic (one gutter marker), over the args object (marked line by line).
  await expect(page.locator('#scenario-editor .cm-lint-marker-error')).toHaveCount(1);
  const mark = page.locator('#scenario-editor .cm-lintRange-error');
  await expect(mark.first()).toBeVisible();
  expect((await mark.allTextContents()).join('').replace(/\s+/g, '')).toBe('{"steps":0,"stepMs":50}');
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(page.locator('#editor-errors')).toContainText(`steps.0.action.args: ${STEPS_ZERO}`);
});
