/** The judges of §10.4: tasks/cancel and what a cancelled task reports, on 2025-11-25 and the 2026 extension. */
import { OPPOSITE, deliveryOf, isObject, taskOf, type IndexedRequest, type IndexedResponse, type TraceIndex } from '../../trace/index.ts';
import { TERMINAL, createdTask, frameName, show, type Draft, type Judge } from './helpers.ts';

/** Each tasks/cancel the other side answered with a result (not an error), with that answer. */
function acknowledgedCancels(idx: TraceIndex): { req: IndexedRequest; resp: IndexedResponse }[] {
  const out: { req: IndexedRequest; resp: IndexedResponse }[] = [];
  for (const req of idx.requests) {
    if (req.method !== 'tasks/cancel') continue;
    const resp = req.responses.find((r) => 'result' in r.msg);
    if (resp) out.push({ req, resp });
  }
  return out;
}

export const TASK_JUDGES = {
  'TASK-CANCEL-TERMINAL-REJECT': {
    nothing: 'No tasks/cancel for a finished task in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.method !== 'tasks/cancel') continue;
        const taskId = req.msg.params?.taskId;
        if (typeof taskId !== 'string') continue;
        const arrived = deliveryOf(idx, req.frame)?.seq ?? req.frame.seq;
        const known = (idx.tasks.get(taskId) ?? []).filter((r) => r.frame.dir === OPPOSITE[req.dir] && r.frame.seq < arrived).at(-1);
        if (!known || !TERMINAL.has(known.status)) continue;
        const resp = req.responses[0];
        if (!resp) {
          out.push({ verdict: 'cannot-tell', witnesses: [known.frame.seq, req.frame.seq], why: `The tasks/cancel for finished task ${show(taskId)} has no answer yet.` });
          continue;
        }
        const code = resp.msg.error?.code;
        out.push(
          code === -32602
            ? {
                verdict: 'satisfied',
                witnesses: [known.frame.seq, req.frame.seq, resp.frame.seq],
                why: `The tasks/cancel for task ${show(taskId)}, already ${known.status}, was rejected with -32602.`,
              }
            : {
                verdict: 'violated',
                witnesses: [known.frame.seq, req.frame.seq, resp.frame.seq],
                why: `The tasks/cancel for task ${show(taskId)}, already ${known.status} (${frameName(known.frame)}), was answered with ${code === undefined ? 'a result' : `error ${code}`} instead of -32602.`,
              },
        );
      }
      return out;
    },
  },

  'TASK-CANCEL-TRANSITION': {
    nothing: 'No tasks/cancel was answered with a result in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.method !== 'tasks/cancel') continue;
        const resp = req.responses.find((r) => 'result' in r.msg);
        const taskId = req.msg.params?.taskId;
        if (!resp || typeof taskId !== 'string') continue;
        const arrived = deliveryOf(idx, req.frame)?.seq ?? req.frame.seq;
        const known = (idx.tasks.get(taskId) ?? []).filter((r) => r.frame.dir === OPPOSITE[req.dir] && r.frame.seq < arrived).at(-1);
        if (known && TERMINAL.has(known.status)) continue; // not a valid cancel: TASK-CANCEL-TERMINAL-REJECT
        const status = taskOf(resp.msg.result)?.status;
        out.push(
          status === 'cancelled'
            ? { verdict: 'satisfied', witnesses: [req.frame.seq, resp.frame.seq], why: `The answer to tasks/cancel for ${show(taskId)} shows the task cancelled.` }
            : {
                verdict: 'violated',
                witnesses: [req.frame.seq, resp.frame.seq],
                why: `The answer to tasks/cancel for ${show(taskId)} (${frameName(resp.frame)}) shows status ${show(status)}, not cancelled.`,
              },
        );
      }
      return out;
    },
  },

  'TASK-CANCEL-STICKY': {
    nothing: 'No task was reported cancelled in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const [taskId, reports] of idx.tasks) {
        const cancelled = reports.find((r) => r.status === 'cancelled');
        if (!cancelled) continue;
        const later = reports.filter((r) => r.frame.seq > cancelled.frame.seq && r.status !== 'cancelled');
        for (const r of later)
          out.push({
            verdict: 'violated',
            witnesses: [cancelled.frame.seq, r.frame.seq],
            why: `Task ${show(taskId)} was reported cancelled (${frameName(cancelled.frame)}) and later ${r.status} (${frameName(r.frame)}).`,
          });
        if (later.length === 0)
          out.push({ verdict: 'satisfied', witnesses: [cancelled.frame.seq], why: `Task ${show(taskId)} stays cancelled after ${frameName(cancelled.frame)}.` });
      }
      return out;
    },
  },

  'TASKX-NO-NOTIF-CANCEL': {
    nothing: 'No notifications/cancelled names a request that became a task.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const c of idx.cancels) {
        const req = c.target;
        const created = req?.responses.find((r) => createdTask(r, revision) !== undefined);
        if (!req || !created) continue;
        const d = deliveryOf(idx, created.frame);
        out.push(
          d && d.seq < c.frame.seq
            ? {
                verdict: 'violated',
                witnesses: [created.frame.seq, d.seq, c.frame.seq],
                why: `The client used notifications/cancelled (${frameName(c.frame)}) for request ${show(req.id)} after it had become task ${show(createdTask(created, revision))}; tasks/cancel was due.`,
              }
            : {
                verdict: 'satisfied',
                severity: 'info',
                witnesses: [created.frame.seq, c.frame.seq],
                why: `The client cancelled request ${show(req.id)} before it learned the request had become a task (R9).`,
              },
        );
      }
      return out;
    },
  },

  'TASKX-CANCEL-ACK': {
    nothing: 'No tasks/cancel was acknowledged in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const { req, resp } of acknowledgedCancels(idx)) {
        const extra = isObject(resp.msg.result) ? Object.keys(resp.msg.result).filter((k) => k !== '_meta' && k !== 'resultType') : ['(not an object)'];
        out.push(
          extra.length === 0
            ? { verdict: 'satisfied', witnesses: [req.frame.seq, resp.frame.seq], why: `tasks/cancel ${show(req.id)} was acknowledged with an empty result.` }
            : {
                verdict: 'violated',
                witnesses: [req.frame.seq, resp.frame.seq],
                why: `The acknowledgement of tasks/cancel ${show(req.id)} (${frameName(resp.frame)}) is not empty: it carries ${extra.join(', ')}.`,
              },
        );
      }
      return out;
    },
  },

  'TASKX-CANCEL-RESULTTYPE': {
    nothing: 'No tasks/cancel was acknowledged in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const { resp, req } of acknowledgedCancels(idx)) {
        const resultType = isObject(resp.msg.result) ? resp.msg.result.resultType : undefined;
        out.push(
          resultType === 'complete'
            ? { verdict: 'satisfied', witnesses: [resp.frame.seq], why: `The result of tasks/cancel ${show(req.id)} has resultType "complete".` }
            : {
                verdict: 'violated',
                witnesses: [resp.frame.seq],
                why: `The result of tasks/cancel ${show(req.id)} (${frameName(resp.frame)}) has resultType ${resultType === undefined ? 'missing' : show(resultType)}, not "complete".`,
              },
        );
      }
      return out;
    },
  },

  'TASKX-NO-PROGRESS': {
    nothing: 'No progress for a task in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const p of idx.progress) {
        const created = p.owner?.responses.find((r) => r.frame.seq < p.frame.seq && createdTask(r, revision) !== undefined);
        if (!created) continue;
        out.push({
          verdict: 'violated',
          witnesses: [created.frame.seq, p.frame.seq],
          why: `The server sent progress (${frameName(p.frame)}) for request ${show(p.owner?.id)} after answering it with task ${show(createdTask(created, revision))}.`,
        });
      }
      return out;
    },
  },

  'TASKX-ROUTING-HEADER': {
    nothing: 'No tasks/get, tasks/update or tasks/cancel was POSTed in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        if (req.dir !== 'c2s' || !['tasks/get', 'tasks/update', 'tasks/cancel'].includes(req.method)) continue;
        const http = req.frame.http;
        if (!http || http.part !== 'request') continue;
        const taskId = req.msg.params?.taskId;
        const name = http.headers?.['mcp-name'];
        if (!http.headers)
          out.push({ verdict: 'cannot-tell', witnesses: [req.frame.seq], why: `The POST of ${req.method} (${frameName(req.frame)}) has no recorded headers.` });
        else if (name !== undefined && name === String(taskId))
          out.push({ verdict: 'satisfied', witnesses: [req.frame.seq], why: `The POST of ${req.method} carries Mcp-Name ${show(name)}, its taskId.` });
        else
          out.push({
            verdict: 'violated',
            witnesses: [req.frame.seq],
            why: `The POST of ${req.method} (${frameName(req.frame)}) ${name === undefined ? 'has no Mcp-Name header' : `has Mcp-Name ${show(name)}`}, not its taskId ${show(taskId)}.`,
          });
      }
      return out;
    },
  },

  'TASK-CREATE-RESULT': {
    nothing: 'No task-augmented request was answered with a result in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        const resp = req.responses[0];
        // An error answer refuses the task; only an accepted one must be a CreateTaskResult.
        if (!req.taskAugmented || !resp || !('result' in resp.msg)) continue;
        const taskId = createdTask(resp, revision);
        out.push(
          taskId !== undefined
            ? { verdict: 'satisfied', witnesses: [req.frame.seq, resp.frame.seq], why: `Task-augmented request ${show(req.id)} was answered with a CreateTaskResult (task ${show(taskId)}).` }
            : {
                verdict: 'violated',
                witnesses: [req.frame.seq, resp.frame.seq],
                why: `Task-augmented request ${show(req.id)} was answered with a plain result (${frameName(resp.frame)}), not a CreateTaskResult.`,
              },
        );
      }
      return out;
    },
  },

  'TASK-RESULT-BLOCKS': {
    nothing: 'No tasks/result was answered with a result in this trace.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const req of idx.requests) {
        const taskId = req.method === 'tasks/result' ? req.msg.params?.taskId : undefined;
        const resp = req.responses[0];
        if (typeof taskId !== 'string' || !resp || !('result' in resp.msg)) continue;
        // What the receiver itself said about the task, around its answer.
        const reports = (idx.tasks.get(taskId) ?? []).filter((r) => r.frame.dir === resp.dir);
        const terminal = reports.find((r) => r.frame.seq < resp.frame.seq && TERMINAL.has(r.status));
        const after = reports.find((r) => r.frame.seq > resp.frame.seq && !TERMINAL.has(r.status));
        if (terminal)
          out.push({
            verdict: 'satisfied',
            witnesses: [terminal.frame.seq, resp.frame.seq],
            why: `tasks/result for task ${show(taskId)} was answered after the task was reported ${terminal.status} (${frameName(terminal.frame)}).`,
          });
        else if (after)
          out.push({
            verdict: 'violated',
            witnesses: [req.frame.seq, resp.frame.seq, after.frame.seq],
            why: `tasks/result for task ${show(taskId)} was answered (${frameName(resp.frame)}) while the task was unfinished: it was reported ${after.status} afterwards (${frameName(after.frame)}).`,
          });
        else
          out.push({
            verdict: 'cannot-tell',
            witnesses: [req.frame.seq, resp.frame.seq],
            why: `No status of task ${show(taskId)} was reported around the answer to tasks/result, so whether the receiver waited for a terminal one is not visible.`,
          });
      }
      return out;
    },
  },
} satisfies Record<string, Judge>;
