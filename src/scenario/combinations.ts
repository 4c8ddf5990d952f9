/**
 * Which revision × transport × server shape the SDK can make, and why not when it cannot.
 * The picker reads this; so do the tests that walk every allowed combination.
 */
import { REVISIONS, TRANSPORTS, TRANSPORT_LABEL, type HttpServerShape, type Revision, type TransportKind } from './model.ts';
import type { Scenario } from './schema.ts';

export interface Combination {
  revision: Revision;
  transport: TransportKind;
  httpServer: HttpServerShape;
}

/** Null when allowed, else one line saying why the combination cannot be made. */
export function whyNot(revision: Revision, transport: TransportKind, httpServer: HttpServerShape = 'sessionful'): string | null {
  const modern = revision === '2026-07-28';
  if (transport === 'http-sse' && revision !== '2024-11-05') {
    return 'HTTP+SSE is the 2024-11-05 transport; 2025-03-26 replaced it with Streamable HTTP.';
  }
  if (transport === 'streamable-http' && revision === '2024-11-05') {
    return 'Streamable HTTP arrived in 2025-03-26; a 2024-11-05 client speaks HTTP+SSE.';
  }
  if (transport === 'streamable-http' && modern && httpServer === 'sessionful') {
    return '2026-07-28 removed sessions: the SDK serves it with createMcpHandler only.';
  }
  return null;
}

/** Null when the transport works with the revision under at least one server shape. */
export function transportWhyNot(revision: Revision, transport: TransportKind): string | null {
  const sessionful = whyNot(revision, transport, 'sessionful');
  return sessionful === null ? null : whyNot(revision, transport, 'stateless');
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
 * transport, the server shape the workers actually run, and any emulated implementation.
 */
export function settingLine(scenario: Scenario): string {
  const shape = SHAPE_WORDS[serverShape(scenario)];
  const parts = [scenario.revision, TRANSPORT_LABEL[scenario.transport] + (shape ? ` (${shape})` : '')];
  if (scenario.serverProfile && scenario.serverProfile !== 'ts-v2') parts.push(`server ${scenario.serverProfile} (emulated)`);
  if (scenario.clientProfile && scenario.clientProfile !== 'ts-v2') parts.push(`client ${scenario.clientProfile} (emulated)`);
  return parts.join(' · ');
}
