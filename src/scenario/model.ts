/**
 * The vocabulary of a scenario: revisions, transports, server shapes, profiles. A scenario is
 * everything that decides a run (the same scenario gives the same trace, frame for frame and
 * virtual millisecond for millisecond); its type is inferred from the zod schema (schema.ts).
 */
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
export const HTTP_SERVER_SHAPES = ['sessionful', 'stateless'] as const;
export type HttpServerShape = (typeof HTTP_SERVER_SHAPES)[number];

/** Whose server runs: the real TypeScript SDK v2 or v1, or an emulation of another implementation around v2. */
export const SERVER_PROFILES = ['ts-v2', 'py-v1', 'py-v2', 'ts-v1', 'go', 'effect'] as const;
export type ServerProfile = (typeof SERVER_PROFILES)[number];

/** Whose client runs: the real TypeScript SDK v2 or v1, or an emulated host or SDK around v2. */
export const CLIENT_PROFILES = ['ts-v2', 'strict-host', 'py-v1', 'ts-v1', 'py-v2', 'rmcp', 'codex', 'go'] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];
