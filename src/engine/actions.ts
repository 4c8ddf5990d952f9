/**
 * The user's actions still to run: those due at a virtual instant, and those waiting for a
 * frame (a step with `after`), which become due once their trigger has matched `nth` times.
 */
import type { Step, Trigger } from '../scenario/index.ts';
import type { FrameEvent, RequestId } from '../trace/index.ts';

export interface PendingAction {
  /** The order it was scheduled in: actions due at one instant run in this order. */
  order: number;
  step: Step;
}

/** Does a written frame match a step's trigger? `requestIdOf` names a call's request id. */
function triggers(trigger: Trigger, frame: FrameEvent, requestIdOf: (call: string) => RequestId | null): boolean {
  const msg = frame.msg;
  if (!msg || (trigger.dir !== undefined && trigger.dir !== frame.dir)) return false;
  const method = msg.method ?? (msg.id !== undefined ? 'response' : undefined);
  if (method !== trigger.method) return false;
  if (trigger.call === undefined) return true;
  const id = requestIdOf(trigger.call);
  if (id === null) return false;
  const params = msg.params ?? {};
  return msg.id === id || params.requestId === id || params.progressToken === id;
}

export class Actions {
  /** Due at their `step.at`. */
  due: PendingAction[] = [];
  private waiting: (PendingAction & { seen: number })[] = [];
  private nextNo = 0;

  /** Adds a step: due at `step.at` (never before `now`), or waiting for its trigger. */
  add(step: Step, now: number): void {
    if (step.after) this.waiting.push({ order: this.nextNo++, step, seen: 0 });
    else this.due.push({ order: this.nextNo++, step: { ...step, at: Math.max(step.at, now) } });
  }

  /** Does some step wait for a frame (so that any frame written may make an action due)? */
  get anyWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** The earliest instant an action is due, or null. */
  get nextAt(): number | null {
    let min: number | null = null;
    for (const a of this.due) if (min === null || a.step.at < min) min = a.step.at;
    return min;
  }

  take(pending: PendingAction): void {
    this.due = this.due.filter((a) => a !== pending);
  }

  /** A frame was written: the steps it triggers become due, `step.at` ms after it. */
  wake(frame: FrameEvent, requestIdOf: (call: string) => RequestId | null): void {
    for (const w of [...this.waiting]) {
      if (!w.step.after || !triggers(w.step.after, frame, requestIdOf)) continue;
      w.seen++;
      if (w.seen < (w.step.after.nth ?? 1)) continue;
      this.waiting = this.waiting.filter((x) => x !== w);
      this.due.push({ order: w.order, step: { ...w.step, at: frame.t + w.step.at } });
    }
  }
}
