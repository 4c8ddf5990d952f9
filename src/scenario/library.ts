/**
 * The scenario library: the races, seeds and real-SDK surprises kept in content/scenarios/,
 * one JSON file each ({ id, title, summary, source, scenario, trace }), imported statically
 * so the same list works in the browser (gallery, playground) and in Node (tests, runner).
 * No DOM and no file system here.
 *
 * To add one: write content/scenarios/<id>.json with "trace": "", import it below and add it
 * to RAW, then `npm run record-library` fills in its trace hash (and rewrites the others').
 */
import { parseScenario } from './schema.ts';
import clientWritesAResponseOn2026Stdio from '../../content/scenarios/client-writes-a-response-on-2026-stdio.json' with { type: 'json' };
import forgedResponseOnAnotherRequestsStream from '../../content/scenarios/forged-response-on-another-requests-stream.json' with { type: 'json' };
import type { Scenario } from './schema.ts';
import progressAfterCancel2026Stdio from '../../content/scenarios/progress-after-cancel-2026-stdio.json' with { type: 'json' };
import progressOnAnotherRequestsStream from '../../content/scenarios/progress-on-another-requests-stream.json' with { type: 'json' };
import notificationWithAnId from '../../content/scenarios/notification-with-an-id.json' with { type: 'json' };
import { STREAMS_SCENARIOS } from './library-streams.ts';
import cancelInABatch20250326 from '../../content/scenarios/cancel-in-a-batch-2025-03-26.json' with { type: 'json' };
import cancelInABatch20251125 from '../../content/scenarios/cancel-in-a-batch-2025-11-25.json' with { type: 'json' };
import seed000StrictHostPythonV1 from '../../content/scenarios/seed-000-strict-host-python-v1.json' with { type: 'json' };
import seed004PythonV1SwallowedCancelCrash from '../../content/scenarios/seed-004-python-v1-swallowed-cancel-crash.json' with { type: 'json' };
import seed003Request7ModernHttpLateResponse from '../../content/scenarios/seed-003-request-7-modern-http-late-response.json' with { type: 'json' };
import seed003Request8StdioNotification from '../../content/scenarios/seed-003-request-8-stdio-notification.json' with { type: 'json' };
import seed003Request9StopAfterResponse from '../../content/scenarios/seed-003-request-9-stop-after-response.json' with { type: 'json' };
import raceR1CancelAfterResponse from '../../content/scenarios/race-r1-cancel-after-response.json' with { type: 'json' };
import raceR2ResponseCrossesCancel from '../../content/scenarios/race-r2-response-crosses-cancel.json' with { type: 'json' };
import raceR2StrictHostReconnects from '../../content/scenarios/race-r2-strict-host-reconnects.json' with { type: 'json' };
import raceR3DuplicateCancel from '../../content/scenarios/race-r3-duplicate-cancel.json' with { type: 'json' };
import raceR4CancelUnknownId from '../../content/scenarios/race-r4-cancel-unknown-id.json' with { type: 'json' };
import raceR5CancelInitialize from '../../content/scenarios/race-r5-cancel-initialize.json' with { type: 'json' };
import raceR6ProgressAfterCancel from '../../content/scenarios/race-r6-progress-after-cancel.json' with { type: 'json' };
import raceR7ServerCrashMidRequest from '../../content/scenarios/race-r7-server-crash-mid-request.json' with { type: 'json' };
import raceR7HttpDisconnectIsNotCancel from '../../content/scenarios/race-r7-http-disconnect-is-not-cancel.json' with { type: 'json' };
import raceR8Timeout from '../../content/scenarios/race-r8-timeout.json' with { type: 'json' };
import sdkStatelessHttpLosesCancel from '../../content/scenarios/sdk-stateless-http-loses-cancel.json' with { type: 'json' };
import sdkMaxTotalTimeoutWithoutCancel from '../../content/scenarios/sdk-max-total-timeout-without-cancel.json' with { type: 'json' };
import sdkTsV1ClientCancelsAnsweredId from '../../content/scenarios/sdk-ts-v1-client-cancels-answered-id.json' with { type: 'json' };
import sdkSessionfulHttpStreamLeftOpen from '../../content/scenarios/sdk-sessionful-http-stream-left-open.json' with { type: 'json' };
import sdkTsV1ServerIgnoresCancelOfId0 from '../../content/scenarios/sdk-ts-v1-server-ignores-cancel-of-id-0.json' with { type: 'json' };
import sdkTsV1MaxTotalTimeoutLateCancel from '../../content/scenarios/sdk-ts-v1-max-total-timeout-late-cancel.json' with { type: 'json' };
import taskCancelDoesNotStopTheWork from '../../content/scenarios/task-cancel-does-not-stop-the-work.json' with { type: 'json' };
import taskAnsweredWithAPlainResult from '../../content/scenarios/task-answered-with-a-plain-result.json' with { type: 'json' };
import taskResultAnsweredBeforeTheTaskEnds from '../../content/scenarios/task-result-answered-before-the-task-ends.json' with { type: 'json' };
import taskCompletesThenCancelIsRefused from '../../content/scenarios/task-completes-then-cancel-is-refused.json' with { type: 'json' };
import sdkTsV1TaskStopSendsNotificationsCancelled from '../../content/scenarios/sdk-ts-v1-task-stop-sends-notifications-cancelled.json' with { type: 'json' };
import stopAfterCommitIsNotRollback from '../../content/scenarios/stop-after-commit-is-not-rollback.json' with { type: 'json' };
import seed004PythonV2SurvivesSwallowedCancel from '../../content/scenarios/seed-004-python-v2-survives-swallowed-cancel.json' with { type: 'json' };
import sdkTsV2ConnectTimeoutSendsNoCancel from '../../content/scenarios/sdk-ts-v2-connect-timeout-sends-no-cancel.json' with { type: 'json' };
import pythonV1AnswersCancelWithCode0 from '../../content/scenarios/python-v1-answers-cancel-with-code-0.json' with { type: 'json' };
import pythonV1TwoCode0ResponsesForOneId from '../../content/scenarios/python-v1-two-code-0-responses-for-one-id.json' with { type: 'json' };
import invalidCancelStringIdTsV2Ignores from '../../content/scenarios/invalid-cancel-string-id-ts-v2-ignores.json' with { type: 'json' };
import invalidCancelStringIdPythonV2Coerces from '../../content/scenarios/invalid-cancel-string-id-python-v2-coerces.json' with { type: 'json' };
import stopWaitingOnlyPythonV1Client from '../../content/scenarios/stop-waiting-only-python-v1-client.json' with { type: 'json' };
import transport2024HttpSseCancelIsAPost from '../../content/scenarios/transport-2024-http-sse-cancel-is-a-post.json' with { type: 'json' };
import transport2026HttpCloseStreamIsCancel from '../../content/scenarios/transport-2026-http-close-stream-is-cancel.json' with { type: 'json' };
import timeoutResetOnProgressCompletes from '../../content/scenarios/timeout-reset-on-progress-completes.json' with { type: 'json' };
import timeoutPythonV1ClientSendsNoCancel from '../../content/scenarios/timeout-python-v1-client-sends-no-cancel.json' with { type: 'json' };
import timeout2026HttpClosesStream from '../../content/scenarios/timeout-2026-http-closes-stream.json' with { type: 'json' };
import timeoutMaxEnforcedWithAbort from '../../content/scenarios/timeout-max-enforced-with-abort.json' with { type: 'json' };
import retryAfterStopCommitsTwice from '../../content/scenarios/retry-after-stop-commits-twice.json' with { type: 'json' };
import stopPressedTwice from '../../content/scenarios/stop-pressed-twice.json' with { type: 'json' };
import secondResponseForAnAnsweredCall from '../../content/scenarios/second-response-for-an-answered-call.json' with { type: 'json' };
import serverKilledWhileHandlerIgnoresCancel from '../../content/scenarios/server-killed-while-handler-ignores-cancel.json' with { type: 'json' };
import pythonV1KilledAfterItsCode0Answer from '../../content/scenarios/python-v1-killed-after-its-code-0-answer.json' with { type: 'json' };
import serverDiesDuringTheHandshake from '../../content/scenarios/server-dies-during-the-handshake.json' with { type: 'json' };
import forgedErrorRefusesTheHandshake from '../../content/scenarios/forged-error-refuses-the-handshake.json' with { type: 'json' };
import serverKilledAfterTheClientDisconnected from '../../content/scenarios/server-killed-after-the-client-disconnected.json' with { type: 'json' };
import contentType2026AnswerLabelledTextPlain from '../../content/scenarios/content-type-2026-answer-labelled-text-plain.json' with { type: 'json' };
import strictHostHttpSseReconnectsOnUnknownIds from '../../content/scenarios/strict-host-http-sse-reconnects-on-unknown-ids.json' with { type: 'json' };
import serverDiesRightAfterAnsweringInitialize from '../../content/scenarios/server-dies-right-after-answering-initialize.json' with { type: 'json' };
import serverCancelsItsElicitation from '../../content/scenarios/server-cancels-its-elicitation.json' with { type: 'json' };
import clientHandlerIgnoresServerCancel from '../../content/scenarios/client-handler-ignores-server-cancel.json' with { type: 'json' };
import stopWhileElicitationPending from '../../content/scenarios/stop-while-elicitation-pending.json' with { type: 'json' };
import lateClientAnswerAfterServerCancel from '../../content/scenarios/late-client-answer-after-server-cancel.json' with { type: 'json' };
import pingBothWays from '../../content/scenarios/ping-both-ways.json' with { type: 'json' };
import forgedCancelWithoutRequestId from '../../content/scenarios/forged-cancel-without-request-id.json' with { type: 'json' };
import forgedRequestReusesAnInFlightId from '../../content/scenarios/forged-request-reuses-an-in-flight-id.json' with { type: 'json' };
import forgedRequestWithId0 from '../../content/scenarios/forged-request-with-id-0.json' with { type: 'json' };
import forgedRequestWithAStringId from '../../content/scenarios/forged-request-with-a-string-id.json' with { type: 'json' };
import stopBeforeTheWire from '../../content/scenarios/stop-before-the-wire.json' with { type: 'json' };
import negotiationServerAnswersAnOlderClient from '../../content/scenarios/negotiation-server-answers-an-older-client.json' with { type: 'json' };
import negotiationClientRefusesTheCounterOffer from '../../content/scenarios/negotiation-client-refuses-the-counter-offer.json' with { type: 'json' };
import negotiationPinnedClientRefused from '../../content/scenarios/negotiation-pinned-client-refused.json' with { type: 'json' };
import negotiationAutoFallsBackToInitialize from '../../content/scenarios/negotiation-auto-falls-back-to-initialize.json' with { type: 'json' };
import goSdk1235CancelledRequestStillAnswered from '../../content/scenarios/go-sdk-1235-cancelled-request-still-answered.json' with { type: 'json' };
import pythonV2ClientCancelsOnStopAndTimeout from '../../content/scenarios/python-v2-client-cancels-on-stop-and-timeout.json' with { type: 'json' };
import tsSdk2165StopReportedAsRequestTimeout from '../../content/scenarios/ts-sdk-2165-stop-reported-as-request-timeout.json' with { type: 'json' };
import tsSdk2580ProgressAfterTheResponse from '../../content/scenarios/ts-sdk-2580-progress-after-the-response.json' with { type: 'json' };
import effect7131StaleCancelSilencesALaterRequest from '../../content/scenarios/effect-7131-stale-cancel-silences-a-later-request.json' with { type: 'json' };
import rustSdk1251ServerCancelRemovesAClientWaiter from '../../content/scenarios/rust-sdk-1251-server-cancel-removes-a-client-waiter.json' with { type: 'json' };
import codex40390CancelledElicitationHidesTheResult from '../../content/scenarios/codex-40390-cancelled-elicitation-hides-the-result.json' with { type: 'json' };
import goSdk1212CancelWithoutMetaRefusedWith400 from '../../content/scenarios/go-sdk-1212-cancel-without-meta-refused-with-400.json' with { type: 'json' };
import goSdk1212GoClientFailsItsConnectionAfterThe400 from '../../content/scenarios/go-sdk-1212-go-client-fails-its-connection-after-the-400.json' with { type: 'json' };

/** Where the scenario comes from: a seed file, a spec section or an sdk-behaviors.md section. */
export interface LibrarySource {
  label: string;
  url?: string;
}

export interface LibraryEntry {
  /** The file name without `.json`; unique. */
  id: string;
  title: string;
  /** One paragraph of plain text: what happens, and how the scenario expresses it. */
  summary: string;
  source: LibrarySource;
  readonly scenario: Scenario;
  /** traceHash() of its run, recorded by `npm run record-library`. */
  trace: string;
  /** The MUST / SHOULD rules its run breaks (checker findings violated, not info), recorded with the hash. */
  violates: readonly string[];
}

/** In gallery order: the seeds, the spec races R1–R8, the real-SDK surprises, then the lessons' own scenarios. */
const RAW: readonly unknown[] = [
  seed000StrictHostPythonV1,
  seed004PythonV1SwallowedCancelCrash,
  seed004PythonV2SurvivesSwallowedCancel,
  seed003Request7ModernHttpLateResponse,
  seed003Request8StdioNotification,
  seed003Request9StopAfterResponse,
  raceR1CancelAfterResponse,
  raceR2ResponseCrossesCancel,
  raceR2StrictHostReconnects,
  raceR3DuplicateCancel,
  raceR4CancelUnknownId,
  raceR5CancelInitialize,
  raceR6ProgressAfterCancel,
  raceR7ServerCrashMidRequest,
  raceR7HttpDisconnectIsNotCancel,
  raceR8Timeout,
  sdkStatelessHttpLosesCancel,
  sdkMaxTotalTimeoutWithoutCancel,
  sdkTsV1ClientCancelsAnsweredId,
  sdkSessionfulHttpStreamLeftOpen,
  sdkTsV1ServerIgnoresCancelOfId0,
  sdkTsV1MaxTotalTimeoutLateCancel,
  taskCancelDoesNotStopTheWork,
  taskAnsweredWithAPlainResult,
  taskResultAnsweredBeforeTheTaskEnds,
  taskCompletesThenCancelIsRefused,
  sdkTsV1TaskStopSendsNotificationsCancelled,
  sdkTsV2ConnectTimeoutSendsNoCancel,
  pythonV1AnswersCancelWithCode0,
  pythonV1TwoCode0ResponsesForOneId,
  invalidCancelStringIdTsV2Ignores,
  invalidCancelStringIdPythonV2Coerces,
  stopWaitingOnlyPythonV1Client,
  transport2024HttpSseCancelIsAPost,
  transport2026HttpCloseStreamIsCancel,
  timeoutResetOnProgressCompletes,
  timeoutPythonV1ClientSendsNoCancel,
  timeout2026HttpClosesStream,
  timeoutMaxEnforcedWithAbort,
  retryAfterStopCommitsTwice,
  stopAfterCommitIsNotRollback,
  stopPressedTwice,
  secondResponseForAnAnsweredCall,
  serverKilledWhileHandlerIgnoresCancel,
  pythonV1KilledAfterItsCode0Answer,
  serverDiesDuringTheHandshake,
  forgedErrorRefusesTheHandshake,
  serverKilledAfterTheClientDisconnected,
  contentType2026AnswerLabelledTextPlain,
  strictHostHttpSseReconnectsOnUnknownIds,
  serverDiesRightAfterAnsweringInitialize,
  clientWritesAResponseOn2026Stdio,
  forgedResponseOnAnotherRequestsStream,
  notificationWithAnId,
  cancelInABatch20250326,
  cancelInABatch20251125,
  progressAfterCancel2026Stdio,
  progressOnAnotherRequestsStream,
  serverCancelsItsElicitation,
  clientHandlerIgnoresServerCancel,
  stopWhileElicitationPending,
  lateClientAnswerAfterServerCancel,
  pingBothWays,
  forgedCancelWithoutRequestId,
  forgedRequestReusesAnInFlightId,
  forgedRequestWithId0,
  forgedRequestWithAStringId,
  stopBeforeTheWire,
  negotiationServerAnswersAnOlderClient,
  negotiationClientRefusesTheCounterOffer,
  negotiationPinnedClientRefused,
  negotiationAutoFallsBackToInitialize,
  goSdk1235CancelledRequestStillAnswered,
  pythonV2ClientCancelsOnStopAndTimeout,
  tsSdk2165StopReportedAsRequestTimeout,
  tsSdk2580ProgressAfterTheResponse,
  effect7131StaleCancelSilencesALaterRequest,
  rustSdk1251ServerCancelRemovesAClientWaiter,
  codex40390CancelledElicitationHidesTheResult,
  goSdk1212CancelWithoutMetaRefusedWith400,
  goSdk1212GoClientFailsItsConnectionAfterThe400,
  ...STREAMS_SCENARIOS,
];

function text(record: Record<string, unknown>, key: string, where: string): string {
  const value = record[key];
  if (typeof value !== 'string') throw new Error(`${where}: "${key}" should be a string`);
  return value;
}

/** A file's scenario through the schema; a broken one is a build error (the library test catches it first). */
function scenarioOf(raw: unknown, where: string): Scenario {
  const parsed = parseScenario(raw);
  if (!parsed.ok) throw new Error(`${where}: invalid scenario: ${parsed.errors.join('; ')}`);
  return parsed.scenario;
}

/**
 * Checks one file's shape. Its scenario goes through the schema when it is first read, not as
 * the module loads: the playground and the workers load the library with the scenario layer but
 * open at most one of its scenarios, and validating them all cost every page load tens of ms.
 */
function toEntry(raw: unknown, index: number): LibraryEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`library entry ${index} is not an object`);
  const record = raw as Record<string, unknown>;
  const id = text(record, 'id', `library entry ${index}`);
  const where = `content/scenarios/${id}.json`;
  const source = record.source as Record<string, unknown> | null | undefined;
  if (source === null || typeof source !== 'object') throw new Error(`${where}: "source" should be an object`);
  const url = source.url;
  if (url !== undefined && typeof url !== 'string') throw new Error(`${where}: "source.url" should be a string`);
  let scenario: Scenario | undefined;
  return {
    id,
    title: text(record, 'title', where),
    summary: text(record, 'summary', where),
    source: { label: text(source, 'label', `${where} source`), ...(url !== undefined && { url }) },
    get scenario() {
      return (scenario ??= scenarioOf(record.scenario, where));
    },
    trace: text(record, 'trace', where),
    violates: Array.isArray(record.violates) ? record.violates.filter((r): r is string => typeof r === 'string') : [],
  };
}

// Pure: a bundle that never reads the library (the workers, a page without a gallery) drops
// it, files and all, instead of validating every scenario in it as the bundle loads.
export const LIBRARY: readonly LibraryEntry[] = /* @__PURE__ */ RAW.map(toEntry);

export function libraryEntry(id: string): LibraryEntry | undefined {
  return LIBRARY.find((entry) => entry.id === id);
}
