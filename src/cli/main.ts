/**
 * `cancel-lab` on the command line (started by bin/cancel-lab.mjs on Node ≥ 22.18, which
 * strips the TypeScript types). See USAGE in args.ts; src/cli/judge.ts says what each exit code means.
 */
import { ENGINE_VERSION, SDK_VERSION } from '../scenario/index.ts';
import { USAGE, parseArgs } from './args.ts';
import { checkCommand } from './check-command.ts';
import { probeCommand } from './probe/command.ts';
import { exploreCommand } from './explore.ts';
import { exportCommand } from './export.ts';
import { runScenarios } from './run.ts';

/** The subcommands that read their own arguments; the rest of argv is `run`'s. */
const COMMANDS = { check: checkCommand, export: exportCommand, probe: probeCommand, explore: exploreCommand } as const;
const isCommand = (name: string | undefined): name is keyof typeof COMMANDS => name !== undefined && Object.hasOwn(COMMANDS, name);

async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (isCommand(command)) {
    const checked = await COMMANDS[command](argv.slice(1));
    if (checked.stdout.length) process.stdout.write(`${checked.stdout.join('\n')}\n`);
    if (checked.stderr.length) process.stderr.write(`${checked.stderr.join('\n')}\n`);
    return checked.exitCode;
  }
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    console.error(`cancel-lab: ${parsed.error}.\n\n${USAGE}`);
    return 2;
  }
  if ('info' in parsed) {
    console.log(parsed.info === 'help' ? USAGE : `cancel-lab engine ${ENGINE_VERSION}, MCP TypeScript SDK ${SDK_VERSION}`);
    return 0;
  }
  const { inputs, format, all, site } = parsed.args;
  const result = await runScenarios(inputs, { format, allFindings: all, ...(site !== undefined && { site }) });
  if (result.stdout.length) process.stdout.write(`${result.stdout.join('\n')}\n`);
  if (result.stderr.length) process.stderr.write(`${result.stderr.join('\n')}\n`);
  return result.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
