/**
 * A message the user forges whole (the `inject` action): any JSON value, JSON-RPC or not, within
 * bounds that keep it from overflowing the stack when serialised or filling the wire log. The
 * schema, the playground's field and the link decoder all judge it here, so one bound holds in
 * all three; and what a value lacks to be JSON-RPC is said here too, as advice (a forged frame
 * may be malformed on purpose).
 */
import { grouped } from './grouped.ts';

export const FORGED_MESSAGE_BOUNDS = {
  /** UTF-16 code units of the message as JSON (JSON.stringify, no spacing). */
  length: 10_000,
  /** Objects and arrays inside one another; the message itself is level 1. */
  depth: 32,
} as const;

/**
 * Why `value` cannot be forged, or null. Walks with its own stack (a value nested 10,000 deep
 * is measured without overflowing the call stack), then measures the JSON. A `__proto__` key
 * is refused: copied into an object by assignment it would set the prototype instead.
 */
export function forgedMessageProblem(value: unknown): string | null {
  if (value === undefined) return 'the message is missing';
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const v = next.value;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'a number that JSON cannot write';
      continue;
    }
    if (typeof v !== 'object') return `a ${typeof v}, which is not JSON`;
    if (next.depth > FORGED_MESSAGE_BOUNDS.depth) return `nested more than ${FORGED_MESSAGE_BOUNDS.depth} levels deep`;
    if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return 'a key named "__proto__"';
    for (const child of Object.values(v)) pending.push({ value: child, depth: next.depth + 1 });
  }
  const length = JSON.stringify(value).length;
  if (length > FORGED_MESSAGE_BOUNDS.length) {
    return `${grouped(length)} characters as JSON, more than the ${grouped(FORGED_MESSAGE_BOUNDS.length)} a forged message may have`;
  }
  return null;
}

const JSON_RPC_FIELDS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/** What makes `value` something other than one JSON-RPC 2.0 request, notification or response; empty when it is one. */
export function jsonRpcProblems(value: unknown): string[] {
  if (Array.isArray(value)) return ['an array is a JSON-RPC batch, not one message (only 2025-03-26 allows batches)'];
  if (value === null || typeof value !== 'object') return ['not an object, so not a JSON-RPC message'];
  const msg = new Map(Object.entries(value));
  const problems: string[] = [];
  if (msg.get('jsonrpc') !== '2.0') problems.push('"jsonrpc" is not "2.0"');
  const id = msg.get('id');
  if (msg.has('id') && id !== null && typeof id !== 'string' && !Number.isInteger(id)) problems.push('"id" is neither a string nor an integer');
  const answers = msg.has('result') || msg.has('error');
  if (msg.has('method')) {
    if (typeof msg.get('method') !== 'string') problems.push('"method" is not a string');
    if (answers) problems.push('a message with a "method" carries no "result" or "error"');
    const params = msg.get('params');
    if (msg.has('params') && (params === null || typeof params !== 'object')) problems.push('"params" is neither an object nor an array');
  } else if (!answers) {
    problems.push('no "method", and no "result" or "error"');
  } else {
    if (!msg.has('id')) problems.push('a response has no "id"');
    if (msg.has('result') && msg.has('error')) problems.push('a response carries both "result" and "error"');
  }
  for (const key of msg.keys()) if (!JSON_RPC_FIELDS.has(key)) problems.push(`an extra field "${key}"`);
  return problems;
}
