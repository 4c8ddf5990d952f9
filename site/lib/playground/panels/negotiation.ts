/**
 * The Connection panel's version negotiation controls: each side's supported revisions, typed
 * as a list, and the client's mode. What they make is the scenario's `negotiation` field; one
 * the schema would refuse (a list the real v1 SDK cannot take, pin without 2026-07-28) is
 * refused where it was typed, with the schema's own sentence, and the run keeps its setting.
 */
import { REVISIONS, negotiationWhyNot, type Negotiation, type NegotiationSetting, type Revision, type Scenario } from '../../../../src/scenario/index.ts';
import { byId, controlWriter } from '../dom.ts';

export interface NegotiationControls {
  /** The controls whose change starts a new run. */
  readonly inputs: readonly HTMLElement[];
  /** The negotiation the controls describe for this setting, or why it cannot be (shown beside them). */
  read(setting: Omit<NegotiationSetting, 'negotiation'>): { ok: true; negotiation: Negotiation | undefined } | { ok: false };
  show(scenario: Scenario): void;
}

const isRevision = (text: string): text is Revision => REVISIONS.some((r) => r === text);

/** "2025-11-25, 2025-06-18" → the list; empty → none; a word that is no revision → its text. */
function parseList(text: string): { ok: true; list: Revision[] | undefined } | { ok: false; word: string } {
  const words = text.split(/[\s,]+/).filter((w) => w !== '');
  if (words.length === 0) return { ok: true, list: undefined };
  const bad = words.find((w) => !isRevision(w));
  if (bad !== undefined) return { ok: false, word: bad };
  return { ok: true, list: [...new Set(words.filter(isRevision))] };
}

export function createNegotiationControls(root: HTMLElement): NegotiationControls {
  const client = byId<HTMLInputElement>(root, 'client-versions');
  const server = byId<HTMLInputElement>(root, 'server-versions');
  const mode = byId<HTMLSelectElement>(root, 'negotiation-mode');
  const error = byId<HTMLElement>(root, 'negotiation-error');
  const details = byId<HTMLDetailsElement>(root, 'negotiation');
  const write = controlWriter();

  function refuse(message: string | null): void {
    error.hidden = message === null;
    error.textContent = message ?? '';
  }

  return {
    inputs: [client, server, mode],
    read(setting) {
      const lists = [parseList(client.value), parseList(server.value)] as const;
      for (const list of lists) {
        if (!list.ok) {
          refuse(`"${list.word}" is not a revision: use ${REVISIONS.join(', ')}.`);
          return { ok: false };
        }
      }
      const [c, s] = lists;
      const picked = mode.value === 'pin' || mode.value === 'auto' ? mode.value : undefined;
      const negotiation: Negotiation = { ...(c.ok && c.list && { client: c.list }), ...(s.ok && s.list && { server: s.list }), ...(picked && { mode: picked }) };
      const result = Object.keys(negotiation).length > 0 ? negotiation : undefined;
      const why = negotiationWhyNot({ ...setting, negotiation: result });
      refuse(why && `${why.path}: ${why.message}`);
      return why ? { ok: false } : { ok: true, negotiation: result };
    },
    show(scenario) {
      const n = scenario.negotiation;
      write(client, n?.client?.join(', ') ?? '');
      write(server, n?.server?.join(', ') ?? '');
      write(mode, n?.mode ?? '');
      if (n) details.open = true;
      refuse(null);
    },
  };
}
