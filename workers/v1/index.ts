// The v1 SDK's two sides, imported together when a scenario asks for either: with both sides in
// one browser worker, one chunk for both keeps the v1 SDK's shared code out of the worker's start.
export { v1ClientSide } from './client-v1.ts';
export { v1ServerSide } from './server-v1.ts';
