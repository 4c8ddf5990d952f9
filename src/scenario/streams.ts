/**
 * Streams that resume and sessions that expire (issue 15 §4): the scenario's `resumable`
 * setting and the steps that make the server close a request's SSE stream (`close-stream`) or
 * forget the session (`expire-session`). All three need what only the real v2 server over
 * sessionful Streamable HTTP has: sessions, SSE streams per request, and an event store.
 */
import * as z from 'zod/v4';
import { msSchema } from '../trace/index.ts';
import { serverShape } from './combinations.ts';
import type { ReferenceProblem } from './references.ts';
import type { Revision, ServerProfile, TransportKind } from './model.ts';
import type { UserAction } from '../trace/index.ts';

/**
 * The server keeps an event store: its SSE events carry ids and a GET with `Last-Event-ID`
 * replays what the client missed; on 2025-11-25 each POST stream starts with a priming event,
 * with `retry: retryMs` when set (the client waits that long before it reconnects).
 */
export const resumableSchema = z.strictObject({ retryMs: msSchema.max(60_000).optional() });

interface StreamsScenario {
  revision: Revision;
  transport: TransportKind;
  httpServer: 'sessionful' | 'stateless';
  serverProfile?: ServerProfile | undefined;
  resumable?: unknown;
  steps: readonly { action: UserAction }[];
}

const STREAMS_STEPS = new Set<UserAction['type']>(['close-stream', 'expire-session']);

/** Why the scenario's server cannot take a streams step or setting (it is not the real v2 server over sessionful Streamable HTTP), or null. */
export function streamsWhyNot(s: Omit<StreamsScenario, 'steps'>): string | null {
  if (serverShape(s) !== 'sessionful') {
    return s.transport === 'streamable-http' && s.revision === '2026-07-28'
      ? 'needs a revision before 2026-07-28, which has no sessions and no resumable streams'
      : 'needs sessionful Streamable HTTP ("transport": "streamable-http", "httpServer": "sessionful", a revision before 2026-07-28)';
  }
  if ((s.serverProfile ?? 'ts-v2') !== 'ts-v2') return 'needs the real TypeScript SDK v2 server ("serverProfile": "ts-v2")';
  return null;
}

/** Every streams step or setting the scenario's server cannot take, and every close-stream naming a call no step makes. */
export function streamsProblems(s: StreamsScenario): ReferenceProblem[] {
  const why = streamsWhyNot(s);
  const problems: ReferenceProblem[] = [];
  if (why !== null && s.resumable !== undefined) problems.push({ path: ['resumable'], message: `a resumable server ${why}` });
  const made = new Set(s.steps.flatMap(({ action }) => (action.type === 'call' ? [action.call] : [])));
  s.steps.forEach(({ action }, index) => {
    if (!STREAMS_STEPS.has(action.type)) return;
    if (why !== null) problems.push({ path: ['steps', index, 'action', 'type'], message: `${action.type} ${why}` });
    else if (action.type === 'close-stream' && !made.has(action.call)) {
      problems.push({ path: ['steps', index, 'action', 'call'], message: `close-stream names call "${action.call}", which no "call" step makes` });
    }
  });
  return problems;
}
