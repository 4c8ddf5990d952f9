/**
 * An explorer's witness link replays in Chromium exactly what Node ran: the schedule string in
 * the scenario's `explore` field reaches the page's run with the scenario, so a schedule of R2
 * with a latency range that the explorer found crossing shows the response ignored after Stop.
 */
import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createNodeSides } from '../../src/host/node.ts';
import { explore } from '../../src/explore/index.ts';
import { parseSchedule, parseScenario, permalinkOf, withSchedule } from '../../src/scenario/index.ts';

test('a crossing schedule of R2 with a latency range, opened from its link, is the run Node had: the response ignored after Stop', async ({ page }) => {
  const file = JSON.parse(await readFile(new URL('../fixtures/explore/r2-latency-range.json', import.meta.url), 'utf8')) as { scenario: unknown };
  const parsed = parseScenario(file.scenario);
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  const sides = createNodeSides();
  const found = await explore(parsed.scenario, { lanes: [sides], budget: 12, seed: 'r2' }).finally(() => sides.close());
  // Not the default schedule: one whose latencies the explorer chose.
  const crossing = found.records.find((r) => r.outcome.includes('A STOPPED_LOCALLY crossed') && r.schedule !== 's1');
  expect(crossing).toBeDefined();
  if (!crossing) return;
  const choices = parseSchedule(crossing.schedule);
  expect(choices.ok).toBe(true);
  if (!choices.ok) return;
  const link = await permalinkOf(withSchedule(parsed.scenario, choices.choices), crossing.traceHash);
  await page.goto(`/playground/#${link}`);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.locator('#replay-status')).toContainText(crossing.traceHash);
  const row = page.locator('#calls-table tbody tr[data-call="A"]');
  await expect(row.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await expect(row.locator('td').nth(5)).toContainText('ignored: arrived after Stop');
});
