/**
 * The explorer's figure in Chromium for scripts/bench.ts: schedules per second of the standard
 * scenario with a latency range each way (as the headless row, bench-explore.ts), searched by the
 * playground's Explore panel on its own pool of workers (each running whole schedules). The page times it: each value the
 * progress bar shows, with performance.now(), so the rate is taken from the first schedules
 * judged to the last (the pool's start-up and the page's paints before them not counted); and the
 * longest task of the page's main thread meanwhile (the longtask observer's, 0 when none went
 * over 50 ms): the search runs in the pool and must never hold the page.
 */
import type { Browser } from '@playwright/test';
import { permalinkOf, type Scenario } from '../src/scenario/index.ts';
import { longestTask, watchLongTasks } from './bench-long-tasks.ts';

const BUDGET = 600;
/** The rate is counted from this many schedules on: by then every pair of the pool has started. */
const FROM = 20;

declare global {
  interface Window {
    /** Each value the Explore panel's progress bar took, with when (the bench's observer). */
    __exploreProgress?: { t: number; value: number; status: string }[];
  }
}

export async function benchExploreChromium(browser: Browser, base: string, standard: Scenario): Promise<[string, string, string][]> {
  const s: Scenario = { ...standard, explore: { c2s: [1, 9], s2c: [1, 9] } };
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${base}/playground/#${await permalinkOf(s, '')}`);
    await page.waitForSelector('#replay-status:not([hidden])', { timeout: 60_000 });
    await page.getByRole('tab', { name: 'Explore' }).click();
    await page.locator('#explore-budget').fill(String(BUDGET));
    await page.evaluate(() => {
      const seen: { t: number; value: number; status: string }[] = [];
      window.__exploreProgress = seen;
      const bar = document.getElementById('explore-progress');
      const status = document.getElementById('explore-status');
      if (!(bar instanceof HTMLProgressElement) || !status) throw new Error('no Explore panel');
      // The status is written in the same paint as the bar: while running it names the pool's size.
      new MutationObserver(() => seen.push({ t: performance.now(), value: bar.value, status: status.textContent ?? '' })).observe(bar, { attributes: true, attributeFilter: ['value'] });
    });
    await watchLongTasks(page);
    await page.locator('#explore-start').click();
    await page.waitForFunction((n) => (window.__exploreProgress ?? []).some((p) => p.value >= n), BUDGET, { timeout: 300_000 });
    const seen = await page.evaluate(() => window.__exploreProgress ?? []);
    const longest = await longestTask(page);
    const first = seen.find((p) => p.value >= FROM);
    const last = seen.find((p) => p.value >= BUDGET);
    if (!first || !last || last.t <= first.t) throw new Error('the Explore panel showed no progress to time');
    const lanes = /on (\d+) workers?:/.exec(first.status)?.[1] ?? '?';
    const rate = (last.value - first.value) / ((last.t - first.t) / 1000);
    return [
      [
        'explorer, Chromium',
        `${rate.toFixed(0)} schedules/s`,
        `schedules ${first.value} to ${last.value} of ${BUDGET} of the same space in the playground's Explore panel, on ${lanes} workers, each running whole schedules, timed in the page; aim ≥ 300/s`,
      ],
      ['  its longest main-thread task', `${longest.toFixed(0)} ms`, `the page's, during that search of ${BUDGET} schedules (0 when none went over 50 ms); aim ≤ 100 ms`],
    ];
  } finally {
    await context.close();
  }
}
