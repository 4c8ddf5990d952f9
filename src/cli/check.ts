/**
 * `cancel-lab check <file>`: a trace captured elsewhere (or the lab's own), imported and judged
 * by the same checker, with the same exit codes and output formats as `run`:
 *   0  no MUST / MUST NOT rule is violated;
 *   1  one is;
 *   2  bad input: unreadable, a format that does not parse (the message names the format tried
 *      and the line or entry), or no revision or transport (the trace has no handshake, and no
 *      --revision / --transport says it);
 *   3  the recorded run did not complete (a lab trace that ends in an engine error or a bound).
 * A trace observed from outside (every format but the lab's own) is judged for what the wire
 * shows; rules that need what only the lab's sides see report "can't tell from this trace".
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { haltOf } from '../engine/index.ts';
import { outcomeChecks, toJunitXml, toSarif, type RunOutcome } from '../report/index.ts';
import { checkRun, type Finding } from '../rules/index.ts';
import { REVISIONS, TRANSPORTS, type Revision, type TransportKind } from '../scenario/index.ts';
import { FORMAT_LABEL, importTrace, serializeTrace, traceHash, type ImportFormat, type TraceEvent } from '../trace/index.ts';
import { findingSummary } from '../views/index.ts';
import { formatFindings, formatTrace } from './format.ts';
import type { ExitCode, ProblemKind } from './judge.ts';
import type { Format } from './output.ts';
import type { Printed } from './text.ts';

export interface CheckTraceOptions {
  /** The import format; detected from the content by default. */
  as?: ImportFormat;
  /** The setting, for a trace without a handshake (or to overrule it). */
  revision?: Revision;
  transport?: TransportKind;
  cwd?: string;
  /** The clock, for the checks' timestamp (tests pin it). */
  now?: () => Date;
}

/** Where a setting came from, in words. */
type Source = 'the trace' | 'the flag';

export interface CheckedTrace {
  input: string;
  exitCode: ExitCode;
  format: ImportFormat | null;
  /** The trace was observed from outside the lab's sides (every import but the lab's own trace). */
  outside: boolean;
  setting: { revision: Revision; transport: TransportKind; from: { revision: Source; transport: Source } } | null;
  trace: TraceEvent[];
  findings: Finding[];
  traceHash: string | null;
  problem: { kind: ProblemKind; message: string } | null;
  startedAt: string;
}

function isRevision(value: string): value is Revision {
  return (REVISIONS as readonly string[]).includes(value);
}

function isTransport(value: string): value is TransportKind {
  return (TRANSPORTS as readonly string[]).includes(value);
}

/** The recorded run's own end, when it did not complete (a lab trace only). */
function unfinished(trace: readonly TraceEvent[]): string | null {
  const halt = haltOf(trace);
  if (halt !== null) return `The recorded run stopped early: ${halt.message}`;
  const error = trace.find((e) => e.kind === 'error');
  return error ? `The recorded run reported an engine error at ${error.t} ms: ${error.message}` : null;
}

/** Reads, imports and judges one trace file. Never throws: every failure is a problem with its exit code. */
export async function checkTraceFile(input: string, opts: CheckTraceOptions = {}): Promise<CheckedTrace> {
  const startedAt = (opts.now ?? (() => new Date()))().toISOString();
  const blank = { input, outside: false, setting: null, trace: [], findings: [], traceHash: null, startedAt };
  const bad = (format: ImportFormat | null, message: string): CheckedTrace => ({ ...blank, format, exitCode: 2, problem: { kind: 'bad-input', message } });
  let text: string;
  try {
    text = await readFile(resolve(opts.cwd ?? process.cwd(), input), 'utf8');
  } catch (error) {
    const code = error !== null && typeof error === 'object' && 'code' in error ? error.code : undefined;
    return bad(null, `Cannot read ${input}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : error instanceof Error ? error.message : String(error)}.`);
  }
  const imported = importTrace(text, opts.as);
  if (!imported.ok) return bad(imported.format, `${input}: ${imported.error}`);
  const { trace, format } = imported;
  const outside = trace.some((e) => e.kind === 'observed' && e.what === 'source');
  const revision = opts.revision ?? imported.revision;
  const transport = opts.transport ?? imported.transport;
  if (revision === undefined) return bad(format, `${input} (${FORMAT_LABEL[format]}) shows no protocol version: it has no initialize exchange, no version in a request's _meta and no MCP-Protocol-Version header, so name it with --revision.`);
  if (transport === undefined) return bad(format, `${input} (${FORMAT_LABEL[format]}) does not record its transport (it holds messages without their framing), so name it with --transport.`);
  if (!isRevision(revision)) return bad(format, `${input} agreed on protocol version "${revision}", which is none of the revisions the lab judges (${REVISIONS.join(', ')}); name one with --revision.`);
  if (!isTransport(transport)) return bad(format, `Unknown transport "${transport}".`);
  const findings = checkRun({ revision, transport }, trace);
  const hash = await traceHash(trace);
  const from = { revision: opts.revision !== undefined ? 'the flag' : 'the trace', transport: opts.transport !== undefined ? 'the flag' : 'the trace' } as const;
  const halted = unfinished(trace);
  const mustBroken = findingSummary(findings, { revision, transport }).mustBroken;
  const exitCode: ExitCode = halted !== null ? 3 : mustBroken ? 1 : 0;
  return { ...blank, format, outside, setting: { revision, transport, from }, trace, findings, traceHash: hash, exitCode, problem: halted === null ? null : { kind: 'run-failed', message: halted } };
}

export function checkOutcome(c: CheckedTrace): RunOutcome {
  return {
    name: c.input,
    setting: c.setting && { revision: c.setting.revision, transport: c.setting.transport },
    findings: c.findings,
    problem: c.problem && { kind: c.problem.kind, message: c.problem.message, exitCode: c.exitCode === 2 ? 2 : 3 },
    exitCode: c.exitCode,
    timestamp: c.startedAt,
  };
}

const EXIT_LINE: Record<ExitCode, string> = {
  0: 'Exit 0: no MUST or MUST NOT rule is violated.',
  1: 'Exit 1: a MUST or MUST NOT rule is violated.',
  2: 'Exit 2: bad input.',
  3: 'Exit 3: the recorded run did not complete, so the findings cover only the trace above.',
};

function checkText(c: CheckedTrace, all: boolean): string[] {
  const s = c.setting;
  if (s === null || c.format === null || c.traceHash === null) return [];
  const frames = c.trace.filter((e) => e.kind === 'frame').length;
  const out = [
    `Trace from ${c.input}: ${FORMAT_LABEL[c.format]}, ${c.trace.length} events (${frames} frames)`,
    `Judged by the rules of ${s.revision} (from ${s.from.revision}) on ${s.transport} (from ${s.from.transport})`,
    ...(c.outside ? ['Observed from outside the lab’s sides: rules that need handler state, a Stop, a timeout or a process exit report “can’t tell from this trace”.'] : []),
    '',
    `Trace (${c.trace.length} events, hash ${c.traceHash}):`,
  ];
  for (const line of formatTrace(c.trace)) out.push(line);
  out.push('');
  for (const line of formatFindings(c.findings, { revision: s.revision, transport: s.transport }, all)) out.push(line);
  if (c.problem) out.push(c.problem.message);
  out.push(EXIT_LINE[c.exitCode]);
  return out;
}

/** What `check` prints in each format; problems go to stderr as `cancel-lab: …`. */
export function renderCheck(c: CheckedTrace, format: Format, options: { all?: boolean; site?: string } = {}): Printed {
  const stderr = c.problem ? [`cancel-lab: ${c.problem.message}`] : [];
  const site = options.site !== undefined ? { site: options.site } : {};
  switch (format) {
    case 'text':
      return { stdout: checkText(c, options.all === true), stderr };
    case 'json': {
      const stdout = c.trace.length > 0 ? serializeTrace(c.trace).split('\n') : [];
      const s = c.setting;
      stdout.push(
        JSON.stringify({
          findings: c.findings,
          exitCode: c.exitCode,
          ...(c.traceHash !== null && { traceHash: c.traceHash }),
          ...(c.format !== null && { format: c.format }),
          ...(s && { revision: s.revision, transport: s.transport }),
          outside: c.outside,
          ...(c.problem && { error: c.problem.message }),
        }),
      );
      return { stdout, stderr };
    }
    case 'checks':
      return { stdout: JSON.stringify(outcomeChecks(checkOutcome(c), site), null, 2).split('\n'), stderr };
    case 'junit':
      return { stdout: toJunitXml([checkOutcome(c)], site).trimEnd().split('\n'), stderr };
    case 'sarif':
      return { stdout: JSON.stringify(toSarif([checkOutcome(c)], site), null, 2).split('\n'), stderr };
  }
}
