/**
 * What `probe` prints, per format: text (the verdict per check, then the findings), json (the
 * trace's JSON Lines, then one result line with the checks), and the CI formats (checks.json,
 * JUnit, SARIF) of the session's findings through the report layer's writers, as `check`
 * prints them. Problems go to stderr as `cancel-lab: …`.
 */
import { outcomeChecks, toJunitXml, toSarif, type RunOutcome } from '../../report/index.ts';
import { serializeTrace } from '../../trace/index.ts';
import { findingLabel, findingSummary } from '../../views/index.ts';
import { formatFindings, formatTrace } from '../format.ts';
import type { ExitCode } from '../judge.ts';
import type { Format } from '../output.ts';
import type { Printed } from '../text.ts';
import type { Probed } from './probe.ts';
import type { CheckStatus } from './verdicts.ts';

const STATUS_LABEL: Record<CheckStatus, string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  info: 'INFO',
  'not-run': 'NOT RUN',
  incomplete: 'STUCK',
  missed: 'MISSED',
};

const EXIT_LINE: Record<ExitCode, string> = {
  0: 'Exit 0: no MUST or MUST NOT rule is violated.',
  1: 'Exit 1: a MUST or MUST NOT rule is violated, or the server never completed the handshake.',
  2: 'Exit 2: bad input.',
  3: 'Exit 3: the probe could not complete (the server hung or flooded, or went while the tool was timed).',
};

export function probeOutcome(p: Probed): RunOutcome {
  return {
    name: `probe ${p.name}`,
    setting: p.setting,
    findings: p.findings,
    problem: p.problem && { kind: p.problem.kind, message: p.problem.message, exitCode: p.exitCode === 0 ? 1 : p.exitCode },
    exitCode: p.exitCode,
    timestamp: p.startedAt,
  };
}

function checkLines(p: Probed): string[] {
  const setting = p.setting;
  if (setting === null) return [];
  const out: string[] = [];
  const width = Math.max(...Object.values(STATUS_LABEL).map((l) => l.length));
  for (const v of p.verdicts) {
    out.push(`${STATUS_LABEL[v.status].padEnd(width)}  ${v.run.title} (${v.run.id})`);
    for (const line of v.run.story) out.push(`${' '.repeat(width + 2)}${line}`);
    for (const f of v.findings) out.push(`${' '.repeat(width + 2)}${findingLabel(f, setting)}: ${f.rule}: ${f.why}`);
    out.push('');
  }
  return out;
}

/** `traceFile`: where `--trace` writes the record, when it was given (the hint then says where to find it, not how to ask for it). */
function text(p: Probed, all: boolean, traceFile: string | undefined): string[] {
  const out = [`Probed ${p.name} over ${p.transport} with the MCP TypeScript SDK client: tool "${p.tool}"`];
  if (p.setting) out.push(`Judged by the rules of ${p.setting.revision} (from the handshake) on ${p.setting.transport}`);
  if (p.measuredMs !== null) out.push(`The tool took ${p.measuredMs} ms when timed; each cancel is placed by that time.`);
  out.push('');
  out.push(...checkLines(p));
  if (p.setting) {
    if (all) out.push(`Trace (${p.trace.length} events, hash ${p.traceHash ?? '-'}):`, ...formatTrace(p.trace), '');
    out.push(...formatFindings(p.findings, p.setting, all));
    const frames = p.trace.filter((e) => e.kind === 'frame').length;
    const recorded = `Recorded ${frames} frames (${p.trace.length} events, hash ${p.traceHash ?? '-'})`;
    out.push(
      '',
      traceFile === undefined
        ? `${recorded}; --trace FILE writes them for the playground's Import panel and cancel-lab check FILE --transport ${p.setting.transport}.`
        : `${recorded}, written to ${traceFile} for the playground's Import panel and cancel-lab check ${traceFile}.`,
    );
  }
  if (p.problem) out.push(p.problem.message);
  out.push(EXIT_LINE[p.exitCode]);
  return out;
}

function json(p: Probed): string[] {
  const out = p.trace.length > 0 ? serializeTrace(p.trace).split('\n') : [];
  const setting = p.setting;
  out.push(
    JSON.stringify({
      probe: p.name,
      tool: p.tool,
      ...(p.measuredMs !== null && { measuredMs: p.measuredMs }),
      checks: p.verdicts.map((v) => ({ id: v.run.id, title: v.run.title, status: v.status, story: v.run.story, rules: [...new Set(v.findings.map((f) => f.rule))] })),
      findings: p.findings,
      exitCode: p.exitCode,
      ...(p.traceHash !== null && { traceHash: p.traceHash }),
      ...(setting && { revision: setting.revision, transport: setting.transport, mustBroken: findingSummary(p.findings, setting).mustBroken }),
      ...(p.problem && { error: p.problem.message }),
    }),
  );
  return out;
}

export function renderProbe(p: Probed, format: Format, options: { all?: boolean; site?: string; traceFile?: string } = {}): Printed {
  const stderr = p.problem ? [`cancel-lab: ${p.problem.message}`] : [];
  const site = options.site !== undefined ? { site: options.site } : {};
  switch (format) {
    case 'text':
      return { stdout: text(p, options.all === true, options.traceFile), stderr };
    case 'json':
      return { stdout: json(p), stderr };
    case 'checks':
      return { stdout: JSON.stringify(outcomeChecks(probeOutcome(p), site), null, 2).split('\n'), stderr };
    case 'junit':
      return { stdout: toJunitXml([probeOutcome(p)], site).trimEnd().split('\n'), stderr };
    case 'sarif':
      return { stdout: JSON.stringify(toSarif([probeOutcome(p)], site), null, 2).split('\n'), stderr };
  }
}
