/**
 * Permalinks: the scenario, compressed with the platform's own CompressionStream
 * ('deflate-raw'), base64url-encoded, behind a format prefix, in the URL fragment (never sent
 * to a server). `v1.` links hold { scenario, engine, sdk, trace } so a replay can say whether
 * it reproduced the recorded trace exactly.
 */
import { parseScenario } from './schema.ts';
import type { Scenario } from './schema.ts';
import { ENGINE_VERSION, SDK_VERSION } from './versions.ts';

export const LINK_PREFIX = 'v1.';
/** Links longer than this are refused at Share time; the scenario can be downloaded instead. */
export const MAX_LINK_LENGTH = 2000;
/** Inputs larger than this are refused before decompression (a hostile link cannot blow up). */
const MAX_DECOMPRESSED = 512 * 1024;

export interface LinkMeta {
  engine: string;
  sdk: string;
  /** traceHash() of the run when the link was made. */
  trace: string;
}

export type DecodedLink = { ok: true; scenario: Scenario; meta: LinkMeta | null } | { ok: false; error: string };

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function pipe(bytes: Uint8Array, transform: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(transform).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error('too large');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export async function encodeLink(scenario: Scenario, meta: LinkMeta): Promise<string> {
  const json = JSON.stringify({ scenario, ...meta });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER);
  return LINK_PREFIX + toBase64Url(packed);
}

/** Decodes a fragment (with or without '#'). Never throws: every failure is a sentence. */
export async function decodeLink(fragment: string): Promise<DecodedLink> {
  const text = fragment.replace(/^#/, '').trim();
  if (!text.startsWith(LINK_PREFIX)) {
    return { ok: false, error: `This link is not a Cancel Lab scenario: it should start with "${LINK_PREFIX}".` };
  }
  const bytes = fromBase64Url(text.slice(LINK_PREFIX.length));
  if (!bytes || bytes.length === 0) return { ok: false, error: 'This link is damaged: its scenario part is not valid base64url.' };
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_DECOMPRESSED));
  } catch (error) {
    const tooLarge = error instanceof Error && error.message === 'too large';
    return { ok: false, error: tooLarge ? 'This link unpacks to more than 512 KB; it was refused.' : 'This link is damaged or cut short: it does not decompress.' };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: 'This link is damaged: its content is not JSON.' };
  }
  if (value === null || typeof value !== 'object' || !('scenario' in value)) {
    return { ok: false, error: 'This link holds no scenario.' };
  }
  const record = value as Record<string, unknown>;
  const parsed = parseScenario(record.scenario);
  if (!parsed.ok) {
    // Two problems say what is wrong; the rest are counted, so the message stays one readable line.
    const more = parsed.errors.length > 2 ? ` (and ${parsed.errors.length - 2} more)` : '';
    return { ok: false, error: `This link's scenario is not valid: ${parsed.errors.slice(0, 2).join('; ')}${more}` };
  }
  const meta =
    typeof record.engine === 'string' && typeof record.sdk === 'string' && typeof record.trace === 'string'
      ? { engine: record.engine, sdk: record.sdk, trace: record.trace }
      : null;
  return { ok: true, scenario: parsed.scenario, meta };
}

/** The permalink of a run: the scenario, stamped with this engine's and SDK's versions and the trace hash ('' when none is recorded). */
export function permalinkOf(scenario: Scenario, traceHash: string): Promise<string> {
  return encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: traceHash });
}
