/**
 * What a JSON-RPC message is, read the same way by every reader of a trace: request, response
 * or notification, its `_meta`, the task it reports, and the messages a frame carries.
 */
import type { FrameEvent, JsonRpcMessage } from './events.ts';

export type RequestId = string | number;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}

export function isResponse(msg: JsonRpcMessage): boolean {
  return msg.method === undefined && ('result' in msg || 'error' in msg);
}

export function isRequest(msg: JsonRpcMessage): boolean {
  return typeof msg.method === 'string' && msg.id !== undefined;
}

export function isNotification(msg: JsonRpcMessage): boolean {
  return typeof msg.method === 'string' && !('id' in msg);
}

export function meta(msg: JsonRpcMessage): Record<string, unknown> | undefined {
  const m = msg.params?._meta;
  return isObject(m) ? m : undefined;
}

/** `{taskId, status}` carried by a result or notification params, in either revision's shape. */
export function taskOf(value: unknown): { taskId: string; status: string } | undefined {
  if (!isObject(value)) return undefined;
  const inner = isObject(value.task) ? value.task : value;
  return typeof inner.taskId === 'string' && typeof inner.status === 'string' ? { taskId: inner.taskId, status: inner.status } : undefined;
}

/** The messages a frame carries: its parsed message, or on stdio the elements of a batch. */
export function messagesOf(frame: FrameEvent): JsonRpcMessage[] {
  if (frame.msg) return [frame.msg];
  if (frame.http) return [];
  const body = frame.raw.trim();
  if (!body.startsWith('[')) return [];
  try {
    const value: unknown = JSON.parse(body);
    return Array.isArray(value) ? value.filter(isObject).map((v) => v as JsonRpcMessage) : [];
  } catch {
    return [];
  }
}
