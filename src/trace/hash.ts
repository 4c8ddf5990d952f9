/** A short fingerprint of a trace (SHA-256 of its JSON Lines), the same in Node and browsers. */
import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalJson, type TraceEvent } from './events.ts';

/** Events serialized between two pauses: a few ms of work. */
const PAUSE_EVERY = 2_000;

/** A SHA-256 fed text chunk by chunk (as UTF-8), then read as hex. */
interface Digest {
  update(text: string): void;
  hex(): string;
}

/** What this file needs of node:crypto. */
interface NodeCrypto {
  createHash(algorithm: 'sha256'): { update(text: string): unknown; digest(encoding: 'hex'): string };
}

/**
 * Node's own SHA-256, where the thread has it: on a 33-event trace it takes 4 µs against
 * noble's 33 (measured in Node 22), and the explorer hashes every schedule's trace. It is reached
 * through process.getBuiltinModule, not an import, so that the browser bundles never see
 * node:crypto; browsers have only an asynchronous digest (below).
 */
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

function newDigest(): Digest {
  if (nodeCrypto !== undefined) {
    const hash = nodeCrypto.createHash('sha256');
    return { update: (text) => void hash.update(text), hex: () => hash.digest('hex') };
  }
  const hash = sha256.create();
  const encoder = new TextEncoder();
  return {
    update: (text) => void hash.update(encoder.encode(text)),
    hex: () => [...hash.digest()].map((b) => b.toString(16).padStart(2, '0')).join(''),
  };
}

/**
 * `pause`, when given, is awaited every PAUSE_EVERY events, so a page can hash a long trace
 * without holding its main thread for the whole serialization; the bytes hashed are the same
 * (serializeTrace's JSON Lines) either way.
 *
 * In a browser the digest is computed in this thread (@noble/hashes), chunk by chunk, not by
 * `crypto.subtle.digest`: that one hands the bytes to another thread and back, and the explorer,
 * which hashes every schedule's trace, sat idle for about a tenth of its time waiting for it.
 * Either way the digest is the same SHA-256 of the same UTF-8 bytes.
 */
export async function traceHash(trace: readonly TraceEvent[], pause?: () => Promise<void>): Promise<string> {
  const hash = newDigest();
  let lines: string[] = [];
  for (let i = 0; i < trace.length; i++) {
    if (i > 0 && i % PAUSE_EVERY === 0) {
      // The line break before the next chunk's first line ends this chunk.
      hash.update(`${lines.join('\n')}\n`);
      lines = [];
      if (pause) await pause();
    }
    lines.push(canonicalJson(trace[i] as TraceEvent));
  }
  hash.update(lines.join('\n'));
  return hash.hex().slice(0, 16);
}
