/**
 * What a judge is, and what the judges of every section share: the words a finding uses for
 * frames, ids and sides, the request an id names, the task a result creates.
 */
import type { Revision } from '../../scenario/index.ts';
import {
  dirKey,
  idKey,
  isObject,
  type Direction,
  type FrameEvent,
  type TraceEvent,
  type IndexedRequest as Req,
  type JsonRpcMessage,
  type IndexedResponse as Resp,
  type TraceIndex as Index,
} from '../../trace/index.ts';
import type { TransportKind } from '../../scenario/index.ts';

/** How much a finding weighs: MUST → error, SHOULD → warning, the rest info (the catalog maps keywords to it). */
export type Severity = 'error' | 'warning' | 'info';

export interface Ctx {
  revision: Revision;
  transport: TransportKind;
  idx: Index;
  /** The trace itself, for what the index does not pair (the user's own actions, say). */
  trace: readonly TraceEvent[];
}

/** A finding as a judge states it; the checker adds the rule, the severity and tidy witnesses. */
export interface Draft {
  verdict: 'violated' | 'satisfied' | 'cannot-tell';
  /** Defaults to the clause's severity. */
  severity?: Severity;
  witnesses: (number | undefined)[];
  why: string;
}

export interface Judge {
  judge(ctx: Ctx): Draft[];
  /** The finding when the trace has nothing this rule looks at. */
  nothing: string;
  nothingVerdict?: 'satisfied' | 'cannot-tell';
  /**
   * What the rule needs that only the lab's own sides record (handler state, a Stop, a
   * timeout). Set, the rule cannot be judged from a trace observed from outside (an import).
   */
  inside?: string;
}

export const show = (id: unknown): string => idKey(id);
export const frameName = (f: FrameEvent): string => `${f.injected ? 'forged ' : ''}frame ${f.frame}`;
export const sideOf = (dir: Direction): string => (dir === 'c2s' ? 'client' : 'server');
export const receiverOf = (dir: Direction): string => (dir === 'c2s' ? 'server' : 'client');

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A CreateTaskResult: 2025-11-25 `{task: Task}`; the 2026 extension `resultType: "task"`. */
export function createdTask(resp: Resp, revision: Revision): string | undefined {
  const result = resp.msg.result;
  if (!isObject(result)) return undefined;
  if (revision === '2026-07-28') return result.resultType === 'task' && typeof result.taskId === 'string' ? result.taskId : undefined;
  return isObject(result.task) && typeof result.task.taskId === 'string' ? result.task.taskId : undefined;
}

/** The latest request from `dir` with this id written before `beforeSeq`, on any connection. */
export function latestRequest(idx: Index, dir: Direction, id: unknown, beforeSeq: number): Req | undefined {
  const list = idx.requestsById.get(dirKey(dir, id)) ?? [];
  let found: Req | undefined;
  for (const r of list) if (r.frame.seq < beforeSeq) found = r;
  return found;
}

/** A JSON-RPC error response with no request id (absent, or null as JSON-RPC writes it when there is none). */
function isIdlessError(msg: JsonRpcMessage): boolean {
  return msg.error !== undefined && msg.result === undefined && (msg.id === undefined || msg.id === null);
}

/**
 * The body of a refused notification POST, when the transport allows it: on Streamable HTTP
 * (2025-03-26 on) a server that cannot accept a notification answers an HTTP error status, and
 * «The HTTP response body **MAY** comprise a JSON-RPC _error response_ that has no `id`».
 * Returns the stream's head and that error's frame, or undefined.
 */
export function permittedRefusal(ctx: Ctx, stream: number | undefined): { head: FrameEvent; status: number; body: FrameEvent } | undefined {
  if (stream === undefined || ctx.transport !== 'streamable-http' || ctx.revision === '2024-11-05') return undefined;
  const s = ctx.idx.streams.get(stream);
  const head = s?.head;
  const status = head?.http?.status;
  if (!s || !head || status === undefined || status < 400) return undefined;
  const body = s.s2c.find((f) => f.http?.part === 'chunk' && f.msg !== null && isIdlessError(f.msg));
  return body && { head, status, body };
}
