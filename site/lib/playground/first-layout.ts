/**
 * When the workbench is first laid out. The browser starts the page's worker (playground.astro's
 * head script) on the page's main thread, once the worker's script has begun to arrive; the
 * workbench's first style and layout, which the browser does as soon as the stylesheet is in,
 * held that thread for about 80 ms on a 2-core machine just then, and the worker's start waited
 * for it. So the head script keeps the workbench out of layout (`content-visibility: hidden`,
 * workbench.css) until LAYOUT_LATER_MS after the head, or until the page's code mounts it,
 * whichever comes first. Navigation to connected in Chromium here, loads alternating with the
 * same build laid out at once, in five runs of 25 to 41 loads each: 10 to 43 ms sooner, a median
 * 24 ms (346 → 318 ms in the last). Sooner than 100 ms was no better: at 30 ms the layout came
 * back into the worker's start (364 ms against 331).
 */

/** The class on the root element while the workbench waits for its first layout. */
export const LAYOUT_LATER_CLASS = 'workbench-layout-later';

/** How long after the head the workbench is laid out at the latest (ms). */
export const LAYOUT_LATER_MS = 100;

/** Lets the workbench be laid out now (before the page's code measures anything in it). */
export function layOutWorkbench(): void {
  document.documentElement.classList.remove(LAYOUT_LATER_CLASS);
}
