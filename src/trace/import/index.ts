/**
 * Importers from text to the lab's trace, one module per format, the format detected from the
 * content or named by the caller: the lab's own JSON Lines trace, mcpsnoop's session log, the
 * MCP Inspector's protocol log export, a plain stdio log and a HAR capture. Never throws: bad or
 * unknown input is a failure naming the format tried and the line or entry that failed.
 */
import { importHar, isHar } from './har.ts';
import { importInspector, isInspectorLog } from './inspector.ts';
import { importLab, isLabEventLine } from './lab.ts';
import { importMcpsnoop, isSnoopEnvelope } from './mcpsnoop.ts';
import { FORMAT_LABEL, IMPORT_FORMATS, MAX_IMPORT_BYTES, type ImportFormat, type Imported, type Progress } from './observed.ts';
import { revisionOf, transportOf } from './setting.ts';
import { importStdioLog, looksLikeStdioLog } from './stdio-log.ts';

export { FORMAT_LABEL, IMPORT_FORMATS, MAX_IMPORT_BYTES, MAX_IMPORT_LINES, isImportFormat, type ImportFormat, type Imported, type ObservedTransport, type Progress } from './observed.ts';

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The format the text is in, from its content; null when none fits. */
export function detectFormat(text: string): ImportFormat | null {
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const whole = parseJson(text);
    if (whole.ok && isHar(whole.value)) return 'har';
    if (whole.ok && isInspectorLog(whole.value)) return 'inspector';
    // JSON cut short (a truncated download) is still known by how it begins, so that reading it
    // as that format says where it broke, rather than that the format is unknown.
    if (!whole.ok && /^\{\s*"log"\s*:/.test(start)) return 'har';
    if (!whole.ok && /^\[\s*\{[^[\]]*"(direction|timestamp|origin)"\s*:/.test(start.slice(0, 2000))) return 'inspector';
  }
  const lines = start.split(/\r?\n/, 200);
  const first = lines[0] ?? '';
  if (isLabEventLine(first)) return 'lab';
  if (isSnoopEnvelope(first)) return 'mcpsnoop';
  return looksLikeStdioLog(lines) ? 'stdio-log' : null;
}

function importAs(format: ImportFormat, text: string, progress: Progress | undefined): Imported {
  switch (format) {
    case 'lab':
      return importLab(text, progress);
    case 'mcpsnoop':
      return importMcpsnoop(text, progress);
    case 'stdio-log':
      return importStdioLog(text, progress);
    case 'inspector':
    case 'har': {
      const parsed = parseJson(text);
      if (!parsed.ok) return { ok: false, format, error: `Not ${FORMAT_LABEL[format]}: the file is not JSON (${parsed.error}).` };
      return format === 'har' ? importHar(parsed.value, progress) : importInspector(parsed.value, progress);
    }
  }
}

/**
 * The trace a log holds, in the format named or else the one its content shows, with the
 * setting the log states (a header field) or its handshake and framing show. `progress` is told
 * every thousand lines or entries.
 */
export function importTrace(text: string, format?: ImportFormat, progress?: Progress): Imported {
  if (text.length > MAX_IMPORT_BYTES) {
    return { ok: false, format: format ?? null, error: `The input is ${(text.length / 1048576).toFixed(1)} MB, more than the ${MAX_IMPORT_BYTES / 1048576} MB an import reads.` };
  }
  const chosen = format ?? detectFormat(text);
  if (chosen === null) {
    return { ok: false, format: null, error: `Unknown format: the input is none of ${IMPORT_FORMATS.map((f) => FORMAT_LABEL[f]).join('; ')}.` };
  }
  const imported = importAs(chosen, text, progress);
  if (!imported.ok) return imported;
  const revision = imported.revision ?? revisionOf(imported.trace);
  const transport = imported.transport ?? transportOf(imported.trace);
  return { ...imported, ...(revision !== undefined && { revision }), ...(transport !== undefined && { transport }) };
}
