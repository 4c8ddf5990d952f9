/**
 * The trace layer: the events a run appends (events.ts) and how frames sit in HTTP
 * (http-frames.ts), the trace's fingerprint, and the one trace index every reader pairs
 * requests, responses, cancels, aborts and progress through.
 */
export * from './events.ts';
export { callIdSchema, directionSchema, msSchema, userActionSchema, type Target, type UserAction } from './actions.ts';
export * from './http-frames.ts';
export { FORGED_MESSAGE_BOUNDS, forgedMessageProblem, jsonRpcProblems } from './forged-message.ts';
export { grouped, plural } from './grouped.ts';
export { traceHash } from './hash.ts';
export { STATUS_TEXT } from './http-status.ts';
export { EXPORT_LABEL, exportFormatsFor, exportTrace, toHar, toMcpsnoop, type ExportFormat } from './export/index.ts';
export { isId, isNotification, isObject, isRequest, isResponse, messagesOf, meta, taskOf } from './messages.ts';
// The index module and the types it holds (indexed.ts) are public whole.
export * from './trace-index.ts';
export type * from './indexed.ts';
export {
  FORMAT_LABEL,
  IMPORT_FORMATS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_LINES,
  detectFormat,
  importTrace,
  isImportFormat,
  type ImportFormat,
  type Imported,
  type ObservedTransport,
  type Progress as ImportProgress,
} from './import/index.ts';
