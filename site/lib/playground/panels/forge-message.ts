/**
 * The Faults panel's "any message" field: JSON typed by hand, written on the wire exactly as
 * typed in the chosen direction. What is wrong is said under the field as it is typed: JSON that
 * does not parse, or past the bounds the schema keeps, is refused there and the run is not
 * touched; valid JSON that is not JSON-RPC is sent as typed (a malformed frame is the point),
 * with what it lacks said beside it.
 */
import { forgedMessageProblem, jsonRpcProblems, type UserAction } from '../../../../src/trace/index.ts';
import { byId, el } from '../dom.ts';
import type { Actions } from '../types.ts';

type Read = { ok: true; message: unknown; advice: string[] } | { ok: false; why: string };

/** The field's text as a message to forge, or why it cannot be one. */
export function readForgedMessage(text: string): Read {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { ok: false, why: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const problem = forgedMessageProblem(message);
  if (problem) return { ok: false, why: `Cannot be forged: ${problem}.` };
  return { ok: true, message, advice: jsonRpcProblems(message) };
}

export function createForgeMessageField(root: HTMLElement, actions: Actions): void {
  const field = byId<HTMLTextAreaElement>(root, 'forge-json');
  const dir = byId<HTMLSelectElement>(root, 'forge-dir');
  const notes = byId<HTMLUListElement>(root, 'forge-notes');

  /** Says under the field what is wrong with it; returns what can be sent, if anything. */
  function judge(): Read {
    const read = readForgedMessage(field.value);
    field.setAttribute('aria-invalid', String(!read.ok));
    if (!read.ok) notes.replaceChildren(el('li', { className: 'refused' }, `Not sent. ${read.why}`));
    else notes.replaceChildren(...read.advice.map((a) => el('li', {}, `Not JSON-RPC (it is sent as typed): ${a}.`)));
    return read;
  }

  field.addEventListener('input', judge);
  byId<HTMLButtonElement>(root, 'inject-message').addEventListener('click', () => {
    const read = judge();
    if (!read.ok) {
      field.focus();
      return;
    }
    const action: UserAction = { type: 'inject', dir: dir.value === 's2c' ? 's2c' : 'c2s', message: read.message };
    actions.act(action);
  });
}
