/**
 * The engine layer's public surface: `Run`, the coordinator a host drives (site/lib/live-driver,
 * src/host, src/cli), and the protocol between it and the two sides (the workers implement
 * `ClientSideApi` / `ServerSideApi`; site/lib/browser-sides and src/host wrap them as `Sides`).
 */
export { Run, type RunOptions, type RunUntilOptions, type Sides } from './run.ts';
export { replaying, type Chooser, type Decision, type DecisionKind } from './schedule.ts';
export { boundReached, EVENT_BOUND_MESSAGE, haltOf, MAX_STEPS, MAX_TRACE_EVENTS, MAX_VIRTUAL_MS, SIDE_STEP_TIMEOUT_MS, type HaltReason, type RunHalt } from './bounds.ts';
export { wallTimers } from './wall-clock.ts';
export { wrapSteps, type BatchPlan, type BatchStep, type ClientAction, type ClientSideApi, type ServerAction, type ServerSideApi, type SideApi, type SideConfig, type SideOutput, type StepResult } from './side-protocol.ts';
