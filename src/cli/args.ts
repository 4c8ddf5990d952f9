/**
 * The command line's words: the usage text, and the arguments parsed (or why they cannot be).
 */
import { CATALOG } from '../rules/index.ts';
import { SDK_VERSION } from '../scenario/index.ts';
import { BOUNDS_TEXT } from './judge.ts';
import { outputFlags, OUTPUT_FLAGS, readFlags } from './flags.ts';
import type { Format } from './output.ts';

/** How many of the catalog's rules the checker judges from a trace, in words (the README quotes it). */
export const JUDGED_TEXT = `the checker judges ${CATALOG.filter((r) => r.judged).length} of the catalog's ${CATALOG.length} rules from the trace (the rule reference says why the others cannot be)`;

export const USAGE = `Usage: cancel-lab run <scenario.json | folder | permalink URL | #v1.… | v1.…>… [--format F] [--all] [--site URL]
       cancel-lab check <trace file> [--format F] [--as FORMAT] [--revision R --transport T] [--scenario OUT.json]   (see check --help)
       cancel-lab probe --tool NAME [--args JSON] -- <command> [args…] | --url URL           (see probe --help)
       cancel-lab explore <scenario | permalink> [--budget N | --seconds S] [--seed S] [--shard K/N] [--format F]   (see explore --help)
       cancel-lab export <scenario | permalink> --as mcpsnoop|har [--out FILE]   (see export --help)

Runs Cancel Lab scenarios headlessly: the real MCP TypeScript SDK ${SDK_VERSION} client and
server (both in this process, each with its own virtual clock), joined by the simulated wire in virtual time, and judges each trace
by the rules of the revision it negotiated. A folder stands for its *.json files. Many
scenarios run one after the other in one process and end with a summary table.

  --format text    the trace and the findings (for many: findings and a summary table); default
  --format json    JSON Lines: one line per trace event, then
                   {"findings": [...], "exitCode": n, "traceHash": "...", …} (for many: that
                   line per scenario, then {"exitCode": n, "scenarios": n})
  --format checks  the MCP conformance suite's checks.json (for many: [{"scenario", "checks"}])
  --format junit   JUnit XML: a testsuite per scenario, a testcase per rule judged
  --format sarif   SARIF 2.1.0 for GitHub code scanning
  --json           the same as --format json
  --all            text: list every finding, not only the notable ones
  --site URL       the site's address, for the links to the spec's open points

A file may hold a scenario or a library entry from content/scenarios/ (its recorded trace hash
is checked, like a permalink's).

Judging: ${JUDGED_TEXT}.
Bounds: ${BOUNDS_TEXT}.

Exit status (for many scenarios, the highest):
  0  no MUST / MUST NOT rule violated
  1  a MUST / MUST NOT rule violated, or the client never connected
  2  bad input (unreadable, invalid, or a setting the playground does not offer)
  3  the run could not complete (engine error, worker crash, a bound hit)`;

export interface Args {
  inputs: string[];
  format: Format;
  all: boolean;
  site?: string;
}

/** The arguments, or why they are not usable. */
export function parseArgs(argv: readonly string[]): { ok: true; args: Args } | { ok: false; error: string } | { ok: true; info: 'help' | 'version' } {
  const read = readFlags(argv, { ...OUTPUT_FLAGS, version: { type: 'boolean' } });
  if (!read.ok) return read;
  if (read.help) return { ok: true, info: 'help' };
  if (read.values.version === true) return { ok: true, info: 'version' };
  const output = outputFlags(read.values);
  if (!output.ok) return output;
  const [command, ...inputs] = read.words;
  if (command === undefined) return { ok: false, error: 'no command given' };
  if (command !== 'run') return { ok: false, error: `unknown command "${command}"` };
  if (inputs.length === 0) return { ok: false, error: 'no scenario given' };
  return { ok: true, args: { inputs, format: output.format, all: read.values.all === true, ...(output.site !== undefined && { site: output.site }) } };
}
