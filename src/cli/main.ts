/**
 * `cancel-lab` on the command line (started by bin/cancel-lab.mjs on Node ≥ 22.18, which
 * strips the TypeScript types). See USAGE in args.ts; src/cli/judge.ts says what each exit code means.
 */
import { ENGINE_VERSION, SDK_VERSION } from '../scenario/index.ts';
import { USAGE, parseArgs } from './args.ts';

type Command = (argv: readonly string[]) => Promise<{ exitCode: number; stdout: string[]; stderr: string[] }>;

/**
 * The subcommands that read their own arguments (the rest of argv is `run`'s), each loaded only
 * when named: a process that runs scenarios does not load the probe, the explorer or the importers.
 */
const COMMANDS: Record<'check' | 'export' | 'probe' | 'explore', () => Promise<Command>> = {
  check: () => import('./check-command.ts').then((m) => m.checkCommand),
  export: () => import('./export.ts').then((m) => m.exportCommand),
  probe: () => import('./probe/command.ts').then((m) => m.probeCommand),
  explore: () => import('./explore.ts').then((m) => m.exploreCommand),
};
const isCommand = (name: string | undefined): name is keyof typeof COMMANDS => name !== undefined && Object.hasOwn(COMMANDS, name);

async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (isCommand(command)) {
    const checked = await (await COMMANDS[command]())(argv.slice(1));
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
  const { runScenarios } = await import('./run.ts');
  const result = await runScenarios(inputs, { format, allFindings: all, ...(site !== undefined && { site }) });
  if (result.stdout.length) process.stdout.write(`${result.stdout.join('\n')}\n`);
  if (result.stderr.length) process.stderr.write(`${result.stderr.join('\n')}\n`);
  return result.exitCode;
}

// A reader that stops early (`cancel-lab explore … | head`) closes the pipe: the rest of the
// output is not wanted, which is no error of ours (unhandled, Node would print a stack trace).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
process.exitCode = await main(process.argv.slice(2));
