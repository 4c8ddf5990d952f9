/**
 * The lab's own trace as JSON Lines: what the playground's "Download trace" saves
 * (serializeTrace, one event per line) and what `cancel-lab run --format json` prints (the
 * same lines, then one result line with the findings, which is left out here). Each line is
 * checked for the fields every event has and that the sequence numbers count up from 0; the
 * events are the lab's, so the trace is judged as the lab judges its own runs.
 */
import type { TraceEvent } from '../events.ts';
import { isObject } from '../messages.ts';
import { excerpt, failAt, fail, linesOf, ticker, type Imported, type Progress } from './observed.ts';

const KINDS = new Set<string>(['frame', 'delivery', 'user-action', 'handler', 'client-state', 'server-state', 'server-request-state', 'client-handler-state', 'connection', 'connection-state', 'observed', 'error']);

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isEvent(value: Record<string, unknown>): value is Record<string, unknown> & TraceEvent {
  if (typeof value.kind !== 'string' || !KINDS.has(value.kind) || typeof value.seq !== 'number' || typeof value.t !== 'number') return false;
  if (value.kind !== 'frame') return true;
  return typeof value.frame === 'number' && (value.dir === 'c2s' || value.dir === 's2c') && typeof value.raw === 'string' && (value.msg === null || isObject(value.msg)) && typeof value.connection === 'number';
}

/** Whether a line is one of the lab's trace events. */
export function isLabEventLine(line: string): boolean {
  const value = parse(line);
  return isObject(value) && isEvent(value);
}

/** The runner's last line under `--format json`: the findings and the exit code, no event. */
function isResultLine(value: Record<string, unknown>): boolean {
  return !('kind' in value) && 'findings' in value && 'exitCode' in value;
}

export function importLab(text: string, progress?: Progress): Imported {
  const lines = linesOf('lab', text);
  if (!Array.isArray(lines)) return lines;
  const trace: TraceEvent[] = [];
  const tick = ticker(lines.length, progress);
  for (const [i, line] of lines.entries()) {
    tick(i);
    if (line.trim() === '') continue;
    const value = parse(line);
    const where = { line: i + 1 };
    if (!isObject(value)) return failAt('lab', where, `is not a JSON object: ${excerpt(line)}`);
    if (isResultLine(value)) continue;
    if (!isEvent(value)) return failAt('lab', where, `is not a trace event (it needs "kind", "seq" and "t", and a frame its "frame", "dir", "raw", "msg" and "connection"): ${excerpt(line)}`);
    if (value.seq !== trace.length) return failAt('lab', where, `has seq ${value.seq} where ${trace.length} comes next`);
    if (value.t < (trace.at(-1)?.t ?? 0)) return failAt('lab', where, `goes back in time (t ${value.t} ms after ${trace.at(-1)?.t ?? 0} ms)`);
    trace.push(value);
  }
  if (trace.length === 0) return fail('lab', 'the file holds no trace events');
  return { ok: true, format: 'lab', trace };
}
