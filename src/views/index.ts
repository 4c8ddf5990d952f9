/**
 * The views layer: what the panels, the runner and the embeds show, derived from a trace alone.
 * `deriveRunView(scenario, trace)` is the one derived view a page renders per paint; the parts
 * it is made of (wire rows and their cells, call views, the small logs) stay callable on their
 * own. The one description of each concept lives here too: finding labels, counts and badges,
 * the reproduction verdict, an embed's summary, and the connection's status line.
 */
export { connectionStatus, deriveRunView, runViewSteps, type ConnectionStatus, type RunView } from './run-view.ts';
export { wireRows, type WireRow } from './wire-rows.ts';
export { wireCells, type DeliveryState, type WireBadge, type WireCells } from './wire-cells.ts';
export { filterRows, methodCounts, NO_FILTER, rowMatcher, type WireFilter } from './wire-filter.ts';
export { callViews, type CallView, type NestedRequestView } from './call-views.ts';
export {
  connectionLog,
  ledger,
  negotiated,
  sideLogs,
  traceErrors,
  type ConnectionRow,
  type LedgerEntry,
  type LogLine,
  type Negotiated,
} from './derive.ts';
export {
  findingBadges,
  findingLabel,
  findingNotes,
  findingSummary,
  findingTone,
  isNotable,
  sortFindings,
  type FindingBadge,
  type FindingBucket,
  type FindingNote,
  type FindingSetting,
  type FindingSummary,
  type FindingTone,
} from './findings.ts';
export { reproduction, type RecordedRun, type ReproductionKind, type ReproductionVerdict } from './reproduction.ts';
export { embedSummary, setupRows, type EmbedLine, type EmbedSummary } from './embed-summary.ts';
export { statusLine } from './status-line.ts';
export {
  createTimelineBuilder,
  describeTimeline,
  timelineModel,
  type TimelineArrow,
  type TimelineBuilder,
  type TimelineFinding,
  type TimelineLane,
  type TimelineMark,
  type TimelineModel,
} from './timeline.ts';
