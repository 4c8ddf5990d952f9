/**
 * Faults and forged frames: inject a response or a cancel for a chosen request, or any message
 * typed as JSON (forge-message.ts), hold a direction of the wire, disconnect, crash or restart
 * the server, and the standing wire faults of the running scenario (drop, delay, duplicate, or
 * relabel the Content-Type of the server's HTTP answer; adding one replays the run's steps with
 * it). The text and number fields are bounded where they are typed, by the schema's own bounds,
 * so a fault the form takes always makes a link the app opens.
 */
import { INPUT_BOUNDS, streamsWhyNot, type WireFault } from '../../../../src/scenario/index.ts';
import type { Direction, Target, UserAction } from '../../../../src/trace/index.ts';
import type { RunView } from '../../../../src/views/index.ts';
import { byId, el } from '../dom.ts';
import type { Actions, Panel } from '../types.ts';
import { createForgeMessageField } from './forge-message.ts';
import { FIXED_TARGETS } from '../fault-targets.ts';
import { grouped } from '../../../../src/trace/index.ts';
import { wholeNumberIn } from '../whole-number.ts';

const DIRECTION_WORDS: Record<Direction, string> = { c2s: 'client → server', s2c: 'server → client' };
const FAULT_ACTIONS = ['drop', 'delay', 'duplicate', 'content-type'] as const;
const STDIO_ONLY_BUTTONS = ['crash', 'reconnect', 'inject-to-server'] as const;

function describeFault(f: WireFault): string {
  const nth = f.nth ? ` (match #${f.nth} only)` : '';
  if (f.action === 'content-type') {
    return `${DIRECTION_WORDS[f.dir]}: relabel the answer to ${f.match ?? 'any request'}${nth} as Content-Type ${f.contentType === '' || f.contentType === undefined ? '(none)' : f.contentType}`;
  }
  return `${DIRECTION_WORDS[f.dir]}: ${f.action} ${f.match ?? 'any frame'}${nth}${f.action === 'delay' ? ` by ${f.ms ?? 0} ms` : ''}`;
}

export function createFaultsPanel(root: HTMLElement, actions: Actions): Panel {
  const target = byId<HTMLSelectElement>(root, 'target');
  const targetId = byId<HTMLInputElement>(root, 'target-id');
  const holdButtons = { c2s: byId<HTMLButtonElement>(root, 'hold-c2s'), s2c: byId<HTMLButtonElement>(root, 'hold-s2c') };
  const faultList = byId<HTMLUListElement>(root, 'fault-list');
  const faultCount = byId<HTMLElement>(root, 'fault-count');
  const form = {
    dir: byId<HTMLSelectElement>(root, 'fault-dir'),
    action: byId<HTMLSelectElement>(root, 'fault-action'),
    match: byId<HTMLInputElement>(root, 'fault-match'),
    nth: byId<HTMLInputElement>(root, 'fault-nth'),
    ms: byId<HTMLInputElement>(root, 'fault-ms'),
    contentType: byId<HTMLInputElement>(root, 'fault-content-type'),
  };
  let shown: RunView | null = null;
  targetId.maxLength = INPUT_BOUNDS.requestIdLength;
  form.match.maxLength = INPUT_BOUNDS.faultMatchLength;
  form.nth.min = String(INPUT_BOUNDS.faultNthMin);
  form.ms.max = String(INPUT_BOUNDS.maxMs);
  form.contentType.maxLength = INPUT_BOUNDS.faultContentTypeLength;
  // A field refused at Add is judged again at the next Add; typed into, it is no longer refused.
  for (const input of [form.match, form.nth, form.ms, form.contentType]) {
    input.addEventListener('input', () => {
      input.setCustomValidity('');
      input.removeAttribute('aria-invalid');
    });
  }
  // Only the server writes a response head: a relabel is always server → client.
  form.action.addEventListener('change', () => {
    const relabel = form.action.value === 'content-type';
    if (relabel) form.dir.value = 's2c';
    form.dir.disabled = relabel;
    form.action.setCustomValidity('');
  });

  /** Refuses a field the schema would refuse (a value pasted or set past its bounds), saying why at the field. */
  function refused(input: HTMLInputElement, why: string | null): boolean {
    input.setCustomValidity(why ?? '');
    input.setAttribute('aria-invalid', String(why !== null));
    if (why) input.reportValidity();
    return why !== null;
  }
  const tooLong = (input: HTMLInputElement, max: number): string | null => (input.value.trim().length > max ? `At most ${max} characters (this is ${input.value.trim().length}).` : null);

  function chosenTarget(): Target | null {
    if (target.value === 'initialize') return { initialize: true };
    if (target.value.startsWith('call:')) return { call: target.value.slice(5) };
    if (refused(targetId, tooLong(targetId, INPUT_BOUNDS.requestIdLength))) return null;
    const raw = targetId.value.trim();
    return { requestId: /^-?\d+$/.test(raw) ? Number(raw) : raw };
  }

  const on = (id: string, handler: () => void) => byId<HTMLButtonElement>(root, id).addEventListener('click', handler);
  const forge = (make: (target: Target) => UserAction) => () => {
    const chosen = chosenTarget();
    if (chosen) actions.act(make(chosen));
  };
  on('inject-result', forge((t) => ({ type: 'inject-response', outcome: 'result', ...t })));
  on('inject-error', forge((t) => ({ type: 'inject-response', outcome: 'error', ...t })));
  const progressStream = byId<HTMLSelectElement>(root, 'progress-stream');
  target.addEventListener('change', () => target.setCustomValidity(''));
  on('inject-progress', () => {
    // Progress names a call's own token: "any id" and initialize have none.
    const chosen = chosenTarget();
    if (!chosen || chosen.call === undefined) {
      target.setCustomValidity('Progress is for a call: pick one.');
      target.reportValidity();
      return;
    }
    target.setCustomValidity('');
    actions.act({ type: 'inject-progress', call: chosen.call, ...(progressStream.value !== '' && { onStreamOf: progressStream.value }) });
  });
  on('inject-to-server', forge((t) => ({ type: 'inject-response', outcome: 'result', to: 'server', ...t })));
  const cancelWithId = byId<HTMLInputElement>(root, 'cancel-with-id');
  const cancelBatch = byId<HTMLInputElement>(root, 'cancel-batch');
  on(
    'inject-cancel',
    forge((t) => ({ type: 'inject-cancel', ...t, ...(cancelWithId.checked && { withId: true as const }), ...(cancelBatch.checked && { batch: true as const }) })),
  );
  createForgeMessageField(root, actions);
  on('disconnect', () => actions.act({ type: 'disconnect' }));
  on('crash', () => actions.act({ type: 'crash-server' }));
  on('reconnect', () => actions.act({ type: 'reconnect' }));
  // The server's streams steps: on the chosen call's stream, and on the session.
  const streamTitles = new Map(['close-stream', 'expire-session'].map((id) => byId<HTMLButtonElement>(root, id)).map((b) => [b, b.title] as const));
  on('close-stream', () => {
    const chosen = chosenTarget();
    target.setCustomValidity(chosen?.call === undefined ? 'The server closes a call\'s stream: pick a call.' : '');
    if (chosen?.call === undefined) target.reportValidity();
    else actions.act({ type: 'close-stream', call: chosen.call });
  });
  on('expire-session', () => actions.act({ type: 'expire-session' }));
  for (const dir of ['c2s', 's2c'] as const) {
    // Whether the wire holds is read off the trace, so the button is right after a replayed `hold` too.
    holdButtons[dir].addEventListener('click', () => shown && actions.act({ type: shown.holding[dir] ? 'release' : 'hold', dir }));
  }
  const standing = (): WireFault[] => [...(shown?.scenario.faults ?? [])];
  on('add-fault', () => {
    const match = form.match.value.trim();
    const action = FAULT_ACTIONS.find((a) => a === form.action.value) ?? 'drop';
    if (refused(form.match, tooLong(form.match, INPUT_BOUNDS.faultMatchLength))) return;
    // Refused where typed, never changed: a delay of -1 became 0 ms and an nth of 0 or "1e" every
    // match, a fault the user never asked for, which the shared link then carried.
    const nth = wholeNumberIn(form.nth, INPUT_BOUNDS.faultNthMin, Number.MAX_SAFE_INTEGER);
    if (refused(form.nth, nth.ok ? null : `A whole number from ${INPUT_BOUNDS.faultNthMin}, or empty for every match.`)) return;
    const read = wholeNumberIn(form.ms, 0, INPUT_BOUNDS.maxMs);
    const delay = read.ok ? read.value : null;
    if (refused(form.ms, action !== 'delay' || delay !== null ? null : `A delay is a whole number of ms from 0 to ${grouped(INPUT_BOUNDS.maxMs)}.`)) return;
    const contentType = form.contentType.value.trim();
    if (action === 'content-type') {
      if (refused(form.contentType, tooLong(form.contentType, INPUT_BOUNDS.faultContentTypeLength) ?? (/^[\x20-\x7e\t]*$/.test(contentType) ? null : 'A header value: printable ASCII only.'))) return;
      // stdio has no response heads: say so rather than add a fault that can never match.
      const why = shown?.scenario.transport === 'stdio' ? 'Only an HTTP answer has a Content-Type: pick an HTTP transport first.' : '';
      form.action.setCustomValidity(why);
      if (why) {
        form.action.reportValidity();
        return;
      }
    }
    const fault: WireFault = {
      dir: action === 'content-type' || form.dir.value === 's2c' ? 's2c' : 'c2s',
      action,
      ...(match !== '' && { match }),
      ...(nth.ok && nth.value !== null && { nth: nth.value }),
      ...(action === 'delay' && delay !== null && { ms: delay }),
      ...(action === 'content-type' && { contentType }),
    };
    actions.restart({ faults: [...standing(), fault] });
  });
  on('clear-faults', () => actions.restart({ faults: [] }));

  function renderTargets(view: RunView): void {
    const wanted = [
      ...view.calls.filter((c) => c.requestId !== null).map((c) => [`call:${c.call}`, `call ${c.call} (id ${JSON.stringify(c.requestId)})`] as const),
      ...FIXED_TARGETS,
    ];
    if ([...target.options].map((o) => o.value).join('|') === wanted.map(([v]) => v).join('|')) return;
    const selected = target.value;
    target.replaceChildren(...wanted.map(([value, label]) => el('option', { value, textContent: label })));
    if (wanted.some(([v]) => v === selected)) target.value = selected;
    const streams = view.calls.filter((c) => c.requestId !== null).map((c) => c.call);
    const chosenStream = progressStream.value;
    progressStream.replaceChildren(el('option', { value: '', textContent: 'the call itself' }), ...streams.map((call) => el('option', { value: call, textContent: `call ${call}` })));
    if (streams.includes(chosenStream)) progressStream.value = chosenStream;
  }

  return {
    update(view) {
      if (view === shown) return;
      shown = view;
      renderTargets(view);
      for (const dir of ['c2s', 's2c'] as const) {
        const held = view.holding[dir];
        holdButtons[dir].textContent = `${held ? 'Release' : 'Hold'} ${DIRECTION_WORDS[dir]}`;
        holdButtons[dir].setAttribute('aria-pressed', String(held));
      }
      // Only a stdio server process can crash, restart or take a forged response (the schema refuses them elsewhere).
      const stdio = view.scenario.transport === 'stdio';
      for (const id of STDIO_ONLY_BUTTONS) {
        const button = byId<HTMLButtonElement>(root, id);
        button.disabled = !stdio;
      }
      // Only the real v2 server over sessionful Streamable HTTP has streams to close and a session to forget.
      const streamsWhy = streamsWhyNot(view.scenario);
      for (const [button, title] of streamTitles) {
        button.disabled = streamsWhy !== null;
        button.title = streamsWhy === null ? title : `${title}. Not on this run: it ${streamsWhy}.`;
      }
      const faults = view.scenario.faults ?? [];
      faultCount.textContent = String(faults.length);
      faultList.replaceChildren(...faults.map((f) => el('li', {}, describeFault(f))));
    },
  };
}
