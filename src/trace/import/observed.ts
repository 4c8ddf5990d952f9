/**
 * What every importer shares: the formats, the result (a trace, or the format tried and the
 * line or entry that failed), the bounds, and small helpers for reading and failing.
 */
import type { JsonRpcMessage, TraceEvent } from '../events.ts';
import { grouped } from '../grouped.ts';

export const IMPORT_FORMATS = ['lab', 'mcpsnoop', 'inspector', 'stdio-log', 'har'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const FORMAT_LABEL: Record<ImportFormat, string> = {
  lab: "Cancel Lab's JSON Lines trace",
  mcpsnoop: "mcpsnoop's JSONL session log",
  inspector: "the MCP Inspector's protocol log export",
  'stdio-log': 'a stdio log (one JSON-RPC message per line with a direction marker)',
  har: 'a HAR 1.2 capture of an HTTP session',
};

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

/** The transports as the scenario layer names them (the trace layer does not import it). */
export type ObservedTransport = 'stdio' | 'http-sse' | 'streamable-http';

/** The bounds of an import: larger input is refused with a message, never read half. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
export const MAX_IMPORT_LINES = 200_000;

export type Imported =
  | {
      ok: true;
      format: ImportFormat;
      trace: TraceEvent[];
      /** What the log itself says of the setting, when it says it outside the messages (a header field). */
      transport?: ObservedTransport;
      revision?: string;
    }
  | {
      ok: false;
      /** The format tried; null when none fits. */
      format: ImportFormat | null;
      error: string;
      /** The line (1-based) or entry (0-based, HAR and Inspector) that failed. */
      at?: { line: number } | { entry: number };
    };

export type Failure = Extract<Imported, { ok: false }>;

export function failAt(format: ImportFormat, where: { line: number } | { entry: number }, what: string): Failure {
  const place = 'line' in where ? `line ${where.line}` : `entry ${where.entry}`;
  return { ok: false, format, at: where, error: `Not ${FORMAT_LABEL[format]}: ${place} ${what}.` };
}

export function fail(format: ImportFormat, what: string): Failure {
  return { ok: false, format, error: `Not ${FORMAT_LABEL[format]}: ${what}.` };
}

/** A short, one-line excerpt of input for an error message. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 60 ? `${flat.slice(0, 60)}…` : flat);
}

/** The JSON-RPC message a value is, when it is a JSON object. */
export function asMessage(value: unknown): JsonRpcMessage | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRpcMessage) : null;
}

/** Lines of a text, refused past the line bound. */
export function linesOf(format: ImportFormat, text: string): string[] | Failure {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines.length > MAX_IMPORT_LINES) {
    return fail(format, `the input has ${grouped(lines.length)} lines, more than the ${grouped(MAX_IMPORT_LINES)} an import reads`);
  }
  return lines;
}

/** Told how far an import has got: items (lines, entries) read of all. */
export type Progress = (done: number, total: number) => void;

/** A per-item tick that tells `progress` every thousand items, so that a large import can show a bar. */
export function ticker(total: number, progress: Progress | undefined): (done: number) => void {
  return (done) => {
    if (progress && done % 1000 === 0) progress(done, total);
  };
}
