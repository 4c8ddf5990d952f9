/** A short fingerprint of a trace (SHA-256 of its JSON Lines), the same in Node and browsers. */
import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalJson, type TraceEvent } from './events.ts';

/** Events serialized between two pauses: a few ms of work. */
const PAUSE_EVERY = 2_000;

/**
 * `pause`, when given, is awaited every PAUSE_EVERY events, so a page can hash a long trace
 * without holding its main thread for the whole serialization; the bytes hashed are the same
 * (serializeTrace's JSON Lines) either way.
 *
 * The digest is computed in this thread (@noble/hashes), chunk by chunk, not by
 * `crypto.subtle.digest`: that one hands the bytes to another thread and back, and the explorer,
 * which hashes every schedule's trace, sat idle for about a tenth of its time waiting for it.
 * The digest is the same SHA-256.
 */
export async function traceHash(trace: readonly TraceEvent[], pause?: () => Promise<void>): Promise<string> {
  const hash = sha256.create();
  const encoder = new TextEncoder();
  let lines: string[] = [];
  for (let i = 0; i < trace.length; i++) {
    if (i > 0 && i % PAUSE_EVERY === 0) {
      // The line break before the next chunk's first line ends this chunk.
      hash.update(encoder.encode(`${lines.join('\n')}\n`));
      lines = [];
      if (pause) await pause();
    }
    lines.push(canonicalJson(trace[i] as TraceEvent));
  }
  hash.update(encoder.encode(lines.join('\n')));
  return [...hash.digest()].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 16);
}
