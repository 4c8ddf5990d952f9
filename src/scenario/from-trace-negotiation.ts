/**
 * The version negotiation a trace shows (from-trace.ts), read off the handshake's frames: the
 * client's server/discover probe and the revision it names, the revision the client offers in
 * initialize, the one the server answers, and whether the client went on (it writes
 * notifications/initialized) or gave up. From these, each side's list and the client's mode
 * that make the real SDKs write the same handshake (negotiation.ts); a part the defaults
 * already give is left out, so a scenario without a negotiation reads back without one.
 */
import { isObject, type IndexedRequest, type TraceIndex } from '../trace/index.ts';
import { REVISIONS, type ClientProfile, type Revision, type ServerProfile } from './model.ts';
import { clientMode, negotiationWhyNot, serverRevisions, type Negotiation } from './negotiation.ts';

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** The newest 2025-era revision: a server that refuses server/discover and is never asked more is given it. */
const NEWEST_LEGACY: Revision = '2025-11-25';

function asRevision(value: unknown): Revision | undefined {
  return REVISIONS.find((r) => r === value);
}

function firstRequest(idx: TraceIndex, method: string): IndexedRequest | undefined {
  return idx.requests.find((r) => r.dir === 'c2s' && r.method === method);
}

export interface ReadNegotiation {
  /** The scenario's revision: the caller's, unless the client refused it (then the one it offered). */
  revision: Revision;
  negotiation?: Negotiation;
  /** What was read, or why the lab could not set it, in one sentence. */
  note?: string;
}

interface Handshake {
  /** The revision the client's server/discover probe names, and whether the server refused it. */
  probe?: { revision: Revision; refused: boolean };
  /** The revision the client offered in initialize, the one the server answered, and whether the client took it. */
  init?: { offered: Revision; answered?: Revision; accepted: boolean };
}

function handshakeOf(idx: TraceIndex): Handshake {
  const out: Handshake = {};
  const probe = firstRequest(idx, 'server/discover');
  const meta = isObject(probe?.msg.params) && isObject(probe.msg.params._meta) ? probe.msg.params._meta : undefined;
  const pinned = asRevision(meta?.[META_VERSION]);
  if (probe && pinned) out.probe = { revision: pinned, refused: probe.responses[0]?.msg.error !== undefined };
  const init = firstRequest(idx, 'initialize');
  const offered = asRevision(isObject(init?.msg.params) ? init.msg.params.protocolVersion : undefined);
  const answer = init?.responses[0];
  if (init && offered) {
    const result = answer?.msg.result;
    const answered = asRevision(isObject(result) ? result.protocolVersion : undefined);
    // The client writes notifications/initialized once it took the answer; one that refused closes instead.
    const accepted = answer !== undefined && idx.messages.some(({ frame, msg }) => frame.dir === 'c2s' && msg.method === 'notifications/initialized' && frame.t >= answer.frame.t);
    out.init = { offered, ...(answered && { answered }), accepted };
  }
  return out;
}

/** Each side's list and the client's mode the handshake needs, before the defaults are taken out. */
function needed(h: Handshake): { client: Revision[]; server?: Revision[]; mode?: 'pin' | 'auto' } {
  const client: Revision[] = [];
  if (h.probe) client.push(h.probe.revision);
  if (h.init) client.push(h.init.offered);
  // A counter-offer the client took is in its list; one it refused is not.
  if (h.init?.answered && h.init.accepted && !client.includes(h.init.answered)) client.push(h.init.answered);
  // The server echoes an offered revision it has, else answers its first 2025-era one: a list of
  // the answer alone does both. A server that refused the probe has no 2026-era revision.
  const server = h.init?.answered ? [h.init.answered] : h.probe?.refused ? [NEWEST_LEGACY] : undefined;
  const mode = h.probe ? (h.init ? 'auto' : 'pin') : undefined;
  return { client, ...(server && { server }), ...(mode && { mode }) };
}

const sameList = (a: readonly Revision[] | undefined, b: readonly Revision[] | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The negotiation that makes the lab's sides write the handshake the trace shows. Only the real
 * TypeScript SDK v2 takes lists (negotiation.ts): with another profile on a side, that side's
 * part is left out and the note says so.
 */
export function negotiationOf(idx: TraceIndex, setting: { revision: Revision; clientProfile?: ClientProfile | undefined; serverProfile?: ServerProfile | undefined }): ReadNegotiation {
  const h = handshakeOf(idx);
  const want = needed(h);
  if (want.client.length === 0) return { revision: setting.revision };
  // The client's list holds the scenario's revision, unless the client refused that one.
  const refusedRevision = h.init !== undefined && !h.init.accepted && h.init.answered === setting.revision && h.init.offered !== setting.revision;
  const revision = refusedRevision ? (want.client[0] ?? setting.revision) : setting.revision;
  if (!want.client.includes(revision)) want.client.push(revision);
  const client = setting.clientProfile ?? 'ts-v2';
  const server = setting.serverProfile ?? 'ts-v2';
  const takesClient = client === 'ts-v2' || client === 'strict-host';
  const takesServer = server === 'ts-v2';
  const defaultMode = clientMode({ revision });
  const negotiation: Negotiation = {
    ...(takesClient && !sameList(want.client, [revision]) && { client: want.client }),
    // A server given no list answers server/discover whatever its revision: one that refused it had a list.
    ...(takesServer && want.server && (h.probe?.refused === true || !sameList(want.server, serverRevisions({ revision }))) && { server: want.server }),
    ...(takesClient && want.mode && want.mode !== defaultMode && { mode: want.mode }),
  };
  // The real v1 SDK negotiates its own way (negotiation.ts): its handshake is its own, not a list left out.
  const lost = [
    ...(!takesClient && client !== 'ts-v1' && !sameList(want.client, [revision]) ? [`the ${client} client`] : []),
    ...(!takesServer && server !== 'ts-v1' && want.server && !sameList(want.server, serverRevisions({ revision })) ? [`the ${server} server`] : []),
  ];
  const lostNote = lost.length > 0 ? ` The handshake shows other revisions than ${revision} for ${lost.join(' and ')}, an emulation that keeps its own: only the real TypeScript SDK v2 takes a list.` : '';
  if (Object.keys(negotiation).length === 0) return { revision, ...(lostNote && { note: lostNote.trim() }) };
  const why = negotiationWhyNot({ revision, negotiation, clientProfile: setting.clientProfile, serverProfile: setting.serverProfile });
  if (why) return { revision: setting.revision, note: `The handshake needs a negotiation the lab refuses (${why.message}): both sides support ${setting.revision} alone.` };
  const parts = [negotiation.client && `the client supports ${negotiation.client.join(', ')}`, negotiation.server && `the server ${negotiation.server.join(', ')}`, negotiation.mode && `the client negotiates in ${negotiation.mode} mode`].filter(Boolean);
  return { revision, negotiation, note: `The negotiation read off the handshake: ${parts.join('; ')}.${lostNote}` };
}
