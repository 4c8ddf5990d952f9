/**
 * The playground's Explore panel: a scenario with a schedule space, opened from its link, is
 * searched on the page's own pool of workers; the histogram and the rule counts fill as the
 * schedules are judged and painted as they rise, Stop stops the count, and a rule's or a
 * class's smallest schedule opens as the run, reproduced exactly. A witness the user edits loses
 * its schedule.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { decodeLink, deviations, parseSchedule, parseScenario, permalinkOf, type Scenario } from '../../src/scenario/index.ts';
import { paintedValues, samplePaints } from './painted.ts';

async function fixture(name: string): Promise<Scenario> {
  const file = JSON.parse(await readFile(new URL(`../fixtures/explore/${name}.json`, import.meta.url), 'utf8')) as { scenario: unknown };
  const parsed = parseScenario(file.scenario);
  if (!parsed.ok) throw new Error(`${name}: ${parsed.errors.join('; ')}`);
  return parsed.scenario;
}

async function openExplore(page: Page, scenario: Scenario): Promise<void> {
  await page.goto(`/playground/#${await permalinkOf(scenario, '')}`);
  await expect(page.locator('#replay-status')).toContainText('No recorded trace');
  await page.getByRole('tab', { name: 'Explore' }).click();
  await expect(page.locator('#explore-space')).toContainText("This scenario's space");
}

const doneCount = (page: Page): Promise<number> => page.locator('#explore-progress').evaluate((p) => (p as HTMLProgressElement).value);

/** The CLI's shrunk witness of CANCEL-RACE-GRACEFUL for seed-004-stop-window (`cancel-lab explore … --format json`): call A and its Stop, one choice away from the default. */
const CLI_WITNESS = { steps: 2, deviations: 1 };

test('seed 004 with a Stop window: the whole space searched, the histogram and the rule counts filled, and the violation opens its shrunk witness, reproduced exactly', async ({ page }) => {
  await openExplore(page, await fixture('seed-004-stop-window'));
  let started = 0;
  page.on('worker', () => started++);
  // Every status the panel says, however briefly (the shrinking may take less than a poll).
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    const status = document.getElementById('explore-status');
    if (status) new MutationObserver(() => said.push(status.textContent ?? '')).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.locator('#explore-budget').fill('200');
  await page.locator('#explore-start').click();
  await expect(page.locator('#explore-status')).toContainText('Exploring on');
  await expect(page.locator('#explore-status')).toContainText('Searched the whole space: 38 schedules, 38 distinct traces', { timeout: 60_000 });
  await expect(page.locator('#explore-status')).toContainText('open their shrunk witnesses');
  const said = await page.evaluate(() => (window as unknown as { __said: string[] }).__said);
  expect(said.some((text) => text.includes('shrinking…'))).toBe(true);
  // The pool's workers (a pair of sides in each) ran beside the page's own, and are gone now that the search and the shrinking ended.
  expect(started).toBeGreaterThanOrEqual(2);
  await expect.poll(() => page.workers().length).toBe(1);
  expect(await doneCount(page)).toBe(38);
  // The five outcome classes the CLI finds, with their counts.
  const classes = page.locator('#explore-classes li');
  await expect(classes).toHaveCount(5);
  await expect(page.locator('#explore-classes li[data-key="A SUCCEEDED · B SUCCEEDED · C SUCCEEDED · server up"] .count')).toHaveText('12');
  const rule = page.locator('#explore-rules li[data-key="CANCEL-RACE-GRACEFUL"]');
  await expect(rule).toContainText('CANCEL-RACE-GRACEFUL (MUST)');
  await expect(rule.locator('.count')).toHaveText('25');
  // The filled panel has no serious accessibility problem (the bars are buttons, named by their class and count).
  const axe = await new AxeBuilder({ page }).include('section.explore').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await rule.locator('button').click();
  await expect(page).toHaveURL(/#v1\./);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  // Shrunk as the CLI shrinks it: no more steps and no more choices away from the default than its witness.
  const opened = await decodeLink(new URL(page.url()).hash);
  if (!opened.ok) throw new Error(opened.error);
  const schedule = parseSchedule(opened.scenario.explore?.schedule ?? 's1');
  if (!schedule.ok) throw new Error(`not a schedule: ${opened.scenario.explore?.schedule ?? ''}`);
  expect(opened.scenario.steps.length).toBeLessThanOrEqual(CLI_WITNESS.steps);
  expect(deviations(schedule.choices)).toBeLessThanOrEqual(CLI_WITNESS.deviations);
  // Its run: Stop at 60 ms, and the swallowed cancel crashes the server (A alone is left, stopped).
  await expect(page.locator('#calls-table tbody tr[data-call="A"] td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await expect(page.locator('#calls-table tbody tr[data-call="B"]')).toHaveCount(0);
  // The explored run is still shown beside it.
  await expect(page.locator('#explore-rules li[data-key="CANCEL-RACE-GRACEFUL"] .count')).toHaveText('25');
});

test('Stop while the witnesses are shrunk keeps them as run: the violation opens the smallest schedule the search ran, all its steps', async ({ page }) => {
  await openExplore(page, await fixture('seed-004-stop-window'));
  // Stop is pressed the moment the panel says it is shrinking, before any shrinking run can answer.
  await page.evaluate(() => {
    const status = document.getElementById('explore-status');
    const stop = document.getElementById('explore-stop');
    if (!status || !stop) throw new Error('no Explore panel');
    const observer = new MutationObserver(() => {
      if (!(status.textContent ?? '').includes('shrinking…')) return;
      observer.disconnect();
      stop.click();
    });
    observer.observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.locator('#explore-start').click();
  await expect(page.locator('#explore-status')).toContainText('Searched the whole space: 38 schedules', { timeout: 60_000 });
  await expect(page.locator('#explore-status')).toContainText('open the smallest schedules run (not shrunk)');
  await expect.poll(() => page.workers().length).toBe(1);
  await page.locator('#explore-rules li[data-key="CANCEL-RACE-GRACEFUL"] button').click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  const opened = await decodeLink(new URL(page.url()).hash);
  if (!opened.ok) throw new Error(opened.error);
  expect(opened.scenario.steps.length).toBe(4);
  expect(opened.scenario.explore?.schedule).toBe('s1.1');
  await expect(page.locator('#calls-table tbody tr[data-call="B"] td').nth(2).locator('.state')).toHaveText('FAILED');
});

test('R2 with a latency range: Stop stops the count, and the crossing class opens a run where the response is ignored after Stop', async ({ page }) => {
  await openExplore(page, await fixture('r2-latency-range'));
  await samplePaints(page, 'explore-progress');
  await page.locator('#explore-budget').fill('5000');
  await page.locator('#explore-start').click();
  await expect.poll(() => doneCount(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(200);
  await page.locator('#explore-stop').click();
  await expect(page.locator('#explore-status')).toContainText('Stopped at');
  await expect.poll(() => page.workers().length).toBe(1);
  const stopped = await doneCount(page);
  expect(stopped).toBeLessThan(5000);
  await page.waitForTimeout(1000);
  expect(await doneCount(page)).toBe(stopped);
  await expect(page.locator('#explore-status')).toContainText(`Stopped at ${stopped.toLocaleString('en-US')} of 5,000 schedules`);
  await expect(page.locator('#explore-resume')).toBeEnabled();
  // The search ran in the pool, not on the page: the count was painted as it rose, many times before Stop.
  const painted = (await paintedValues(page, 'explore-progress')).filter((n) => n > 0 && n < stopped);
  expect(painted.length, `painted at ${painted.join(', ')}`).toBeGreaterThanOrEqual(5);

  await page.locator('#explore-classes li[data-key="A STOPPED_LOCALLY crossed · server up"] button').click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  const row = page.locator('#calls-table tbody tr[data-call="A"]');
  await expect(row.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  await expect(row.locator('td').nth(5)).toContainText('ignored: arrived after Stop');
});

/** The histogram as shown: each outcome class and its count. */
const histogram = (page: Page): Promise<string[]> =>
  page.locator('#explore-classes li').evaluateAll((items) => items.map((li) => `${(li as HTMLElement).dataset.key ?? ''}: ${li.querySelector('.count')?.textContent ?? ''}`));

test('Resume takes a stopped search up where it stopped: the count goes on from there, and it ends with the histogram of a search never stopped', async ({ page }) => {
  await openExplore(page, await fixture('r2-latency-range'));
  await page.locator('#explore-budget').fill('2000');
  await page.locator('#explore-start').click();
  await expect.poll(() => doneCount(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(100);
  await page.locator('#explore-stop').click();
  await expect(page.locator('#explore-status')).toContainText('Stopped at');
  const stopped = await doneCount(page);
  expect(stopped).toBeLessThan(2000);

  await samplePaints(page, 'explore-progress');
  await page.locator('#explore-resume').click();
  await expect(page.locator('#explore-status')).toContainText('2,000 schedules drawn at random', { timeout: 60_000 });
  const painted = await paintedValues(page, 'explore-progress');
  expect(painted.at(-1)).toBe(2000);
  // Restarted, the bar would have gone back to 0 and up through the schedules already run.
  expect(painted.filter((n) => n < stopped), `painted at ${painted.join(', ')}`).toEqual([]);
  const resumed = await histogram(page);

  await page.locator('#explore-start').click();
  await expect(page.locator('#explore-status')).toContainText('Exploring');
  await expect(page.locator('#explore-status')).toContainText('2,000 schedules drawn at random', { timeout: 60_000 });
  expect(await histogram(page)).toEqual(resumed);
});

test('a resumed search says how long the whole search took, the stopped part included', async ({ page }) => {
  test.setTimeout(120_000);
  await openExplore(page, await fixture('r2-latency-range'));
  await page.locator('#explore-budget').fill('3000');
  await page.locator('#explore-start').click();
  // Stopped late, so that what is left takes less time than what ran.
  await expect.poll(() => doneCount(page), { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(2000);
  await page.locator('#explore-stop').click();
  const status = page.locator('#explore-status');
  await expect(status).toContainText('Stopped at');
  const seconds = async (): Promise<number> => Number(/in ([\d.]+) s/.exec((await status.textContent()) ?? '')?.[1] ?? NaN);
  const stoppedPart = await seconds();
  expect(stoppedPart).toBeGreaterThan(0);
  await page.locator('#explore-resume').click();
  await expect(status).toContainText('3,000 schedules drawn at random', { timeout: 60_000 });
  // Before, it gave the resumed part's time alone ("in 0.3 s" after "in 1.5 s").
  expect(await seconds()).toBeGreaterThanOrEqual(stoppedPart);
});

test('a witness the user changes loses its schedule: a latency picker, and an edit in the editor', async ({ page }) => {
  const r2 = await fixture('r2-latency-range');
  const witness = { ...r2, explore: { ...r2.explore, schedule: 's1.-3.2.2' } };
  await page.goto(`/playground/#${await permalinkOf(witness, '')}`);
  await expect(page.locator('#replay-status')).toContainText('No recorded trace');
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  const content = page.locator('#scenario-editor .cm-content');
  await expect(content).toContainText('"schedule": "s1.-3.2.2"');

  // An edit in the editor around the schedule: Run replays the scenario without it.
  const edited = JSON.stringify({ ...witness, endAt: 900 }, null, 2);
  await content.fill(edited);
  await page.getByRole('button', { name: 'Run this scenario' }).click();
  await expect(content).toContainText('"endAt": 900');
  await expect(content).not.toContainText('"schedule"');
  await expect(content).toContainText('"c2s": [');
  await expect(page.locator('section.errors')).toBeHidden();

  // A picker on a witness: the same steps replay under the new latency, without the schedule.
  await page.goto(`/playground/#${await permalinkOf(witness, '')}`);
  await expect(page.locator('#replay-status')).toContainText('No recorded trace');
  await expect(content).toContainText('"schedule": "s1.-3.2.2"');
  await page.locator('#lat-c2s').fill('20');
  await page.locator('#lat-c2s').press('Enter');
  await expect(content).toContainText('"c2s": 20');
  await expect(content).not.toContainText('"schedule"');
  await expect(page.locator('section.errors')).toBeHidden();
});

test('a scenario without a space says how to declare one, and one click adds a latency range to it', async ({ page }) => {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('tab', { name: 'Explore' }).click();
  await expect(page.locator('#explore-no-space')).toBeVisible();
  await expect(page.locator('#explore-start')).toBeDisabled();
  await page.getByRole('button', { name: 'Add a latency range' }).click();
  // The playground's latencies are 5 ms each way: a range of 2 to 20 ms, every 2.
  await expect(page.locator('#explore-space')).toContainText('"c2s":[2,20,2],"s2c":[2,20,2]');
  await expect(page.locator('#explore-no-space')).toBeHidden();
  await expect(page.locator('#explore-start')).toBeEnabled();
});

test('the races lesson says, for R2 over a latency range, how many schedules were explored and how many break each rule, with a witness that replays', async ({ page }) => {
  await page.goto('/lessons/races/');
  const plain = page.locator('aside[data-explored="race-r2-response-crosses-cancel"]');
  await expect(plain).toContainText('200 schedules explored');
  await expect(plain).toContainText('none breaks a rule');
  const strict = page.locator('aside[data-explored="race-r2-strict-host-reconnects"]');
  await expect(strict).toContainText('200 schedules explored');
  const rule = strict.locator('li[data-rule="CANCEL-RACE-GRACEFUL"]');
  await expect(rule).toContainText('57 break CANCEL-RACE-GRACEFUL (MUST)');
  await rule.getByRole('link', { name: 'its smallest witness' }).click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.locator('#calls-table tbody tr[data-call="A"] td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
});

test('every race of the lesson, R1 to R11, says how many schedules were explored and what they broke, and R5\'s witness replays the cancel of initialize', async ({ page }) => {
  await page.goto('/lessons/races/');
  // Each explored block under the race heading before it.
  const byRace = await page.evaluate(() => {
    const out: Record<string, string[]> = {};
    const marks = [...document.querySelectorAll('main h2, main aside.explored')];
    let race = '';
    for (const el of marks) {
      if (el.tagName === 'H2') race = /^(R\d+):/.exec(el.textContent?.trim() ?? '')?.[1] ?? '';
      else if (race !== '') (out[race] ??= []).push(el.textContent?.replace(/\s+/g, ' ').trim() ?? '');
    }
    return out;
  });
  for (let r = 1; r <= 11; r++) {
    const blocks = byRace[`R${r}`] ?? [];
    expect(blocks.length, `R${r} has an explored block`).toBeGreaterThan(0);
    for (const text of blocks) expect(text, `R${r}`).toMatch(/^\d[\d,]* schedules explored/);
  }
  expect(byRace.R4?.[0]).toMatch(/12 schedules explored, every schedule of .*12 break CANCEL-REF-ISSUED \(MUST\)/);
  const r5 = page.locator('aside[data-explored="race-r5-cancel-initialize"] li[data-rule="CANCEL-NO-INITIALIZE"]');
  await expect(r5).toContainText('6 break CANCEL-NO-INITIALIZE (MUST)');
  await r5.getByRole('link', { name: 'its smallest witness' }).click();
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await expect(page.locator('section.verdict')).toContainText('CANCEL-NO-INITIALIZE');
});

test('a call added after a witness keeps its schedule, and the shared link of that run reproduces it', async ({ page }) => {
  const r2 = await fixture('r2-latency-range');
  const witness = { ...r2, explore: { ...r2.explore, schedule: 's1.-3.2.2' } };
  await page.goto(`/playground/#${await permalinkOf(witness, '')}`);
  await expect(page.locator('#replay-status')).toContainText('No recorded trace');
  await page.locator('#tool').selectOption('quick');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  // A replayed link waits paused where it ended; the call runs as the clock plays on.
  await page.locator('#play').click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(2).locator('.state')).toHaveText('SUCCEEDED');
  await page.locator('#play').click();
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#share').click();
  await expect(page.locator('#share-link')).toHaveValue(/#v1\./);
  const link = await page.locator('#share-link').inputValue();
  await page.goto('/playground/');
  await page.goto(link);
  await expect(page.locator('#replay-status')).toContainText('Reproduced exactly');
  await expect(page.locator('section.errors')).toBeHidden();
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#editor-details summary').click();
  await expect(page.locator('#scenario-editor .cm-content')).toContainText('"schedule": "s1.-3.2.2"');
});

test('on a phone the filled Explore tab fits the column', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openExplore(page, await fixture('seed-004-stop-window'));
  await page.locator('#explore-start').click();
  await expect(page.locator('#explore-status')).toContainText('Searched the whole space', { timeout: 60_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
});
