/**
 * What the page says when its workers could not start, the playground's and the embed's alike.
 * Off a secure context (plain http to another host than localhost: the dev server opened from a
 * phone, an embed in a page served so) the browser withholds what the sides use, such as
 * crypto.randomUUID, and the worker's own error ("Cannot read properties of undefined (reading
 * 'bind')") says nothing a user can act on: the page says what to do instead.
 */
export function workersFailed(why: string): string {
  if (!globalThis.isSecureContext) {
    return `The workers could not start: this page is not a secure context (${location.protocol}//${location.host}), and the client and server need one. Open it over https, or from localhost on this machine.`;
  }
  return `The workers could not start: ${why}`;
}
