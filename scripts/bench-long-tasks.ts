/**
 * The page's long tasks, as the bench's Chromium figures read them: the longtask observer's
 * entries (tasks over 50 ms) from watchLongTasks on, and the longest of them.
 */
import type { Page } from '@playwright/test';

/** Collects the duration of every long task (over 50 ms) from now on, in `window.__longTasks`. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    Object.assign(window, { __longTasks: seen });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

/** The longest task seen since watchLongTasks, or 0 when none went over 50 ms. */
export function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...((window as unknown as { __longTasks?: number[] }).__longTasks ?? [])));
}
