/**
 * The wire log's figures for `npm run bench`: its scroller (site/lib/playground/panels/
 * wire-scroller.ts, with the playground's and the wire log's styles) in Chromium at 1400 px,
 * holding 10,000 rows of real cells (slow_count, 9,995 steps of 1 ms, on stdio: the run stops at
 * the engine's event bound after about 6,700 rows, and its rows fill the rest, renumbered):
 *   - scroll: the log scrolled 150 px a frame from top to bottom; a frame's time runs from its
 *     first animation-frame callback to a message posted from it, which runs once the frame's
 *     style, layout and paint are done (the scroller's own redraw included); and the same steps
 *     done synchronously (redraw, style and layout, no paint), the part the page's code controls;
 *   - append: one row added at the tail (the log following it), at row 10, at row 100 and at
 *     row 10,000, up to a forced layout. Ten rows fit the view, so the 11th scrolls nothing; from
 *     row 100 on each append also scrolls the log one row and moves its window of rows, and that
 *     is what row 10,000 is compared with (rows 100, 1,000 and 10,000 took 1.2, 1.1–1.3 and
 *     1.2–1.3 ms here, row 10 0.5–0.6 ms: two runs).
 */
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { bundleForPage } from './bundle-for-page.ts';
import { createNodeSides, runHeadless } from '../src/host/index.ts';
import { defaultScenario, type Scenario } from '../src/scenario/index.ts';
import { deriveRunView, type WireCells } from '../src/views/index.ts';
import { wireHeadHtml } from '../site/lib/wire-html.ts';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium.mjs';

const ROWS = 10_000;
const SCROLL_STEP_PX = 150;
const APPEND_RUNS = 30;

declare global {
  interface Window {
    /** The scroller bundle the benchmark injects into a blank page. */
    CancelLabWireScroller?: typeof import('../site/lib/playground/panels/wire-scroller.ts');
  }
}

export interface WireLogFigures {
  rows: number;
  /** Frame times while scrolling, ms, in order. */
  scroll: number[];
  /** The scroller's redraw plus style and layout per 150 px step, ms, without paint. */
  scrollWork: number[];
  /** ms to append one row at row 10, at row 100 (the first that scrolls the log) and at row 10,000, one sample per run. */
  appendAt10: number[];
  appendAt100: number[];
  appendAt10000: number[];
}

function longRun(): Scenario {
  const call = { type: 'call' as const, call: '#1', tool: 'slow_count', args: { steps: ROWS - 5, stepMs: 1 } };
  return { ...defaultScenario(), steps: [{ at: 20, action: call }], endAt: 20_000 };
}

/**
 * A live run stops at the engine's 20,000-event bound, about 6,700 rows here; an imported trace
 * has no such bound. The log is filled to ROWS with the run's own rows again, renumbered, so the
 * scroller holds ROWS real rows with distinct frame numbers.
 */
function tenThousandRows(run: readonly WireCells[]): WireCells[] {
  const rows = [...run];
  for (let i = 0; rows.length < ROWS; i++) rows.push({ ...(run[i % run.length] as WireCells), frame: String(rows.length + 1) });
  return rows;
}

/** null when no Chromium is installed. */
export async function measureWireLog(): Promise<WireLogFigures | null> {
  const executablePath = findChromium();
  if (executablePath === undefined) return null;
  const sides = createNodeSides();
  let cells: readonly WireCells[];
  try {
    const scenario = longRun();
    cells = tenThousandRows(deriveRunView(scenario, await runHeadless(scenario, sides)).cells);
  } finally {
    await sides.close();
  }
  const { js } = await bundleForPage('site/lib/playground/panels/wire-scroller.ts', 'CancelLabWireScroller');
  const css = ['site/styles/playground.css', 'site/styles/wire-log.css'].map((f) => readFileSync(f, 'utf8')).join('\n');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.setContent(
      `<!doctype html><html><head><style>:root { --panel: #fff; --border: #ccc; --accent: #36c; --muted: #666; }</style></head><body><div class="playground"><section class="wire"><div class="wire-scroll" id="wire-scroll"><div class="wire-sizer"><table id="wire-table"><thead>${wireHeadHtml('log')}</thead><tbody></tbody></table></div></div></section></div></body></html>`,
    );
    await page.addStyleTag({ content: css });
    await page.addScriptTag({ content: js });
    return await page.evaluate(
      async ({ cells, step, appendRuns }) => {
        const lib = window.CancelLabWireScroller;
        const el = document.getElementById('wire-scroll');
        if (!lib || !el) throw new Error('the wire scroller bundle did not load');
        const scroller = lib.createWireScroller(el, () => undefined);
        const cellsAt = (i: number): (typeof cells)[number] => {
          const found = cells[i];
          if (!found) throw new Error(`no cells for row ${i}`);
          return found;
        };
        const rowsOf = (n: number) => ({ count: n, cells: cellsAt });
        const settle = (): number => el.querySelector('tbody tr:last-child')?.getBoundingClientRect().top ?? 0;
        const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
        const afterRender = () => new Promise<number>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now());
          channel.port2.postMessage(null);
        });

        const time = (n: number): number => {
          scroller.show(rowsOf(n), false);
          settle();
          const t0 = performance.now();
          scroller.show(rowsOf(n + 1), false);
          settle();
          return performance.now() - t0;
        };
        const appendAt10: number[] = [];
        const appendAt100: number[] = [];
        const appendAt10000: number[] = [];
        for (let i = 0; i < appendRuns + 3; i++) {
          scroller.show(rowsOf(0), true);
          const small = time(10);
          scroller.show(rowsOf(0), true);
          const scrolling = time(100);
          scroller.show(rowsOf(0), true);
          const large = time(cells.length - 1);
          if (i >= 3) {
            appendAt10.push(small);
            appendAt100.push(scrolling);
            appendAt10000.push(large);
          }
        }

        scroller.show(rowsOf(cells.length), true);
        el.scrollTop = 0;
        await frame();
        await frame();
        const scroll: number[] = [];
        while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
          const t0 = await frame();
          const start = performance.now();
          el.scrollTop += step;
          scroll.push((await afterRender()) - Math.min(t0, start));
        }
        // The same scroll done synchronously: the redraw, style and layout the page does per frame, without paint.
        const scrollWork: number[] = [];
        for (let position = 0; position < cells.length; position += Math.round(step / lib.ROW_HEIGHT)) {
          const t0 = performance.now();
          scroller.reveal(position);
          settle();
          scrollWork.push(performance.now() - t0);
        }
        return { rows: cells.length, scroll, scrollWork, appendAt10, appendAt100, appendAt10000 };
      },
      { cells, step: SCROLL_STEP_PX, appendRuns: APPEND_RUNS },
    );
  } finally {
    await browser.close();
  }
}
