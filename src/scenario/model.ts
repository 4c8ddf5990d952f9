/**
 * A scenario is everything that decides a run. A run is a pure function of it: the same
 * scenario gives the same trace, frame for frame and virtual millisecond for millisecond.
 */
import type { UserAction } from '../trace/index.ts';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

export const TRANSPORTS = ['stdio', 'http-sse', 'streamable-http'] as const;
export type TransportKind = (typeof TRANSPORTS)[number];

export const TRANSPORT_LABEL: Record<TransportKind, string> = {
  stdio: 'stdio',
  'http-sse': 'HTTP+SSE',
  'streamable-http': 'Streamable HTTP',
};

/**
 * The TypeScript SDK's two ways to serve a 2025-era client over Streamable HTTP: one
 * long-lived transport with sessions, or `createMcpHandler`'s default of a fresh server per POST.
 */
export type HttpServerShape = 'sessionful' | 'stateless';

/** Whose server runs: the real TypeScript SDK v2, or an emulation of another implementation around it. */
export const SERVER_PROFILES = ['ts-v2', 'py-v1', 'py-v2', 'ts-v1'] as const;
export type ServerProfile = (typeof SERVER_PROFILES)[number];

/** Whose client runs: the real TypeScript SDK v2, or an emulated host or SDK around it. */
export const CLIENT_PROFILES = ['ts-v2', 'strict-host', 'py-v1', 'ts-v1'] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];

/**
 * A standing fault on the wire: frames in one direction that match (by method, and by which
 * match it is, 1-based) are dropped, delayed, or duplicated when written.
 */
export interface WireFault {
  dir: 'c2s' | 's2c';
  action: 'drop' | 'delay' | 'duplicate';
  /** A JSON-RPC method, or 'response' for responses; any frame when absent. */
  match?: string;
  /** Only the nth matching frame (1-based); every matching frame when absent. */
  nth?: number;
  /** For 'delay'. */
  ms?: number;
}

/**
 * "After the server sends progress 2 for call A": a step can wait for the nth frame written with
 * a method (or 'response'), in a direction, for a call (its request id, the id it cancels, or its
 * progress token).
 */
export interface Trigger {
  method: string;
  dir?: 'c2s' | 's2c';
  call?: string;
  /** Which matching frame (1-based); the first when absent. */
  nth?: number;
}

export interface Step {
  /** Virtual time in ms at which the user acts; with `after`, ms after the triggering frame. */
  at: number;
  after?: Trigger;
  action: UserAction;
}

export interface Scenario {
  version: 1;
  revision: Revision;
  transport: TransportKind;
  /** Only read for Streamable HTTP on a 2025-era revision. */
  httpServer: HttpServerShape;
  /** One-way latency per direction, in virtual ms. */
  latency: { c2s: number; s2c: number };
  serverProfile?: ServerProfile;
  clientProfile?: ClientProfile;
  /** The client's timeout for `connect` (the initialize handshake); the SDK's 60 s default when absent. */
  connectTimeoutMs?: number;
  faults?: WireFault[];
  steps: Step[];
  /** The run stops at this virtual time even if timers are still pending (the SDK's 60 s request timeout, say). */
  endAt: number;
}

export function defaultScenario(): Scenario {
  return { version: 1, revision: '2025-11-25', transport: 'stdio', httpServer: 'sessionful', latency: { c2s: 5, s2c: 5 }, steps: [], endAt: 10_000 };
}
