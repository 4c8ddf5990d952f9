/**
 * "Make a scenario from this trace": a lab scenario that reproduces an imported exchange, so a
 * reporter's log becomes a permalink a maintainer can replay. The setting comes from the trace
 * (the revision and transport it shows or the user named, the latency each way and the delays
 * that give an answer its own time (from-trace-timing.ts), the closest server and client
 * profiles); the steps are the client's calls, Stops and timeouts at their recorded times, with
 * the lab's tools standing in for the server's and forged frames for what no profile writes
 * (from-trace-steps.ts).
 *
 * A lab trace (the playground's own Download trace) records the user's actions and each frame's
 * delivery time, so its scenario is read off it exactly: the same run, the same trace hash.
 *
 * Pure: `matchTraces` (from-trace-match.ts) then says, frame by frame, how close the run came.
 */
import { indexTrace, isObject, type FrameEvent, type TraceEvent, type TraceIndex } from '../trace/index.ts';
import { CLIENT_PROFILES, SERVER_PROFILES, type ClientProfile, type HttpServerShape, type Revision, type ServerProfile, type TransportKind } from './model.ts';
import { parseScenario, type Scenario } from './schema.ts';
import { streamsWhyNot } from './streams.ts';
import { clientFingerprint, connectTimeoutOf, observedClientHandlers, observedSteps, serverFingerprint } from './from-trace-steps.ts';
import { DEFAULT_LATENCY, labClientHandlers, labFaults, labLatency, labSteps, resumableOf } from './from-trace-lab.ts';
import { negotiationOf } from './from-trace-negotiation.ts';
import { answerDelays, cancelDelays, keptFaults, observedTiming, seenAtClient } from './from-trace-timing.ts';

export interface FromTraceInput {
  trace: readonly TraceEvent[];
  revision: Revision;
  transport: TransportKind;
  /** The trace's index, when the caller has it (a shown import's view does): a long trace is not indexed again. */
  index?: TraceIndex;
}

export type MadeScenario =
  | {
      ok: true;
      scenario: Scenario;
      /** How each part was read off the trace, and what the lab cannot express, one sentence each. */
      notes: string[];
    }
  | { ok: false; error: string };

/** Stateless when no response head carries a session id (createMcpHandler's 2025 default). */
function httpServerOf(frames: readonly FrameEvent[]): HttpServerShape {
  return frames.some((f) => f.http?.part === 'response-head' && f.http.headers?.['mcp-session-id'] !== undefined) ? 'sessionful' : 'stateless';
}

const isServerProfile = (name: string): name is ServerProfile => SERVER_PROFILES.some((p) => p === name);
const isClientProfile = (name: string): name is ClientProfile => CLIENT_PROFILES.some((p) => p === name);

/**
 * The profiles a trace shows: an emulation names itself in a lab trace's notes, on its own side
 * (python-sdk's clients as "py-v1-client" and "py-v2-client"); the TypeScript SDK v1 client
 * writes `notifications/initialized` with "method" first and its server declares the tasks
 * capability; a strict host reconnects by itself (a reconnect no user asked for) and starts a
 * new session on an HTTP 404.
 */
function profilesOf(trace: readonly TraceEvent[], idx: TraceIndex): { server?: ServerProfile; client?: ClientProfile } {
  const out: { server?: ServerProfile; client?: ClientProfile } = {};
  let asked = -1;
  for (const e of trace) {
    if (e.kind === 'user-action' && e.action.type === 'reconnect') asked = e.t;
    if (e.kind !== 'handler') continue;
    if ((e.note.type === 'reconnect-requested' && e.t !== asked) || e.note.type === 'new-session-requested') out.client = 'strict-host';
    if (e.note.type !== 'emulation') continue;
    const name = e.side === 'client' ? e.note.profile.replace(/-client$/, '') : e.note.profile;
    if (e.side === 'server' && isServerProfile(name)) out.server = name;
    if (e.side === 'client' && isClientProfile(name)) out.client = name;
  }
  const initialized = idx.frames.find((f) => f.dir === 'c2s' && f.msg?.method === 'notifications/initialized');
  if (out.client === undefined && initialized && /^\{"method":/.test(initialized.raw.slice(initialized.raw.indexOf('{')))) out.client = 'ts-v1';
  const answer = idx.requests.find((r) => r.method === 'initialize')?.responses[0]?.msg.result;
  if (out.server === undefined && isObject(answer) && isObject(answer.capabilities) && answer.capabilities.tasks !== undefined) out.server = 'ts-v1';
  return out;
}

/** The run's end: past the trace's last event, on a whole second, so what the log shows has room to happen. */
function endOf(trace: readonly TraceEvent[]): number {
  const last = trace.at(-1)?.t ?? 0;
  return Math.ceil((last + 500) / 1000) * 1000;
}

type Setting = Pick<Scenario, 'version' | 'revision' | 'transport' | 'httpServer' | 'negotiation' | 'resumable'>;

/**
 * The setting: the revision and transport given (the revision the client offered instead, when
 * it refused the given one), the server's shape, the negotiation the handshake shows and
 * whether the server's streams resume.
 */
function settingOf(input: FromTraceInput, idx: TraceIndex, who: { server?: ServerProfile | undefined; client?: ClientProfile | undefined }): { setting: Setting; notes: string[] } {
  const read = negotiationOf(idx, { revision: input.revision, clientProfile: who.client, serverProfile: who.server });
  const revision = read.revision;
  const httpServer = input.transport === 'streamable-http' && revision !== '2026-07-28' ? httpServerOf(idx.frames) : 'sessionful';
  const resumable = resumableOf(idx.frames);
  const streams = streamsWhyNot({ revision, transport: input.transport, httpServer, serverProfile: who.server });
  const retry = resumable?.retryMs !== undefined ? `, and its priming events "retry: ${resumable.retryMs}"` : '';
  const notes = [
    ...(read.note ? [read.note] : []),
    ...(resumable ? [streams === null ? `The server's SSE events carry ids${retry}: a resumable server (it keeps an event store).` : `The server's SSE events carry ids, but a resumable server ${streams}: the lab's server keeps no event store.`] : []),
  ];
  const setting = { version: 1 as const, revision, transport: input.transport, httpServer, ...(read.negotiation && { negotiation: read.negotiation }), ...(resumable && streams === null && { resumable }) };
  return { setting, notes };
}

function labScenario(input: FromTraceInput, idx: TraceIndex): MadeScenario {
  const latency = labLatency(idx.frames) ?? { c2s: DEFAULT_LATENCY, s2c: DEFAULT_LATENCY };
  const steps = labSteps(input.trace, idx);
  const faults = labFaults(idx, latency);
  const who = profilesOf(input.trace, idx);
  // The v2 client cancels nothing on a connect timeout: its onerror says the connect timed out.
  const failed = input.trace.find((e) => e.kind === 'handler' && e.note.type === 'client-onerror' && /^connect failed: .*timed out/i.test(e.note.message));
  const connectTimeoutMs = connectTimeoutOf(idx) ?? failed?.t;
  const clientHandlers = labClientHandlers(input.trace);
  // Only the TypeScript SDK v1 client cancels initialize when its connect times out.
  const clientProfile = who.client ?? (connectTimeoutOf(idx) !== undefined ? 'ts-v1' : undefined);
  const { setting, notes: settingNotes } = settingOf(input, idx, { server: who.server, client: clientProfile });
  const scenario = {
    ...setting,
    latency,
    ...(who.server && { serverProfile: who.server }),
    ...(clientProfile && { clientProfile }),
    ...(connectTimeoutMs !== undefined && { connectTimeoutMs }),
    ...(clientHandlers && { clientHandlers }),
    ...(faults.length > 0 && { faults }),
    steps,
    // The recorded run had nothing after its last event, so ending there gives the same trace.
    endAt: input.trace.at(-1)?.t ?? 0,
  };
  const notes = [
    `A lab trace: its ${steps.length} user actions replayed at their times, with the latency its frames were delivered with (${latency.c2s} ms / ${latency.s2c} ms).`,
    ...(who.server || clientProfile ? [`The profiles read off the trace: server ${who.server ?? 'ts-v2'}, client ${clientProfile ?? 'ts-v2'}.`] : []),
    ...settingNotes,
    ...(faults.length > 0 ? [`${faults.length} wire faults read off the frames they dropped, delayed or copied.`] : []),
  ];
  return checked(scenario, notes);
}

function checked(candidate: unknown, notes: string[]): MadeScenario {
  const parsed = parseScenario(candidate);
  if (!parsed.ok) return { ok: false, error: `The scenario made from this trace is not valid: ${parsed.errors.slice(0, 3).join('; ')}.` };
  return { ok: true, scenario: parsed.scenario, notes };
}

/** What the server's answers to cancelled requests show of it, in a sentence. */
function serverNote(serverProfile: ServerProfile, named: string | null): string {
  if (serverProfile === 'py-v1') return 'The server answers a cancelled request with the code-0 error python-sdk 1.x writes: the server is python-sdk 1.x (emulated).';
  if (serverProfile === 'go') return 'The server answers a cancelled request with the Go SDK\'s isError result "context canceled": the server is the Go SDK (emulated).';
  if (serverProfile === 'ts-v1') return 'The server declares the tasks capability, as the TypeScript SDK v1 server does: the server is the TypeScript SDK v1.';
  return `The server as the TypeScript SDK v2${named ? ` (the log's server calls itself "${named}")` : ''}: it never answers a cancelled request.`;
}

/** The scenario that reproduces the trace as closely as the lab can, with notes on how. */
export function scenarioFromTrace(input: FromTraceInput): MadeScenario {
  const idx = input.index ?? indexTrace(input.trace);
  if (!idx.outside) return labScenario(input, idx);
  const who = profilesOf(input.trace, idx);
  const serverProfile: ServerProfile = serverFingerprint(idx) ?? who.server ?? 'ts-v2';
  const clientProfile: ClientProfile | undefined = connectTimeoutOf(idx) !== undefined ? 'ts-v1' : (who.client ?? clientFingerprint(idx));
  const { setting, notes: settingNotes } = settingOf(input, idx, { server: serverProfile, client: clientProfile });
  const endAt = endOf(input.trace);
  const streams = streamsWhyNot({ ...setting, serverProfile }) === null;
  const atClient = seenAtClient(input.trace);
  const timing = observedTiming(idx, input.trace, connectTimeoutOf(idx));
  const latency = timing.latency;
  const observed = observedSteps(idx, latency, endAt, { server: serverProfile, streams, atClient });
  const delays = answerDelays(observed.own, latency, atClient);
  const held = cancelDelays(observed.own, observed.sent, atClient);
  const { faults, notes: faultNotes } = keptFaults([...timing.faults, ...delays.faults, ...held.faults]);
  const MAX_STEPS = 2000;
  const steps = observed.steps.slice(0, MAX_STEPS);
  // At the client a server request's time is its arrival: the handler's time runs from then.
  const asked = observedClientHandlers(idx, atClient ? 0 : latency.s2c, endAt);
  const serverName = idx.requests.find((r) => r.method === 'initialize')?.responses[0]?.msg.result;
  const named = isObject(serverName) && isObject(serverName.serverInfo) ? String(serverName.serverInfo.name) : null;
  const notes = [
    `The setting: ${setting.revision} on ${setting.transport}${setting.transport === 'streamable-http' ? ` (${setting.httpServer})` : ''}; latency ${latency.c2s} ms client → server and ${latency.s2c} ms back, ${timing.how}.`,
    ...timing.notes,
    ...settingNotes,
    serverNote(serverProfile, named),
    ...(clientProfile === 'ts-v1' ? ['The client as the TypeScript SDK v1 (it cancels initialize on a connect timeout, or writes notifications/initialized with "method" first as v1 does).'] : []),
    ...(clientProfile === 'strict-host' ? ['The client as the strict host (emulated): it starts a new session after an HTTP 404, as the log\'s client does.'] : []),
    ...(clientProfile === 'py-v2' ? ['The client as python-sdk 2.x (emulated): its cancels give the reasons 2.x writes ("caller cancelled", "timed out after …s").'] : []),
    ...observed.notes,
    ...delays.notes,
    ...held.notes,
    ...faultNotes,
    ...asked.notes,
    ...(observed.steps.length > MAX_STEPS ? [`The log needs ${observed.steps.length} steps; a scenario holds ${MAX_STEPS}, so it stops at t = ${steps.at(-1)?.at ?? 0} ms.`] : []),
  ];
  const scenario = {
    ...setting,
    latency,
    ...(serverProfile !== 'ts-v2' && { serverProfile }),
    ...(clientProfile && { clientProfile }),
    ...(observed.connectTimeoutMs !== undefined && { connectTimeoutMs: observed.connectTimeoutMs }),
    ...(asked.handlers && { clientHandlers: asked.handlers }),
    ...(faults.length > 0 && { faults }),
    steps,
    endAt: observed.steps.length > MAX_STEPS ? (steps.at(-1)?.at ?? 0) + 1000 : endAt,
  };
  return checked(scenario, notes);
}
