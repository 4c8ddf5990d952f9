/** A short fingerprint of a trace (SHA-256 of its JSON Lines), the same in Node and browsers. */
import { canonicalJson, type TraceEvent } from './events.ts';

/** Events serialized between two pauses: a few ms of work. */
const PAUSE_EVERY = 2_000;

/**
 * `pause`, when given, is awaited every PAUSE_EVERY events, so a page can hash a long trace
 * without holding its main thread for the whole serialization; the bytes hashed are the same
 * (serializeTrace's JSON Lines) either way.
 */
export async function traceHash(trace: readonly TraceEvent[], pause?: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  for (let i = 0; i < trace.length; i++) {
    if (pause && i > 0 && i % PAUSE_EVERY === 0) await pause();
    lines.push(canonicalJson(trace[i] as TraceEvent));
  }
  const bytes = new TextEncoder().encode(lines.join('\n'));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 16);
}
