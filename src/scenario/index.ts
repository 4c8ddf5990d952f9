/**
 * The scenario layer's public surface: what decides a run and how it travels. The vocabulary
 * (revisions, transports, profiles) and the zod schema that types and validates a scenario
 * (links, files, the editor, the runner), its JSON Schema, permalinks stamped with the versions
 * that shape a run, the library of recorded scenarios, the tools with their argument schemas,
 * the emulated implementations, which combinations the SDK can make, and the one setting line.
 */
export { CLIENT_PROFILES, REVISIONS, SERVER_PROFILES, TRANSPORTS, TRANSPORT_LABEL } from './model.ts';
export type { ClientProfile, HttpServerShape, Revision, ServerProfile, TransportKind } from './model.ts';
export { INPUT_BOUNDS, defaultScenario, parseScenario, scenarioSchema, type ParseResult, type Scenario, type Step, type Trigger, type WireFault } from './schema.ts';
export { SCENARIO_SCHEMA_ID, scenarioJsonSchema } from './json-schema.ts';
export { MAX_LINK_LENGTH, decodeLink, permalinkOf, type DecodedLink, type LinkMeta } from './permalink.ts';
export { ENGINE_VERSION, SDK_VERSION } from './versions.ts';
export { LIBRARY, libraryEntry, type LibraryEntry, type LibrarySource } from './library.ts';
export { ON_CANCEL, TOOLS, argBounds, TOOL_INPUT, defaultArgs, validateToolArgs, type ToolArgsCheck, type ToolName, type ToolSpec } from './tools.ts';
export { clientMode, clientRevisions, negotiationWhyNot, pinnedRevision, serverRevisions, type Negotiation, type NegotiationSetting } from './negotiation.ts';
export { CLIENT_PROFILE_INFO, SERVER_PROFILE_INFO, type ProfileInfo } from './profiles.ts';
export { streamsWhyNot } from './streams.ts';
export { allowedCombinations, profileWhyNot, serverShape, settingLine, tasksWhyNot, transportWhyNot, whyNot, type Combination, type ServerShape } from './combinations.ts';
export {
  ASK_CAPABILITY,
  ASK_REQUESTS,
  DEFAULT_CLIENT_HANDLER,
  askWhyNot,
  capabilitiesOf,
  declaredHandlers,
  scenarioAskWhyNot,
  type AskRequest,
  type ClientHandler,
  type ClientHandlers,
  type HandledCapability,
} from './reverse.ts';
export { MAX_RANGE_VALUES, SCHEDULE_PATTERN, exploreSchema, formatSchedule, optionsWith, parseSchedule, rangeValues, stepOfKey, withSchedule, choicesOf, compareChoices, deviations, type ExploreSpace, type FrameRule, type MsRange, type ParsedSchedule } from './space.ts';
export { scenarioFromTrace, type FromTraceInput, type MadeScenario } from './from-trace.ts';
export { matchSummary, matchTraces, type MatchOptions, type MatchRow, type MatchStatus, type TraceMatch } from './from-trace-match.ts';
