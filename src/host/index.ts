/** The host layer's public surface: the real client and server sides in Node worker threads, and a headless run of a scenario on them; the explorer's worker threads. */
export { createNodeSides, runHeadless, type NodeSides } from './node.ts';
export { startExploreWorker, type ExploreWorker } from './explore-worker.ts';
