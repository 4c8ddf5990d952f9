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
