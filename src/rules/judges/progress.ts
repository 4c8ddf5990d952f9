/** The judges of §10.3: progress notifications (tokens, values, lifetime) and timeouts. */
import { deliveryOf, dirKey, type IndexedProgress as Progress, type IndexedRequest as Req } from '../../trace/index.ts';
import { TERMINAL, createdTask, frameName, latestRequest, receiverOf, show, sideOf, type Draft, type Judge } from './helpers.ts';
import { firstDelivered, signalName, signalsOf } from './signals.ts';

export const PROGRESS_JUDGES = {
  'PROGRESS-TOKEN-UNIQUE': {
    nothing: 'No two active requests shared a progress token.',
    judge({ idx }) {
      const out: Draft[] = [];
      const byToken = new Map<string, Req[]>();
      for (const req of idx.requests) {
        if (req.token === undefined) continue;
        const k = dirKey(req.dir, req.token, req.frame.connection);
        // Requests answered by now stay answered: drop them, so a token reused in turn costs nothing.
        const earlier = (byToken.get(k) ?? []).filter((prev) => !prev.responses.some((r) => (deliveryOf(idx, r.frame)?.seq ?? Infinity) < req.frame.seq));
        for (const prev of earlier) {
          const abandoned = prev.cancels.some((c) => c.frame.seq < req.frame.seq) || prev.aborts.some((a) => a.frame.seq < req.frame.seq);
          out.push({
            verdict: 'violated',
            severity: abandoned ? 'info' : undefined,
            witnesses: [prev.frame.seq, req.frame.seq],
            why: abandoned
              ? `Request ${show(req.id)} reuses progress token ${show(req.token)} of cancelled request ${show(prev.id)}, which never answered; whether it is still active is unclear.`
              : `Requests ${show(prev.id)} and ${show(req.id)} are active at the same time with the same progress token ${show(req.token)}.`,
          });
        }
        byToken.set(k, [...earlier, req]);
      }
      return out;
    },
  },

  'PROGRESS-MONOTONIC': {
    nothing: 'Every progress notification is higher than the one before for its request.',
    judge({ idx }) {
      const out: Draft[] = [];
      const lastByOwner = new Map<Req | string, Progress>();
      for (const p of idx.progress) {
        const key = p.owner ?? dirKey(p.dir, p.token);
        const prev = lastByOwner.get(key);
        if (typeof p.value !== 'number') {
          out.push({ verdict: 'violated', witnesses: [p.frame.seq], why: `The progress in ${frameName(p.frame)} has no numeric progress value.` });
        } else if (prev && typeof prev.value === 'number' && p.value <= prev.value) {
          out.push({
            verdict: 'violated',
            witnesses: [prev.frame.seq, p.frame.seq],
            why: `Progress for token ${show(p.token)} went from ${prev.value} (${frameName(prev.frame)}) to ${p.value} (${frameName(p.frame)}).`,
          });
        }
        if (typeof p.value === 'number') lastByOwner.set(key, p);
      }
      return out;
    },
  },

  'PROGRESS-ACTIVE-ONLY': {
    nothing: 'Every progress notification names the token of an active request.',
    judge(ctx) {
      const { idx, revision } = ctx;
      const out: Draft[] = [];
      for (const p of idx.progress) {
        const owner = p.owner;
        if (!owner) {
          out.push({
            verdict: 'violated',
            witnesses: [p.frame.seq],
            why: `The ${sideOf(p.dir)}'s progress in ${frameName(p.frame)} names token ${show(p.token)}, which no request of the ${receiverOf(p.dir)} provided.`,
          });
          continue;
        }
        if (owner.ownResponses.some((r) => r.frame.seq < p.frame.seq)) continue; // PROGRESS-STOP-AFTER-COMPLETION
        const s = firstDelivered(signalsOf(ctx, owner), true);
        if (s && s.delivery.seq < p.frame.seq) {
          out.push({
            verdict: 'violated',
            severity: 'info',
            witnesses: [s.frame.seq, s.delivery.seq, p.frame.seq],
            why:
              revision === '2026-07-28'
                ? `Progress for request ${show(owner.id)} (${frameName(p.frame)}) came after ${signalName(s)} reached the ${sideOf(p.dir)}; 2026-07-28 judges that under CANCEL-NO-FURTHER-MESSAGES.`
                : `Progress for request ${show(owner.id)} (${frameName(p.frame)}) came after ${signalName(s)} reached the ${sideOf(p.dir)}; before 2026 the spec only implies a cancelled request is no longer in progress (U-6).`,
          });
        }
      }
      return out;
    },
  },

  'PROGRESS-STOP-AFTER-COMPLETION': {
    nothing: 'No progress notification came after its request\'s response.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const p of idx.progress) {
        // A forged response completes nothing on the side that sends the progress (the index keeps it out of ownResponses).
        const done = p.owner?.ownResponses.find((r) => r.frame.seq < p.frame.seq);
        if (!done || createdTask(done, revision) !== undefined) continue; // tasks: PROGRESS-TASK-LIFETIME / TASKX-NO-PROGRESS
        out.push({
          verdict: 'violated',
          witnesses: [done.frame.seq, p.frame.seq],
          why: `The ${sideOf(p.dir)} sent progress for request ${show(p.owner?.id)} (${frameName(p.frame)}) after its response (${frameName(done.frame)}).`,
        });
      }
      return out;
    },
  },

  'PROGRESS-TASK-LIFETIME': {
    nothing: 'No progress for a task in this trace.',
    judge({ idx, revision }) {
      const out: Draft[] = [];
      for (const p of idx.progress) {
        const created = p.owner?.responses.find((r) => r.frame.seq < p.frame.seq && createdTask(r, revision) !== undefined);
        const taskId = created && createdTask(created, revision);
        if (!created || taskId === undefined) continue;
        const terminal = (idx.tasks.get(taskId) ?? []).find((r) => r.frame.seq < p.frame.seq && TERMINAL.has(r.status));
        out.push(
          terminal
            ? {
                verdict: 'violated',
                witnesses: [terminal.frame.seq, p.frame.seq],
                why: `Progress for task ${show(taskId)} (${frameName(p.frame)}) came after the task was reported ${terminal.status} (${frameName(terminal.frame)}).`,
              }
            : {
                verdict: 'satisfied',
                witnesses: [created.frame.seq, p.frame.seq],
                why: `Progress for task ${show(taskId)} (${frameName(p.frame)}) uses its request's token while the task is not yet finished.`,
              },
        );
      }
      return out;
    },
  },

  'TIMEOUT-CANCEL': {
    inside: "the client SDK's own request timeout, which only the lab's client sees",
    nothing: 'No timeout is visible in this trace (it has no timeout event; only a client call settling with a timeout error shows one).',
    nothingVerdict: 'cannot-tell',
    judge(ctx) {
      const { idx } = ctx;
      const out: Draft[] = [];
      const stopsByCall = new Map<string, number[]>();
      for (const stop of idx.stops) stopsByCall.set(stop.action.call, [...(stopsByCall.get(stop.action.call) ?? []), stop.seq]);
      for (const [name, info] of idx.calls) {
        if (info.requestId === null) continue;
        for (const settled of info.settled) {
          const message = settled.note.message ?? '';
          if (settled.note.outcome !== 'error' || !/timed out|timeout/i.test(message)) continue;
          if ((stopsByCall.get(name) ?? []).some((seq) => seq < settled.seq)) continue;
          const req = latestRequest(idx, 'c2s', info.requestId, settled.seq);
          if (!req || req.responses.some((r) => (deliveryOf(idx, r.frame)?.seq ?? Infinity) < settled.seq)) continue;
          const signal = signalsOf(ctx, req).find((s) => s.strong);
          out.push(
            signal
              ? {
                  verdict: 'satisfied',
                  witnesses: [settled.seq, signal.frame.seq],
                  why: `Request ${show(req.id)} timed out ("${message}") and the client cancelled it (${frameName(signal.frame)}).`,
                }
              : {
                  verdict: 'violated',
                  witnesses: [req.frame.seq, settled.seq],
                  why: `Request ${show(req.id)} timed out ("${message}") and the client stopped waiting without cancelling it.`,
                },
          );
        }
      }
      return out;
    },
  },

  'TIMEOUT-MAX': {
    inside: "the client SDK's own request timeout, which only the lab's client sees",
    nothing: 'No call resets its timeout on progress, so each call\'s timeout is its maximum.',
    judge({ idx }) {
      const out: Draft[] = [];
      for (const [name, info] of idx.calls) {
        const call = info.action;
        // The Call records the timeout options the client asked its SDK for.
        if (call?.action.resetTimeoutOnProgress !== true) continue;
        const max = call.action.maxTotalTimeoutMs;
        // A Stop is how the lab plays a caller's own deadline on the call's AbortController.
        const stop = idx.stops.find((e) => e.action.call === name && e.seq > call.seq && info.settled.every((n) => n.seq > e.seq));
        if (max === undefined && stop) {
          out.push({
            verdict: 'satisfied',
            severity: 'info',
            witnesses: [call.seq, stop.seq],
            why: `Call ${name} resets its timeout on progress with no maximum of the SDK's, and was stopped at ${stop.t} ms while running, as a caller's own deadline would (the trace cannot tell a deadline from a user's Stop).`,
          });
          continue;
        }
        if (max === undefined) {
          out.push({
            verdict: 'violated',
            witnesses: [call.seq],
            why: `Call ${name} resets its timeout on every progress notification and sets no maximum total timeout.`,
          });
          continue;
        }
        const fired = info.settled.find((n) => /maximum total timeout/i.test(n.note.message ?? ''));
        out.push({
          verdict: 'satisfied',
          witnesses: [call.seq, fired?.seq],
          why: `Call ${name} resets its timeout on progress and caps it at ${max} ms${fired ? `, which ended it at ${fired.t} ms` : ''}.`,
        });
      }
      return out;
    },
  },
} satisfies Record<string, Judge>;
