/**
 * `cancel-lab` on the command line (started by bin/cancel-lab.mjs on Node ≥ 22.18, which
 * strips the TypeScript types):
 *
 *   cancel-lab run <scenario.json | permalink URL | #v1.… | v1.…> [--json] [--all]
 *
 * Prints the trace and the checker's findings; exits 0 when no MUST / MUST NOT rule is
 * violated, 1 when one is, 2 on bad input, 3 when the run itself failed.
 */
import { ENGINE_VERSION, SDK_VERSION } from '../scenario/index.ts';
import { runScenarioFile } from './run.ts';

const USAGE = `Usage: cancel-lab run <scenario.json | permalink URL | #v1.… | v1.…> [--json] [--all]

Runs a Cancel Lab scenario headlessly: the real MCP TypeScript SDK ${SDK_VERSION} client and
server in worker threads, joined by the simulated wire in virtual time. Prints the trace and
the spec checker's findings.

  --json   JSON Lines on stdout: one line per trace event, then one line
           {"findings": [...], "exitCode": n, "traceHash": "...", "reproduction"?: {...}}
  --all    list every finding, not only the violated ones (text output)

A file may hold a scenario or a library entry from content/scenarios/ (its recorded trace hash
is checked, like a permalink's). Exit status: 0 no MUST/MUST NOT rule violated, 1 one is,
2 bad input, 3 the run failed.`;

async function main(argv: string[]): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('-')));
  const words = argv.filter((a) => !a.startsWith('-') || a === '-');
  if (flags.has('--help') || flags.has('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (flags.has('--version')) {
    console.log(`cancel-lab engine ${ENGINE_VERSION}, MCP TypeScript SDK ${SDK_VERSION}`);
    return 0;
  }
  const unknown = [...flags].filter((f) => f !== '--json' && f !== '--all');
  if (words[0] !== 'run' || words.length !== 2 || unknown.length > 0) {
    const why =
      unknown.length > 0
        ? `unknown option ${unknown.join(', ')}`
        : words[0] !== 'run'
          ? words[0] === undefined
            ? 'no command given'
            : `unknown command "${words[0]}"`
          : words.length < 2
            ? 'no scenario given'
            : 'give exactly one scenario';
    console.error(`cancel-lab: ${why}.\n\n${USAGE}`);
    return 2;
  }
  const result = await runScenarioFile(words[1] as string, { json: flags.has('--json'), allFindings: flags.has('--all') });
  if (result.stdout.length) process.stdout.write(`${result.stdout.join('\n')}\n`);
  if (result.stderr.length) process.stderr.write(`${result.stderr.join('\n')}\n`);
  return result.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
