/** A short fingerprint of a trace (SHA-256 of its JSON Lines), the same in Node and browsers. */
import { serializeTrace, type TraceEvent } from './events.ts';

export async function traceHash(trace: readonly TraceEvent[]): Promise<string> {
  const bytes = new TextEncoder().encode(serializeTrace(trace));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 16);
}
