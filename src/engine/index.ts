/**
 * The engine layer's public surface: `Run`, the coordinator a host drives (site/lib/live-driver,
 * src/host, src/cli), and the protocol between it and the two sides (the workers implement
 * `ClientSideApi` / `ServerSideApi`; site/lib/browser-sides and src/host wrap them as `Sides`).
 */
export { boundReached, EVENT_BOUND_MESSAGE, MAX_TRACE_EVENTS, Run, type RunUntilOptions, type Sides } from './run.ts';
export type { ClientAction, ClientSideApi, ServerAction, ServerSideApi, SideApi, SideConfig, SideOutput, StepResult } from './side-protocol.ts';
