/**
 * What the user saw of a progress bar: its value sampled once per animation frame, that is at
 * each paint the page made. A page held by one long task paints nothing meanwhile, so a bar that
 * was painted at many values moved in front of the user; the time the longest task takes is a
 * figure of `npm run bench`, not a bound of these tests.
 */
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __painted?: Record<string, number[]>;
  }
}

/** Starts sampling the `<progress>` with this id at every paint, until the page goes. */
export async function samplePaints(page: Page, id: string): Promise<void> {
  await page.evaluate((barId) => {
    const seen: number[] = [];
    window.__painted = { ...window.__painted, [barId]: seen };
    const sample = (): void => {
      const bar = document.getElementById(barId);
      if (bar instanceof HTMLProgressElement && !bar.hidden && bar.hasAttribute('value') && seen.at(-1) !== bar.value) seen.push(bar.value);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  }, id);
}

/** The distinct values the bar was painted at since samplePaints, in order. */
export function paintedValues(page: Page, id: string): Promise<number[]> {
  return page.evaluate((barId) => window.__painted?.[barId] ?? [], id);
}
