/**
 * What a JSON-RPC message is, read the same way by every reader of a trace: request, response
 * or notification, its `_meta`, the task it reports, and the messages a frame carries.
 */
import type { FrameEvent, JsonRpcMessage } from './events.ts';
import { bodyOf } from './http-frames.ts';

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

/**
 * A `notifications/…` method names a notification even when the message (wrongly) carries an
 * id: NOTIFICATION-NO-ID judges the id, and the message is not taken for a request.
 */
export function isNotificationMethod(method: unknown): boolean {
  return typeof method === 'string' && method.startsWith('notifications/');
}

export function isRequest(msg: JsonRpcMessage): boolean {
  return typeof msg.method === 'string' && msg.id !== undefined && !isNotificationMethod(msg.method);
}

export function isNotification(msg: JsonRpcMessage): boolean {
  return typeof msg.method === 'string' && (!('id' in msg) || isNotificationMethod(msg.method));
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

/**
 * The JSON-RPC batch a frame carries, as written (its elements need not be messages): a stdio
 * line, an HTTP request body, or an SSE `message` event's data or JSON body that is a JSON
 * array. `contentType` is the stream's response content type, for chunks. Undefined when the
 * frame carries no array.
 */
export function batchOf(frame: FrameEvent, contentType?: string): readonly unknown[] | undefined {
  if (frame.msg) return undefined;
  const body = frame.http ? bodyOf(frame, contentType) : frame.raw;
  const text = body?.trim();
  if (!text?.startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The messages a frame carries: its parsed message, or the elements of a batch (stdio or HTTP). */
export function messagesOf(frame: FrameEvent, contentType?: string): JsonRpcMessage[] {
  if (frame.msg) return [frame.msg];
  return (batchOf(frame, contentType) ?? []).filter(isObject).map((v) => v as JsonRpcMessage);
}
