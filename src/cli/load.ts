/**
 * What the runner reads: a scenario file (a scenario, or a library entry with its recorded
 * trace hash), or a permalink (a URL, a `#fragment` or a bare `v1.…`). Each is checked by the
 * schema, then against the combinations the playground offers, so the runner refuses what the
 * pickers disable, in the same words.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodeLink, parseScenario, scenarioAskWhyNot, whyNot, type Scenario } from '../scenario/index.ts';

export interface Recorded {
  trace: string;
  engine?: string;
  sdk?: string;
}

export type Loaded = { ok: true; scenario: Scenario; recorded: Recorded | null; what: string } | { ok: false; error: string };

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const LINK_LIKE = /^v\d+\.[A-Za-z0-9_-]*$/;

async function fromLink(fragment: string): Promise<Loaded> {
  const decoded = await decodeLink(fragment);
  if (!decoded.ok) return { ok: false, error: decoded.error };
  const meta = decoded.meta;
  return { ok: true, scenario: decoded.scenario, recorded: meta ? { trace: meta.trace, engine: meta.engine, sdk: meta.sdk } : null, what: 'the link' };
}

function errnoText(error: unknown): string {
  const code = error !== null && typeof error === 'object' && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

function isEntry(value: unknown): value is { scenario: unknown; trace?: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'scenario' in value && !('version' in value);
}

/**
 * A scenario file holds a scenario, or a library entry ({ id, …, scenario, trace }) whose
 * recorded trace hash is then checked like a permalink's.
 */
function fromFileText(text: string, name: string): Loaded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${name} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.` };
  }
  const candidate = isEntry(value) ? value.scenario : value;
  const recorded = isEntry(value) && typeof value.trace === 'string' && value.trace !== '' ? { trace: value.trace } : null;
  const parsed = parseScenario(candidate);
  if (!parsed.ok) {
    const more = parsed.errors.length > 3 ? ` (and ${parsed.errors.length - 3} more)` : '';
    return { ok: false, error: `${name} is not a valid scenario: ${parsed.errors.slice(0, 3).join('; ')}${more}.` };
  }
  return { ok: true, scenario: parsed.scenario, recorded, what: name };
}

/** Refuses a scenario whose setting the playground's pickers disable, with the pickers' reason. */
function offered(loaded: Loaded): Loaded {
  if (!loaded.ok) return loaded;
  const s = loaded.scenario;
  // No server shape: the runner serves 2026-07-28 with createMcpHandler whatever httpServer says.
  const reason = whyNot(s.revision, s.transport, undefined, { server: s.serverProfile, client: s.clientProfile }) ?? scenarioAskWhyNot(s);
  if (reason === null) return loaded;
  const who = loaded.what === 'the link' ? 'The link' : loaded.what;
  return { ok: false, error: `${who} asks for a setting the playground does not offer: ${reason}` };
}

async function load(text: string, cwd: string): Promise<Loaded> {
  if (text === '') return { ok: false, error: 'No scenario given: pass a scenario file or a permalink.' };
  if (URL_SCHEME.test(text)) {
    const hash = text.indexOf('#');
    if (hash < 0) return { ok: false, error: 'This URL has no #fragment: a Cancel Lab link carries its scenario after "#".' };
    return fromLink(text.slice(hash + 1));
  }
  if (text.startsWith('#')) return fromLink(text);
  let fileText: string;
  try {
    fileText = await readFile(resolve(cwd, text), 'utf8');
  } catch (error) {
    if (LINK_LIKE.test(text)) return fromLink(text);
    return { ok: false, error: `Cannot read ${text}: ${errnoText(error)}.` };
  }
  return fromFileText(fileText, text);
}

/** A permalink (URL, `#fragment` or bare `v1.…`) or a file path, checked and refused as the playground would. */
export async function loadScenario(input: string, cwd: string = process.cwd()): Promise<Loaded> {
  return offered(await load(input.trim(), cwd));
}
