/**
 * A whole number with its thousands grouped by commas, as `toLocaleString('en-US')` writes it,
 * but without Intl: the first locale-formatting call in a page or a worker starts Chromium's ICU
 * number formatting, about 20 ms on this machine, and the playground formats numbers like these
 * as its modules load and as it paints its first view, on both threads, before it is ready.
 * Anything else (a fraction) is left to toLocaleString.
 */
export function grouped(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en-US');
}

/**
 * "1 step", "3 steps", "2,003 frames": a count and its noun, as every panel, report and the
 * command line say it. Here, beside `grouped`, so that the scenario layer says it too.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}
