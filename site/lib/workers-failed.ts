/**
 * What the page says when its workers could not start, the playground's and the embed's alike.
 * Off a secure context (plain http to another host than localhost: the dev server opened from a
 * phone, an embed in a page served so) the browser withholds what the sides use, such as
 * crypto.randomUUID, and the worker's own error ("Cannot read properties of undefined (reading
 * 'bind')") says nothing a user can act on: the page says what to do instead.
 */
export function workersFailed(why: string): string {
  if (globalThis.isSecureContext) return `The workers could not start: ${why}`;
  // A frame is secure only inside a secure page: an embed served from https or localhost is
  // not secure in a page served over plain http, and it is that page that must change.
  const trustworthy = location.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname) || location.hostname.endsWith('.localhost');
  if (window.top !== window && trustworthy) {
    return 'The workers could not start: the page this scenario is embedded in is not a secure context, and the client and server need one. The embedding page must be served over https, or from localhost.';
  }
  return `The workers could not start: this page is not a secure context (${location.protocol}//${location.host}), and the client and server need one. Open it over https, or from localhost on this machine.`;
}
