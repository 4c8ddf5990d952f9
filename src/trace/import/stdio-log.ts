/**
 * A plain stdio log, as a tee or a host's debug output writes it: one JSON-RPC message per line
 * after a direction marker, with an optional leading timestamp. For example
 *
 *   2026-12-01T13:00:00.120Z --> {"jsonrpc":"2.0","id":1,"method":"tools/call",…}
 *   [+ 350ms] <-- {"jsonrpc":"2.0","id":1,"result":{…}}
 *   C: {…}     S: {…}     client ==> {…}     server ==> {…}     > {…}     < {…}     C->S: {…}
 *
 * A relative time (`[+ 12ms]`, `[+1.5s]`) counts from the log's start. A line with a marker
 * whose text is not JSON is still a frame the side wrote (STDIO-FRAMING judges it); a line
 * with no marker is kept as a note, in order.
 */
import { parseJsonRpc } from '../events.ts';
import type { Direction } from '../events.ts';
import { observedTrace } from './builder.ts';
import { fail, linesOf, ticker, type Imported, type Progress } from './observed.ts';

const ISO = String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`;
const RELATIVE = String.raw`\+\s*(\d+(?:\.\d+)?)\s*(ms|s)`;
const STAMP = new RegExp(String.raw`^\s*(?:\[\s*(?:(${ISO})|${RELATIVE})\s*\]|(${ISO}))\s*`);

/** Markers, longest first so `-->` is not read as `-`, `-`, `>`. Each names who wrote the line. */
const MARKERS: readonly [RegExp, Direction][] = [
  [/^(?:client|c)\s*(?:==>|->|→|=>)\s*(?:server|s)\s*:?\s*/i, 'c2s'],
  [/^(?:server|s)\s*(?:==>|->|→|=>)\s*(?:client|c)\s*:?\s*/i, 's2c'],
  [/^(?:client|c)\s*(?:==>|->|→|>)\s*/i, 'c2s'],
  [/^(?:server|s)\s*(?:==>|->|→|>)\s*/i, 's2c'],
  [/^(?:client|c)\s*(?:<==|<-|←|<)\s*/i, 's2c'],
  [/^(?:server|s)\s*(?:<==|<-|←|<)\s*/i, 'c2s'],
  [/^(?:client|c2s|c)\s*:\s*/i, 'c2s'],
  [/^(?:server|s2c|s)\s*:\s*/i, 's2c'],
  [/^(?:-->|==>|->|=>|→|>>|>)\s*/, 'c2s'],
  [/^(?:<--|<==|<-|<=|←|<<|<)\s*/, 's2c'],
];

interface Line {
  at: number | undefined;
  dir: Direction | undefined;
  text: string;
}

function stampOf(iso: string | undefined, amount: string | undefined, unit: string | undefined): number | undefined {
  if (iso !== undefined) {
    const ms = Date.parse(iso.replace(' ', 'T').replace(',', '.'));
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (amount === undefined) return undefined;
  return Number(amount) * (unit === 's' ? 1000 : 1);
}

function readLine(line: string): Line {
  const stamp = STAMP.exec(line);
  const at = stamp ? stampOf(stamp[1] ?? stamp[4], stamp[2], stamp[3]) : undefined;
  const rest = stamp ? line.slice(stamp[0].length) : line.trimStart();
  for (const [marker, dir] of MARKERS) {
    const m = marker.exec(rest);
    // A marker counts only before something JSON-like: "S: starting up" is a note, not a frame.
    if (m && /^[[{]/.test(rest.slice(m[0].length))) return { at, dir, text: rest.slice(m[0].length).trimEnd() };
  }
  return { at, dir: undefined, text: line };
}

/** Whether the text looks like a stdio log: some line is a marker and a JSON object or array. */
export function looksLikeStdioLog(lines: readonly string[]): boolean {
  return lines.slice(0, 200).some((l) => readLine(l).dir !== undefined);
}

export function importStdioLog(text: string, progress?: Progress): Imported {
  const lines = linesOf('stdio-log', text);
  if (!Array.isArray(lines)) return lines;
  const out = observedTrace('stdio-log');
  let messages = 0;
  const tick = ticker(lines.length, progress);
  for (const [i, line] of lines.entries()) {
    tick(i);
    const read = readLine(line);
    if (read.dir === undefined) {
      if (line.trim() !== '') out.note(read.at, line);
      continue;
    }
    const msg = parseJsonRpc(read.text);
    // A capture cut off mid-line (no newline after it, no whole JSON) lost its end: no frame the program wrote.
    if (msg === null && i === lines.length - 1 && !/\n\s*$/.test(text) && /^\s*[[{]/.test(read.text)) {
      out.note(read.at, `The log ends in the middle of this line, cut short: it is no frame of the wire. ${line}`);
      continue;
    }
    messages++;
    out.frame(read.at, read.dir, `${read.text}\n`, msg);
  }
  if (messages === 0) return fail('stdio-log', 'no line holds a direction marker (such as -->, <--, C:, S:) followed by a JSON-RPC message');
  return { ok: true, format: 'stdio-log', trace: out.trace(), transport: 'stdio' };
}
