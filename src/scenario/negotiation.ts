/**
 * Version negotiation as it really varies: each side's list of supported revisions, set
 * separately, and the client's way of choosing (`pin` one 2026-era revision, or `auto`: probe
 * with server/discover and fall back to initialize). Nothing here negotiates: the real SDKs
 * do, with these lists as their own options (the v2 Client's `supportedProtocolVersions` and
 * `versionNegotiation`, McpServer's `supportedProtocolVersions`), so the trace shows the
 * initialize the SDK writes, the server's counter-offer and the client's refusal. Without a
 * `negotiation` field both sides support the scenario's `revision` alone, as before.
 */
import * as z from 'zod/v4';
import { REVISIONS, type ClientProfile, type Revision, type ServerProfile } from './model.ts';

const revisionList = z.array(z.enum(REVISIONS)).min(1).max(REVISIONS.length);

export const negotiationSchema = z.strictObject({
  /** The client's supported revisions, in the order the SDK is given them: it offers the first 2025-era one in initialize. */
  client: revisionList.optional(),
  /** The server's supported revisions: it echoes an offered one it has, else answers with its first 2025-era one. */
  server: revisionList.optional(),
  /** How the client picks a 2026-era revision: pin its newest (no fallback), or auto (probe, then fall back to initialize). */
  mode: z.enum(['pin', 'auto']).optional(),
});

export type Negotiation = z.infer<typeof negotiationSchema>;

/** The part of a scenario negotiation reads. */
export interface NegotiationSetting {
  revision: Revision;
  negotiation?: Negotiation | undefined;
  serverProfile?: ServerProfile | undefined;
  clientProfile?: ClientProfile | undefined;
}

const isModern = (r: Revision): boolean => r >= '2026-07-28';

/** The revisions the client supports: its list, or the scenario's revision alone. */
export function clientRevisions(s: NegotiationSetting): Revision[] {
  return s.negotiation?.client ?? [s.revision];
}

/** The server's list, or undefined for "the scenario's revision alone" (on 2026-07-28, the SDK's own default list, as before). */
export function serverRevisions(s: NegotiationSetting): Revision[] | undefined {
  if (s.negotiation?.server) return s.negotiation.server;
  return isModern(s.revision) ? undefined : [s.revision];
}

/** The v2 client's negotiation mode: the scenario's, else pin on a 2026-era revision and the 2025 handshake otherwise (as before). */
export function clientMode(s: NegotiationSetting): 'pin' | 'auto' | 'legacy' {
  if (s.negotiation?.mode) return s.negotiation.mode;
  return isModern(s.revision) ? 'pin' : 'legacy';
}

/** The revision a pinned client pins: the newest 2026-era one it supports. */
export function pinnedRevision(s: NegotiationSetting): Revision | undefined {
  return clientRevisions(s).filter(isModern).sort().at(-1);
}

/** Only the real v2 SDK is given a list (the strict host is the real v2 client with a host policy). */
const TAKES_CLIENT_LIST: readonly ClientProfile[] = ['ts-v2', 'strict-host'];
const TAKES_SERVER_LIST: readonly ServerProfile[] = ['ts-v2'];

const V1_HAS_NO_LIST = 'the real TypeScript SDK v1 takes no list of revisions: it supports what 1.32.2 supports (2024-11-05 to 2025-11-25) and its client always asks for 2025-11-25';
const fixedList = (side: string, profile: string): string =>
  profile === 'ts-v1' ? V1_HAS_NO_LIST : `the ${profile} ${side} is an emulation that keeps its implementation's own revisions: only the real TypeScript SDK v2 takes a list here`;

/**
 * Null when the negotiation can be set up with these sides, else a sentence saying why not
 * (with the field it is about): the editor lints it and the runner refuses it.
 */
export function negotiationWhyNot(s: NegotiationSetting): { path: string; message: string } | null {
  const n = s.negotiation;
  if (!n) return null;
  const client = s.clientProfile ?? 'ts-v2';
  const server = s.serverProfile ?? 'ts-v2';
  if (n.client && !TAKES_CLIENT_LIST.includes(client)) return { path: 'client', message: fixedList('client', client) };
  if (n.server && !TAKES_SERVER_LIST.includes(server)) return { path: 'server', message: fixedList('server', server) };
  if (n.mode && !TAKES_CLIENT_LIST.includes(client)) return { path: 'mode', message: `the ${client} client has no negotiation mode here: only the real TypeScript SDK v2 client probes with server/discover` };
  if (n.mode && !pinnedRevision(s)) return { path: 'mode', message: `"${n.mode}" negotiates a 2026-era revision: the client's list needs 2026-07-28` };
  if (!n.mode && !clientRevisions(s).some((r) => !isModern(r)) && !isModern(s.revision)) {
    return { path: 'client', message: 'a client with only 2026-era revisions negotiates them with "pin" or "auto" (set "mode")' };
  }
  if (!clientRevisions(s).includes(s.revision)) return { path: 'client', message: `the client's list should hold the scenario's revision (${s.revision}), the one it is set up for` };
  return null;
}
