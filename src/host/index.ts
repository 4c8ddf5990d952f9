/** The host layer's public surface: the real client and server sides in Node worker threads, and a headless run of a scenario on them. */
export { createNodeSides, runHeadless, type NodeSides } from './node.ts';
