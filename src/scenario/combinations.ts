/**
 * Which revision × transport × server shape the SDK can make, and why not when it cannot.
 * The picker reads this; so do the tests that walk every allowed combination.
 */
import { REVISIONS, TRANSPORTS, type HttpServerShape, type Revision, type TransportKind } from './model.ts';

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

/** How the client signals cancellation on a combination, per the spec and the SDK. */
export function cancelSignal(c: Combination): string {
  if (c.transport === 'streamable-http' && c.revision === '2026-07-28') return 'closes the request’s SSE response stream (no notification)';
  if (c.transport === 'streamable-http') return 'POSTs notifications/cancelled (202)';
  if (c.transport === 'http-sse') return 'POSTs notifications/cancelled to the endpoint (202)';
  return 'writes notifications/cancelled on stdin';
}
