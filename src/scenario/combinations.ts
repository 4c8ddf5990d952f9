/**
 * Which revision × transport × server shape × implementation can run, and why not when
 * it cannot: the one place the pickers and the headless runner read, so the runner refuses
 * exactly what the playground disables, with the same words.
 */
import { REVISIONS, TRANSPORTS, TRANSPORT_LABEL, type ClientProfile, type HttpServerShape, type Revision, type ServerProfile, type TransportKind } from './model.ts';
import type { Scenario } from './schema.ts';
import { CLIENT_PROFILE_INFO, SERVER_PROFILE_INFO } from './profiles.ts';

export interface Combination {
  revision: Revision;
  transport: TransportKind;
  httpServer: HttpServerShape;
}

export interface Implementations {
  server?: ServerProfile | undefined;
  client?: ClientProfile | undefined;
}

/**
 * Null when allowed, else one line saying why the combination cannot be made. Without
 * `httpServer`, any server shape the SDK serves the revision with will do (the runner's
 * question: it serves 2026-07-28 with createMcpHandler whatever the scenario's httpServer says).
 */
export function whyNot(revision: Revision, transport: TransportKind, httpServer?: HttpServerShape, implementations: Implementations = {}): string | null {
  return transportReason(revision, transport, httpServer) ?? profileWhyNot(revision, transport, implementations.server ?? 'ts-v2', implementations.client ?? 'ts-v2');
}

function transportReason(revision: Revision, transport: TransportKind, httpServer: HttpServerShape | undefined): string | null {
  if (transport === 'http-sse' && revision !== '2024-11-05') {
    return 'HTTP+SSE is the 2024-11-05 transport; 2025-03-26 replaced it with Streamable HTTP.';
  }
  if (transport === 'streamable-http' && revision === '2024-11-05') {
    return 'Streamable HTTP arrived in 2025-03-26; a 2024-11-05 client speaks HTTP+SSE.';
  }
  if (transport === 'streamable-http' && revision === '2026-07-28' && httpServer === 'sessionful') {
    return '2026-07-28 removed sessions: the SDK serves it with createMcpHandler only.';
  }
  return null;
}

// The newest revision each 1.x implementation speaks, from its own list of supported
// versions: TypeScript SDK 1.x, SUPPORTED_PROTOCOL_VERSIONS with LATEST_PROTOCOL_VERSION
// 2025-11-25 (https://github.com/modelcontextprotocol/typescript-sdk/blob/v1.x/src/types.ts#L4-L6);
// python-sdk 1.x, SUPPORTED_PROTOCOL_VERSIONS up to 2025-11-25
// (https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/shared/version.py#L1-L3,
// https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/types.py#L27).
const TS_V1_NEWEST = 'No TypeScript SDK 1.x speaks 2026-07-28: the newest revision 1.x supports is 2025-11-25.';
// The v1 client always asks for its newest revision and the v1 server grants any it supports
// (client/index.ts connect(), server/index.ts _oninitialize): two v1 sides speak 2025-11-25 only.
const TS_V1_PAIR = 'A TypeScript SDK 1.x client always asks for 2025-11-25 and a 1.x server grants it: a v1 pair speaks 2025-11-25 only.';
const PY_V1_NEWEST = 'No python-sdk 1.x speaks 2026-07-28: the newest revision 1.x supports is 2025-11-25.';

/** The emulations layered on the v2 SDK's stdio transport; the strict host is a policy on the real v2 client's errors, so it runs on any transport. */
function stdioOnly(server: ServerProfile, client: ClientProfile): boolean {
  return SERVER_PROFILE_INFO[server].emulated || (CLIENT_PROFILE_INFO[client].emulated && client !== 'strict-host');
}

/**
 * Null when the server and client can run on this revision and transport, else one line saying
 * why not: an implementation refuses the revisions it never supported.
 */
export function profileWhyNot(revision: Revision, transport: TransportKind, server: ServerProfile, client: ClientProfile): string | null {
  // The Go emulation's one HTTP part: how a 2026-07-28 server admits a notification POST (go-sdk #1212).
  if (server === 'go' && transport === 'streamable-http' && revision === '2026-07-28' && !CLIENT_PROFILE_INFO[client].emulated) return null;
  // The Go client emulation's one HTTP part, its cancel without _meta and its failure on the 400 (go-sdk #1212), against the real server or the Go one.
  if (client === 'go' && transport === 'streamable-http' && revision === '2026-07-28' && (server === 'go' || server === 'ts-v2')) return null;
  if (stdioOnly(server, client) && transport !== 'stdio') {
    return 'The SDK emulations wrap the stdio transport, where the reports they reproduce were made.';
  }
  if (revision === '2026-07-28') {
    if (server === 'ts-v1' || client === 'ts-v1') return TS_V1_NEWEST;
    if (server === 'py-v1' || client === 'py-v1') return PY_V1_NEWEST;
    if (server === 'py-v2') return 'The python-sdk 2.x emulation speaks the 2025-era protocol only.';
    if (client === 'strict-host') return 'The strict host emulation speaks the 2025-era protocol only.';
    if (client === 'py-v2') return 'The python-sdk 2.x client emulation speaks the 2025-era protocol only.';
    // go-sdk v1.7.0 lists 2026-07-28 (mcp/shared.go supportedProtocolVersions); the emulation around v2's stdio does not speak it.
    if (server === 'go') return 'The Go SDK server emulation speaks the 2025-era protocol on stdio; on 2026-07-28 it covers only Streamable HTTP’s admission of a notification POST.';
    if (client === 'go') return 'The Go SDK client emulation speaks the 2025-era protocol on stdio; on 2026-07-28 it covers only Streamable HTTP’s cancel without _meta and the failed connection after it.';
    if (server === 'effect' || client === 'rmcp' || client === 'codex') return 'The emulations of reported bugs (Effect-TS, rmcp, Codex) speak the 2025-era protocol only, as in their reports.';
  }
  if (server === 'ts-v1' && client === 'ts-v1' && revision !== '2025-11-25') return TS_V1_PAIR;
  return null;
}

/** Null when task-augmented calls can be made in this setting (2.4.0 serves no tasks), else why not. */
export function tasksWhyNot(s: Pick<Scenario, 'revision' | 'serverProfile' | 'clientProfile'>): string | null {
  if (s.revision === '2025-11-25' && s.serverProfile === 'ts-v1' && s.clientProfile === 'ts-v1') return null;
  return 'tasks run on 2025-11-25 with the real TypeScript SDK v1 on both sides (serverProfile and clientProfile "ts-v1"): v2 2.4.0 has no tasks';
}

/** Null when the transport works with the revision under at least one server shape. */
export function transportWhyNot(revision: Revision, transport: TransportKind): string | null {
  return transportReason(revision, transport, undefined);
}

/** Every combination the picker allows; the server shape only varies for 2025-era Streamable HTTP. */
export function allowedCombinations(): Combination[] {
  const out: Combination[] = [];
  for (const revision of REVISIONS) {
    for (const transport of TRANSPORTS) {
      const shapes: HttpServerShape[] =
        transport === 'streamable-http' && revision !== '2026-07-28' ? ['sessionful', 'stateless'] : [transport === 'streamable-http' ? 'stateless' : 'sessionful'];
      for (const httpServer of shapes) if (whyNot(revision, transport, httpServer) === null) out.push({ revision, transport, httpServer });
    }
  }
  return out;
}

/**
 * The server the workers really run on a combination: on stdio and HTTP+SSE one process or
 * endpoint; on Streamable HTTP the SDK's sessionful transport, or `createMcpHandler` (always on
 * 2026-07-28, whatever `httpServer` says, since that revision removed sessions).
 */
export type ServerShape = 'process' | 'sse-endpoint' | 'sessionful' | 'createMcpHandler';

export function serverShape(c: Pick<Combination, 'revision' | 'transport' | 'httpServer'>): ServerShape {
  if (c.transport === 'stdio') return 'process';
  if (c.transport === 'http-sse') return 'sse-endpoint';
  return c.revision !== '2026-07-28' && c.httpServer === 'sessionful' ? 'sessionful' : 'createMcpHandler';
}

const SHAPE_WORDS: Record<ServerShape, string | null> = {
  process: null,
  'sse-endpoint': null,
  sessionful: 'sessionful server',
  createMcpHandler: 'createMcpHandler server',
};

/**
 * The scenario's setting in one line, the one description every output uses: revision,
 * transport, the server shape the workers actually run, and any implementation but v2's (an
 * emulated one says so).
 */
export function settingLine(scenario: Scenario): string {
  const shape = serverShape(scenario);
  // The real v1 server has no createMcpHandler: stateless, it builds a server and transport per request.
  const words = shape === 'createMcpHandler' && scenario.serverProfile === 'ts-v1' ? 'stateless server: a server and transport per request' : SHAPE_WORDS[shape];
  const parts = [scenario.revision, TRANSPORT_LABEL[scenario.transport] + (words ? ` (${words})` : '')];
  const [server, client] = [scenario.serverProfile ?? 'ts-v2', scenario.clientProfile ?? 'ts-v2'];
  if (server !== 'ts-v2') parts.push(`server ${server}${SERVER_PROFILE_INFO[server].emulated ? ' (emulated)' : ''}`);
  if (client !== 'ts-v2') parts.push(`client ${client}${CLIENT_PROFILE_INFO[client].emulated ? ' (emulated)' : ''}`);
  const negotiation = scenario.negotiation;
  if (negotiation?.client) parts.push(`client supports ${negotiation.client.join(', ')}`);
  if (negotiation?.server) parts.push(`server supports ${negotiation.server.join(', ')}`);
  if (negotiation?.mode) parts.push(`${negotiation.mode} negotiation`);
  return parts.join(' · ');
}
