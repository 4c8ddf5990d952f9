/**
 * `cancel-lab check`'s words: its usage, its arguments, and the command itself (main.ts hands
 * it the arguments after `check`).
 */
import { grouped, IMPORT_FORMATS, MAX_IMPORT_BYTES, MAX_IMPORT_LINES, isImportFormat, type ImportFormat } from '../trace/index.ts';
import { REVISIONS, TRANSPORTS, type Revision, type TransportKind } from '../scenario/index.ts';
import { checkTraceFile, renderCheck } from './check.ts';
import { scenarioFromChecked } from './check-scenario.ts';
import { outputFlags, OUTPUT_FLAGS, readFlags, stringFlag } from './flags.ts';
import type { Format } from './output.ts';

export const CHECK_USAGE = `Usage: cancel-lab check <trace file> [--format F] [--as FORMAT] [--revision R --transport T] [--all] [--site URL] [--scenario OUT.json]

Imports a trace captured elsewhere and judges it with the same checker as "run":
  the lab's own JSON Lines trace (the playground's Download trace, or run --format json);
  mcpsnoop's JSONL session log; the MCP Inspector's protocol log export (JSON);
  a plain stdio log (one JSON-RPC message per line after a marker such as -->, <--, C:, S:,
  client ==>, server ==>, with an optional ISO or [+ 12ms] timestamp);
  a HAR 1.2 capture of a Streamable HTTP or HTTP+SSE session.
The format is detected from the content; --as names it (${IMPORT_FORMATS.join(', ')}).

The revision and transport come from the trace (the initialize exchange, the HTTP framing and
headers); --revision (${REVISIONS.join(', ')}) and --transport (${TRANSPORTS.join(', ')})
say them for a trace without a handshake, or overrule it. A trace from outside the lab shows
only the wire: rules that need handler state, a Stop, a timeout or a process exit report
"can't tell from this trace" (SKIPPED in checks.json).

  --format text|json|checks|junit|sarif   as for run (default text)
  --scenario OUT.json   also write a lab scenario that reproduces the trace (the client's
                        calls, Stops and timeouts at their times, the closest server profile,
                        forged frames for the rest), run it, and print how its trace matches
                        the import frame by frame and its permalink (with --site, a full URL);
                        on stderr, so that --format json, checks, junit and sarif stay parseable

Bounds: ${(MAX_IMPORT_BYTES / 1048576).toString()} MB and ${grouped(MAX_IMPORT_LINES)} lines.

Exit status: 0 no MUST / MUST NOT rule violated; 1 one is; 2 bad input (unreadable, a format
that does not parse, no revision or transport); 3 the recorded run did not complete.`;

interface CheckArgs {
  input: string;
  format: Format;
  as?: ImportFormat;
  revision?: Revision;
  transport?: TransportKind;
  all: boolean;
  site?: string;
  scenario?: string;
}

function oneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

export function parseCheckArgs(argv: readonly string[]): { ok: true; args: CheckArgs } | { ok: false; error: string } | { ok: true; info: 'help' } {
  const read = readFlags(argv, { ...OUTPUT_FLAGS, as: { type: 'string' }, revision: { type: 'string' }, transport: { type: 'string' }, scenario: { type: 'string' } });
  if (!read.ok) return read;
  if (read.help) return { ok: true, info: 'help' };
  const { values } = read;
  const output = outputFlags(values);
  if (!output.ok) return output;
  const as = stringFlag(values, 'as');
  if (as !== undefined && !isImportFormat(as)) return { ok: false, error: `--as takes one of ${IMPORT_FORMATS.join(', ')}` };
  const revision = stringFlag(values, 'revision');
  if (revision !== undefined && !oneOf(REVISIONS, revision)) return { ok: false, error: `--revision takes one of ${REVISIONS.join(', ')}` };
  const transport = stringFlag(values, 'transport');
  if (transport !== undefined && !oneOf(TRANSPORTS, transport)) return { ok: false, error: `--transport takes one of ${TRANSPORTS.join(', ')}` };
  const scenario = stringFlag(values, 'scenario');
  if (scenario === '') return { ok: false, error: '--scenario takes the file to write the scenario to' };
  const [input, ...more] = read.words;
  if (input === undefined) return { ok: false, error: 'no trace file given' };
  if (more.length > 0) return { ok: false, error: 'check takes one trace file' };
  return {
    ok: true,
    args: {
      input,
      format: output.format,
      all: values.all === true,
      ...(as !== undefined && { as }),
      ...(revision !== undefined && { revision }),
      ...(transport !== undefined && { transport }),
      ...(output.site !== undefined && { site: output.site }),
      ...(scenario !== undefined && { scenario }),
    },
  };
}

/** The whole command: what to print and the exit code. */
export async function checkCommand(argv: readonly string[], cwd?: string): Promise<{ exitCode: number; stdout: string[]; stderr: string[] }> {
  const parsed = parseCheckArgs(argv);
  if (!parsed.ok) return { exitCode: 2, stdout: [], stderr: [`cancel-lab: ${parsed.error}.`, '', CHECK_USAGE] };
  if ('info' in parsed) return { exitCode: 0, stdout: [CHECK_USAGE], stderr: [] };
  const { input, format, all, site, scenario, ...setting } = parsed.args;
  const checked = await checkTraceFile(input, { ...setting, ...(cwd !== undefined && { cwd }) });
  const printed = renderCheck(checked, format, { all, ...(site !== undefined && { site }) });
  if (scenario === undefined || checked.exitCode === 2) return { exitCode: checked.exitCode, ...printed };
  const made = await scenarioFromChecked(checked, scenario, { ...(cwd !== undefined && { cwd }), ...(site !== undefined && { site }) });
  const lines = made.lines;
  const exitCode = made.exitCode ?? checked.exitCode;
  return format === 'text' ? { exitCode, stdout: [...printed.stdout, '', ...lines], stderr: printed.stderr } : { exitCode, stdout: printed.stdout, stderr: [...printed.stderr, ...lines] };
}
