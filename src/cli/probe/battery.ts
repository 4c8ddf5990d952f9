/**
 * The probe's battery: the tool is timed first, then each check does one thing to a call of it
 * (a cancel in flight, one that races the response, one after it, a duplicate, one for an id
 * never issued, a request timeout), waits long enough to see what the server writes late, and
 * makes a follow-up call to see that the server survived. The checks that cannot hurt a server
 * run first, so a server that a cancel takes down still gets a verdict on them; once it is gone,
 * the checks left are "not run".
 */
import type { Session, Settled } from './session.ts';
import { StepFailed } from './session.ts';

export const CHECKS = [
  { id: 'cancel-after-response', title: 'Cancel after the response' },
  { id: 'cancel-unknown-id', title: 'Cancel for an id never issued' },
  { id: 'cancel-in-flight', title: 'Cancel in flight' },
  { id: 'duplicate-cancel', title: 'Duplicate cancel' },
  { id: 'cancel-races-response', title: 'Cancel racing the response' },
  { id: 'request-timeout', title: 'Request timeout' },
] as const;

export type CheckId = (typeof CHECKS)[number]['id'];

export function isCheckId(value: string): value is CheckId {
  return CHECKS.some((c) => c.id === value);
}

/** A tool must take this long for a cancel to reach it in flight with room to spare. */
export const MIN_TOOL_MS = 200;
/** The longest the tool may take when measured (and each call in a check, times a few). */
export const MAX_TOOL_MS = 30_000;
/** A request id the probe never issues (the SDK counts up from 0). */
export const NEVER_ISSUED = 987_654_321;

/** What one check did and saw. */
export interface CheckRun {
  id: CheckId;
  title: string;
  /** The frames it covers, [from, to) in the recorder's order; null when it did not run. */
  frames: [number, number] | null;
  /** What happened, in sentences. */
  story: string[];
  /** The follow-up call: answered, failed, or not made. */
  followUp: 'answered' | 'failed' | 'not-made';
  /** The server went during this check, and how (its process exited, the connection closed). */
  took: 'down' | null;
  wentBecause?: string;
  /** The check could not finish (a step timed out while the server stayed). */
  stuck: string | null;
  /** The check ran but did not reach what it tests (the race: the response came first every time). */
  missed: string | null;
}

interface Plan {
  tool: string;
  args: Record<string, unknown>;
  /** Measured duration. */
  d: number;
}

const wait = (d: number): number => Math.min(MAX_TOOL_MS * 3, d * 3 + 2_000);

function settledText(s: Settled, startedAt: number): string {
  const after = `${s.t - startedAt} ms after it was sent`;
  if (s.ok) return `the call was answered ${after}`;
  return `the call ended ${after} with ${s.code !== undefined ? `error ${s.code} ` : ''}"${s.error}"`;
}

/** The server's responses, after frame `from`, for request `id`, each with its time after the frame before it (the cancel). */
function answersFor(session: Session, id: string | number, from: number): { text: string; after: number }[] {
  const frames = session.recorder.frames();
  const since = frames[from]?.t ?? 0;
  return frames
    .slice(from)
    .filter((f) => f.dir === 's2c' && f.msg !== null && f.msg.id === id && f.msg.method === undefined)
    .map((f) => ({ text: `${f.raw.length > 120 ? `${f.raw.slice(0, 120)}…` : f.raw} (${f.t - since} ms after the cancel)`, after: f.t - since }));
}

/** What the server wrote after frame `from` (when no call is in flight: what it said back to a notification). */
function writtenSince(session: Session, from: number): string[] {
  return session.recorder
    .frames()
    .slice(from)
    .filter((f) => f.dir === 's2c')
    .map((f) => (f.raw.length > 120 ? `${f.raw.slice(0, 120)}…` : f.raw));
}

/** Whether the client wrote a notifications/cancelled after frame `from`: the SDK sends none for a call already answered. */
function cancelSent(session: Session, from: number): boolean {
  return session.recorder.frames().slice(from).some((f) => f.dir === 'c2s' && f.msg?.method === 'notifications/cancelled');
}

/** What the SDK did with the abort, in words. */
function sdkCancel(session: Session, from: number): string {
  return cancelSent(session, from) ? 'the SDK sent notifications/cancelled' : 'the SDK sent no cancel (the call had already been answered)';
}

type Body = (plan: Plan, session: Session, story: string[], run: CheckRun) => Promise<void>;

/** When the race's abort is aimed, as shares of the measured time: each try after the first aims earlier. */
const RACE_AIMS = [0.95, 0.8, 0.6] as const;

/** Starts a call and returns its settling, its id once written, and when it was sent. */
async function start(plan: Plan, session: Session, options: { signal?: AbortSignal; timeout?: number }) {
  const sentAt = session.recorder.now();
  const settled = session.call(plan.tool, plan.args, { timeout: options.timeout ?? wait(plan.d), ...(options.signal && { signal: options.signal }) });
  // callTool writes its request after a microtask or two; the id is read off the wire.
  await session.pause(1);
  const call = session.lastCall();
  if (call === null) throw new StepFailed('the client wrote no tools/call', null);
  return { settled, id: call.id, sentAt };
}

/** After a cancel: waits out the tool's own time and a margin, so a late answer shows. */
async function lateWindow(plan: Plan, session: Session, sentAt: number): Promise<void> {
  const until = sentAt + plan.d + Math.max(150, plan.d / 2);
  await session.pause(Math.max(0, until - session.recorder.now()));
}

function tellAnswers(story: string[], answers: readonly { text: string }[], what: string): void {
  if (answers.length === 0) story.push(`The server wrote no response for it ${what}.`);
  else story.push(`The server wrote ${answers.length === 1 ? 'a response' : `${answers.length} responses`} for it ${what}: ${answers.map((a) => a.text).join('; ')}.`);
}

const BODIES: Record<CheckId, Body> = {
  async 'cancel-after-response'(plan, session, story) {
    const { settled, id, sentAt } = await start(plan, session, {});
    const s = await session.step('the call', wait(plan.d), settled);
    story.push(`Called the tool (request ${JSON.stringify(id)}); ${settledText(s, sentAt)}.`);
    const cancelFrame = session.recorder.frameTotal;
    await session.cancel(id, 'cancel-lab probe: a cancel after the response');
    story.push('Then sent notifications/cancelled for it.');
    await session.pause(Math.max(150, plan.d / 2));
    tellAnswers(story, answersFor(session, id, cancelFrame), 'after the cancel');
  },
  async 'cancel-unknown-id'(plan, session, story) {
    const from = session.recorder.frameTotal;
    await session.cancel(NEVER_ISSUED, 'cancel-lab probe: a cancel for an id never issued');
    story.push(`Sent notifications/cancelled for request ${NEVER_ISSUED}, which the client never issued.`);
    await session.pause(Math.max(150, plan.d / 2));
    const said = writtenSince(session, from);
    story.push(said.length === 0 ? 'The server wrote nothing back.' : `The server wrote back: ${said.join('; ')}.`);
  },
  async 'cancel-in-flight'(plan, session, story) {
    const controller = new AbortController();
    const { settled, id, sentAt } = await start(plan, session, { signal: controller.signal });
    await session.pause(Math.round(plan.d * 0.3));
    const cancelFrame = session.recorder.frameTotal;
    controller.abort('cancel-lab probe: a cancel in flight');
    const s = await session.step('the cancelled call', wait(plan.d), settled);
    story.push(`Called the tool (request ${JSON.stringify(id)}) and aborted it ${session.recorder.now() - sentAt} ms later, about a third of its time; ${sdkCancel(session, cancelFrame)}, and ${settledText(s, sentAt)}.`);
    await lateWindow(plan, session, sentAt);
    const answers = answersFor(session, id, cancelFrame);
    tellAnswers(story, answers, 'after the cancel, in the tool’s time and a margin');
    if ((answers[0]?.after ?? plan.d) < plan.d / 2) story.push(`(The tool takes ${plan.d} ms, so an answer well before that is the server answering the cancel itself; from the wire alone the checker counts it as a race the spec allows.)`);
  },
  async 'duplicate-cancel'(plan, session, story) {
    const controller = new AbortController();
    const { settled, id, sentAt } = await start(plan, session, { signal: controller.signal });
    await session.pause(Math.round(plan.d * 0.3));
    const cancelFrame = session.recorder.frameTotal;
    controller.abort('cancel-lab probe: a cancel, to be repeated');
    await session.step('the cancelled call', wait(plan.d), settled);
    await session.pause(20);
    const first = sdkCancel(session, cancelFrame);
    await session.cancel(id, 'cancel-lab probe: the same cancel again');
    story.push(`Called the tool (request ${JSON.stringify(id)}) and aborted it at about a third of its time (${first}), then sent a notifications/cancelled of its own for the same id.`);
    await lateWindow(plan, session, sentAt);
    tellAnswers(story, answersFor(session, id, cancelFrame), 'after the first cancel');
  },
  async 'cancel-races-response'(plan, session, story, run) {
    // The measured time includes the trip both ways: a cancel sent just before it is likely to meet the response on the wire.
    // A busy machine runs timers late, and then the response comes first and the SDK sends no cancel: aim earlier and try again.
    for (const [i, share] of RACE_AIMS.entries()) {
      const controller = new AbortController();
      const { settled, id, sentAt } = await start(plan, session, { signal: controller.signal });
      await session.pause(Math.round(plan.d * share));
      const cancelFrame = session.recorder.frameTotal;
      controller.abort('cancel-lab probe: a cancel racing the response');
      const s = await session.step('the call', wait(plan.d), settled);
      const at = session.recorder.now() - sentAt;
      if (!cancelSent(session, cancelFrame)) {
        story.push(`Try ${i + 1}: called the tool (request ${JSON.stringify(id)}) and aborted it ${at} ms later (aimed at ${Math.round(share * 100)}% of its time), but the response came first (${settledText(s, sentAt)}), so the SDK sent no cancel.`);
        continue;
      }
      story.push(`${i > 0 ? `Try ${i + 1}: called` : 'Called'} the tool (request ${JSON.stringify(id)}) and aborted it ${at} ms later, as its response was due; ${settledText(s, sentAt)}.`);
      await lateWindow(plan, session, sentAt);
      const answers = answersFor(session, id, cancelFrame);
      story.push(answers.length === 0 ? 'No response for it came after the cancel was written (either could win the race).' : `After the cancel was written: ${answers.map((a) => a.text).join('; ')} (either could win the race).`);
      return;
    }
    run.missed = `the response came first in each of ${RACE_AIMS.length} tries, so the race was not reached (the tool answered sooner than when it was timed, or timers ran late on a busy machine; run the check again)`;
  },
  async 'request-timeout'(plan, session, story) {
    const timeout = Math.round(plan.d * 0.3);
    const { settled, id, sentAt } = await start(plan, session, { timeout });
    const cancelFrame = session.recorder.frameTotal;
    const s = await session.step('the call', wait(plan.d), settled);
    story.push(`Called the tool (request ${JSON.stringify(id)}) with a request timeout of ${timeout} ms; ${settledText(s, sentAt)}, and ${cancelSent(session, cancelFrame) ? 'the SDK sent notifications/cancelled' : 'the SDK sent no cancel'}.`);
    await lateWindow(plan, session, sentAt);
    tellAnswers(story, answersFor(session, id, cancelFrame), 'after the timeout');
  },
};

/** The follow-up call: did the server survive the check? */
async function followUp(plan: Plan, session: Session, run: CheckRun): Promise<void> {
  const sentAt = session.recorder.now();
  const s = await session.step('the follow-up call', wait(plan.d), session.call(plan.tool, plan.args, { timeout: wait(plan.d) }));
  run.followUp = s.ok ? 'answered' : 'failed';
  run.story.push(s.ok ? `The follow-up call was answered (${s.t - sentAt} ms): the server survived.` : `The follow-up call failed: ${s.error}.`);
}

async function runCheck(check: (typeof CHECKS)[number], plan: Plan, session: Session): Promise<CheckRun> {
  const run: CheckRun = { id: check.id, title: check.title, frames: null, story: [], followUp: 'not-made', took: null, stuck: null, missed: null };
  const before = session.went();
  if (before !== null) {
    run.story.push(`Not run: the server went earlier (${before.why}).`);
    return run;
  }
  const from = session.recorder.frameTotal;
  session.recorder.note(`probe: check ${check.id} — ${check.title}`);
  try {
    await BODIES[check.id](plan, session, run.story, run);
    if (session.went() === null) await followUp(plan, session, run);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    if (error.gone === null) run.stuck = error.message;
  }
  const gone = session.went();
  // A flood is the probe's bound, not the server going down over a cancel.
  if (gone?.flood) run.stuck = `the server ${gone.why}`;
  else if (gone !== null) {
    run.took = 'down';
    run.story.push(`The server went during this check: ${gone.why}.`);
    run.wentBecause = gone.why;
  }
  if (run.stuck !== null) run.story.push(`The check could not finish: ${run.stuck}.`);
  if (run.missed !== null) run.story.push(`The check missed: ${run.missed}.`);
  run.frames = [from, session.recorder.frameTotal];
  return run;
}

/** Runs the checks asked for, in the battery's order, on a connected session whose tool took `d` ms. */
export async function runBattery(session: Session, tool: string, args: Record<string, unknown>, d: number, only: readonly CheckId[] | null): Promise<CheckRun[]> {
  const plan: Plan = { tool, args, d };
  const out: CheckRun[] = [];
  for (const check of CHECKS) {
    if (only !== null && !only.includes(check.id)) continue;
    const run = await runCheck(check, plan, session);
    out.push(run);
    // A server stuck in one check is stuck for the rest: stop rather than wait out every bound.
    if (run.stuck !== null) break;
  }
  return out;
}
