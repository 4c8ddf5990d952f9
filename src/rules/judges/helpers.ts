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
  type IndexedRequest as Req,
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
