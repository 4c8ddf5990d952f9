/**
 * `cancel-lab export <scenario | link> --as mcpsnoop|har [--out FILE]`: runs a scenario (a file or
 * a permalink, read as `run` reads it) on the real SDK and writes its trace as another tool's
 * capture (src/trace/export/): mcpsnoop's JSONL session log for stdio, a HAR 1.2 for HTTP. Exit
 * 0 written; 2 bad input (unreadable, invalid, a format the transport has none of); 3 the run did
 * not complete.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { haltOf } from '../engine/index.ts';
import { runHeadless } from '../host/index.ts';
import { EXPORT_LABEL, exportFormatsFor, exportTrace, type ExportFormat } from '../trace/index.ts';
import { loadScenario } from './load.ts';
import { readFlags, stringFlag } from './flags.ts';

export const EXPORT_USAGE = `Usage: cancel-lab export <scenario.json | permalink URL | #v1.… | v1.…> --as mcpsnoop|har [--out FILE]

Runs the scenario headlessly and writes its trace as another tool's capture of it:
  --as mcpsnoop   mcpsnoop's JSONL session log (stdio runs)
  --as har        a HAR 1.2, as DevTools saves it (HTTP+SSE and Streamable HTTP runs)
  --out FILE      write it there (default: standard output)
Both read back through "cancel-lab check" and the playground's Import to the same frames.

Exit status: 0 written; 2 bad input (unreadable, invalid, or a format the run's transport has
none of); 3 the run could not complete.`;

const FORMATS: readonly ExportFormat[] = ['mcpsnoop', 'har'];

interface ExportArgs {
  input: string;
  as: ExportFormat;
  out?: string;
}

export function parseExportArgs(argv: readonly string[]): { ok: true; args: ExportArgs } | { ok: true; info: 'help' } | { ok: false; error: string } {
  const read = readFlags(argv, { as: { type: 'string' }, out: { type: 'string' } });
  if (!read.ok) return read;
  if (read.help) return { ok: true, info: 'help' };
  const given = stringFlag(read.values, 'as');
  const as = FORMATS.find((x) => x === given);
  if (given !== undefined && as === undefined) return { ok: false, error: `--as takes one of ${FORMATS.join(', ')}` };
  const out = stringFlag(read.values, 'out');
  if (out === '') return { ok: false, error: '--out takes the file to write' };
  const [input, ...more] = read.words;
  if (input === undefined) return { ok: false, error: 'no scenario given' };
  if (more.length > 0) return { ok: false, error: 'export takes one scenario' };
  if (as === undefined) return { ok: false, error: '--as names the format: mcpsnoop or har' };
  return { ok: true, args: { input, as, ...(out !== undefined && { out }) } };
}

export async function exportCommand(argv: readonly string[], cwd: string = process.cwd()): Promise<{ exitCode: number; stdout: string[]; stderr: string[] }> {
  const parsed = parseExportArgs(argv);
  if (!parsed.ok) return { exitCode: 2, stdout: [], stderr: [`cancel-lab: ${parsed.error}.`, '', EXPORT_USAGE] };
  if ('info' in parsed) return { exitCode: 0, stdout: [EXPORT_USAGE], stderr: [] };
  const { input, as, out } = parsed.args;
  const loaded = await loadScenario(input, cwd);
  if (!loaded.ok) return { exitCode: 2, stdout: [], stderr: [`cancel-lab: ${loaded.error}`] };
  const transport = loaded.scenario.transport;
  if (!exportFormatsFor(transport).includes(as)) {
    return { exitCode: 2, stdout: [], stderr: [`cancel-lab: a ${transport} run has no ${EXPORT_LABEL[as]}; use --as ${exportFormatsFor(transport).join(' or ')}.`] };
  }
  const trace = await runHeadless(loaded.scenario);
  const halt = haltOf(trace);
  if (halt) return { exitCode: 3, stdout: [], stderr: [`cancel-lab: the run did not complete: ${halt.message}`] };
  const file = exportTrace(trace, as);
  if (out === undefined) return { exitCode: 0, stdout: [file.text.trimEnd()], stderr: [] };
  try {
    await writeFile(resolve(cwd, out), file.text.endsWith('\n') ? file.text : `${file.text}\n`);
  } catch (error) {
    return { exitCode: 2, stdout: [], stderr: [`cancel-lab: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}.`] };
  }
  return { exitCode: 0, stdout: [], stderr: [`Wrote ${out}: the run of ${loaded.what} as ${EXPORT_LABEL[as]} (${trace.filter((e) => e.kind === 'frame').length} frames).`] };
}
