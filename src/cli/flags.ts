/**
 * How every subcommand reads its words: Node's own parser (`node:util` parseArgs, strict) takes
 * `--name value`, `--name=value`, boolean flags and `-h`/`--help`, and hands back the other words
 * in order; this module only turns its errors into the one-line mistakes the CLI prints, and holds
 * the checks of the flags several commands share (`--format`, `--site`).
 */
import { parseArgs } from 'node:util';
import { FORMATS, isFormat, type Format } from './output.ts';

/** A command's flags: each a string that takes a value, or a boolean that takes none. */
export type FlagSpec = Record<string, { type: 'string' | 'boolean' }>;

export type FlagValues = Record<string, string | boolean | undefined>;

export type ReadFlags = { ok: true; help: boolean; values: FlagValues; words: string[] } | { ok: false; error: string };

/** The option a parse error names ("Unknown option '--frob'", "Option '--format <value>' argument missing"). */
function optionNamed(message: string): string {
  return /'(-{1,2}[^' <]+)/.exec(message)?.[1] ?? message;
}

/**
 * `--budget -1` as `--budget=-1`: Node's parser takes a word that starts with a dash for an
 * option, and would say the flag has no value; a negative number is never an option, and the
 * flag's own check says what it takes.
 */
function negativesJoined(argv: readonly string[], spec: FlagSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    const next = argv[i + 1];
    if (word.startsWith('--') && spec[word.slice(2)]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${word}=${next}`);
      i++;
    } else out.push(word);
  }
  return out;
}

export function readFlags(argv: readonly string[], spec: FlagSpec): ReadFlags {
  try {
    const { values, positionals } = parseArgs({ args: negativesJoined(argv, spec), options: { ...spec, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    const { help, ...rest } = values;
    return { ok: true, help: help === true, values: rest, words: positionals };
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return { ok: false, error: `unknown option ${optionNamed(message)}` };
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = optionNamed(message);
      if (/does not take an argument/.test(message)) return { ok: false, error: `${option} takes no value` };
      // "--budget -1": Node's parser takes a word that starts with a dash for the next option, not a value.
      return { ok: false, error: `${option} needs a value` };
    }
    return { ok: false, error: message };
  }
}

/** A string flag's value, if given. */
export function stringFlag(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** `--format F` (or the older `--json`): the output format, or why not. */
function formatFlag(values: FlagValues, fallback: Format = 'text'): { ok: true; format: Format } | { ok: false; error: string } {
  const f = stringFlag(values, 'format');
  if (f === undefined) return { ok: true, format: values.json === true ? 'json' : fallback };
  return isFormat(f) ? { ok: true, format: f } : { ok: false, error: `--format takes one of ${FORMATS.join(', ')}, not "${f}"` };
}

/** `--site URL`: the site's address for links, or why not. */
function siteFlag(values: FlagValues): { ok: true; site: string | undefined } | { ok: false; error: string } {
  const site = stringFlag(values, 'site');
  return site === undefined || /^https?:\/\//.test(site) ? { ok: true, site } : { ok: false, error: "--site takes the site's address, http(s)://…" };
}

/** `--format` and `--site` together, as every judging command reads them. */
export function outputFlags(values: FlagValues): { ok: true; format: Format; site: string | undefined } | { ok: false; error: string } {
  const format = formatFlag(values);
  if (!format.ok) return format;
  const site = siteFlag(values);
  return site.ok ? { ok: true, format: format.format, site: site.site } : site;
}

/** The flags the judging commands share. */
export const OUTPUT_FLAGS = { format: { type: 'string' }, json: { type: 'boolean' }, all: { type: 'boolean' }, site: { type: 'string' } } as const satisfies FlagSpec;
