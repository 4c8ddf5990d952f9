/**
 * Benchmark (npm run bench): prints figures, asserts nothing.
 *
 * Standard scenario: revision 2025-11-25, stdio, latency 5/5 ms, initialize, slow_count
 * {steps:5, stepMs:100} called at t=20, Stop at t=240 (right after the 2nd progress arrives, at 230).
 *
 *   1. headless run time on warm sides (one createNodeSides() pair reused: both sides in this
 *      thread, as the command line and the browser's worker hold them; and a worker-thread pair,
 *      as a second pair at once or a site build's embeds get them), and cold: a fresh process's
 *      first pair, of worker threads (their start-up included, teardown not; next to an empty
 *      pair of threads) and in its thread, each from the source and from the CLI bundle
 *      (scripts/bench-speed.ts);
 *   2. frames per second the engine handles (frames in the trace / warm median run time), the
 *      checker judging a run near the event bound (benchChecker), and the live figure's 2,000
 *      steps of 1 ms headless, in this thread (one step at a time) and in worker threads (in
 *      batches, and one step per round trip), side by side;
 *   3. the same exchange on the bare SDK, no simulation: Client + McpServer joined by
 *      InMemoryTransport.createLinkedPair() in this process, real timers, stepMs 0
 *      (scripts/bench-bare.ts); through the SDK's stdio entry; and through it serving the lab's
 *      seven tools; timed in turn with the warm run of 1 (benchWarmAgainstBare);
 *   4. the ratio simulated / bare;
 *   5. Chromium: page load → both sides connected, with the build served as a static host serves it and by vite preview;
 *   6. the run timeline (site/lib/timeline.ts) of a 2,000-frame trace: the model alone in Node,
 *      then in Chromium drawing it from nothing, and a live update that adds one frame;
 *   7. the wire log's scroller holding 10,000 rows (the longest run the engine's bound allows,
 *      about 6,700 rows, filled up with its own rows): p95 frame time while scrolling, and the
 *      cost of appending row 10, row 100 and row 10,000 (scripts/bench-wire-log.ts);
 *   8. live mode and replays in the playground: 2,000 steps of 1 ms at 4× (wall time against the
 *      replay floor and the ideal 500 ms), and the longest main-thread task while playing and
 *      during a replay near the event bound (measureLive), and during a 100,000-event import
 *      (scripts/bench-import.ts);
 *   9. issue 17 §2, each next to its aim: the command line's whole process for a library
 *      scenario (`npx cancel-lab run …`, and its launcher alone, each with its floor: npx of a
 *      no-op bin, Node running an empty file), and every library trace
 *      reproduced in this thread (scripts/bench-speed.ts), and the explorer's schedules/s in the
 *      playground's Explore panel with the page's longest task meanwhile
 *      (scripts/bench-explore-chromium.ts); the other aims are on the
 *      rows above.
 */
import { execSync, spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { permalinkOf } from '../src/scenario/index.ts';
import os from 'node:os';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium.mjs';
import { allowedCombinations } from '../src/scenario/index.ts';
import { performance } from 'node:perf_hooks';
import { bareOnce, type BareOutcome, type BarePath, type BareTools, type StepYield } from './bench-bare.ts';
import { createNodeSides, runHeadless } from '../src/host/index.ts';
import { oneStepAtATime } from '../tests/unit/trace-helpers.ts';
import { bundleForPage } from './bundle-for-page.ts';
import { timelineModel } from '../src/views/index.ts';
import { measureWireLog } from './bench-wire-log.ts';
import { CLI_SCENARIO, emptyWorkerPair, freshPair, libraryReproduces, measureCli, standardScenario, type CliFigures, type ProcessFigure } from './bench-speed.ts';
import { defaultScenario, type Scenario } from '../src/scenario/index.ts';
import type { TraceEvent } from '../src/trace/index.ts';
import { benchExplore } from './bench-explore.ts';
import { benchExploreChromium } from './bench-explore-chromium.ts';
import { benchImportChromium } from './bench-import.ts';
import { longestTask, watchLongTasks } from './bench-long-tasks.ts';
import { checkRun } from '../src/rules/index.ts';
import { serveStatic } from './bench-static-host.ts';
import { writeReadyFloor } from './bench-ready-floor.ts';
import { newTabVisits } from './bench-ready-tab.ts';

/**
 * Runs before the timed ones, the same for the standard simulated run and the bare SDK it is
 * compared with: enough for V8 to have optimised what both run as a long search has them. Each
 * goes on getting faster long after its first hundred runs: medians of one process's runs 100–130,
 * 300–500 and 1,000–2,000 were 1.09, 0.83 and 0.57 ms simulated, and 0.49, 0.36 and 0.27 ms bare.
 */
const STEADY_WARMUP = 1000;
/** The same for the rows that are not compared with the bare SDK (worker threads, each transport), each run slower. */
const WARMUP = 100;
const WARM_RUNS = 200;
const COLD_RUNS = 5;
const CLI_RUNS = 5;
const CHROMIUM_LOADS = 7;
const PER_TRANSPORT_RUNS = 20;
const TIMELINE_MODEL_RUNS = 20;
const TIMELINE_RENDER_RUNS = 9;
const TIMELINE_LIVE_RUNS = 15;

declare global {
  interface Window {
    /** The timeline bundle the benchmark injects into a blank page. */
    CancelLabTimeline?: typeof import('../site/lib/timeline.ts');
  }
}

// ── statistics ──────────────────────────────────────────────────────────────────────────────

interface Stats {
  n: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? NaN;
}

function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

const ms = (x: number): string => `${x.toFixed(2)} ms`;

// ── simulated runs ──────────────────────────────────────────────────────────────────────────

function describeTrace(trace: readonly TraceEvent[]): string {
  const frames = trace.filter((e) => e.kind === 'frame').length;
  const progress = trace.filter((e) => e.kind === 'frame' && e.msg?.method === 'notifications/progress').length;
  const last = trace.filter((e) => e.kind === 'client-state').at(-1);
  return `${trace.length} events, ${frames} frames (${progress} progress), call ends ${last?.kind === 'client-state' ? last.to : '?'}`;
}

async function benchWarm(s: Scenario, warmUp: number, threads = false): Promise<{ stats: Stats; trace: TraceEvent[]; warmUp: number }> {
  const sides = createNodeSides({ threads });
  try {
    let trace: TraceEvent[] = [];
    for (let i = 0; i < warmUp; i++) trace = await runHeadless(s, sides);
    const samples: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const t0 = performance.now();
      trace = await runHeadless(s, sides);
      samples.push(performance.now() - t0);
    }
    return { stats: stats(samples), trace, warmUp };
  } finally {
    await sides.close();
  }
}

const LONG_RUNS = 5;
/**
 * Untimed rounds first: a run of 2,000 steps goes on getting faster over its first few (its
 * timers' and progress' code is not the standard run's); timed after one, this thread's took
 * 238 ms, after five 115 ms.
 */
const LONG_WARMUP = 3;
/** Judgings of one long trace by every rule (benchChecker). */
const CHECKER_RUNS = 5;

/** Judging a run near the engine's event bound with every rule of the catalog, as the playground re-judges on each step and `check` judges a long trace. */
async function benchChecker(): Promise<{ stats: Stats; events: number }> {
  const scenario = slowCountScenario(6600);
  const sides = createNodeSides();
  try {
    const trace = await runHeadless(scenario, sides);
    const samples: number[] = [];
    for (let i = 0; i < CHECKER_RUNS + 1; i++) {
      const t0 = performance.now();
      checkRun({ revision: scenario.revision, transport: scenario.transport }, trace);
      if (i > 0) samples.push(performance.now() - t0);
    }
    return { stats: stats(samples), events: trace.length };
  } finally {
    await sides.close();
  }
}

/**
 * The live figure's 2,000 steps of 1 ms run headless on warm sides: in this thread, one step at a
 * time (as the browser's worker and the command line run them); in worker threads, running
 * ahead in batches; and in worker threads asked for one step per round trip (no `batch`);
 * interleaved run by run so that all see the same machine.
 */
async function benchLongRun(): Promise<{ inThread: Stats; batched: Stats; oneByOne: Stats; events: number }> {
  const s = slowCountScenario(2000);
  const here = createNodeSides();
  const threads = createNodeSides({ threads: true });
  const oneByOne = oneStepAtATime(threads);
  try {
    const inThread: number[] = [];
    const batched: number[] = [];
    const single: number[] = [];
    let events = 0;
    for (let i = 0; i < LONG_WARMUP + LONG_RUNS; i++) {
      for (const [samples, runWith] of [[inThread, here], [batched, threads], [single, oneByOne]] as const) {
        const t0 = performance.now();
        events = (await runHeadless(s, runWith)).length;
        if (i >= LONG_WARMUP) samples.push(performance.now() - t0);
      }
    }
    return { inThread: stats(inThread), batched: stats(batched), oneByOne: stats(single), events };
  } finally {
    await Promise.all([here.close(), threads.close()]);
  }
}

// ── bare SDK, no simulation (bench-bare.ts) ─────────────────────────────────────────────────

/** Blocks the timed runs of timedInTurn are taken in, turn about. */
const TURN_BLOCKS = 10;

/**
 * Times each of `runs` (each times itself, in ms) WARM_RUNS times, after STEADY_WARMUP untimed
 * runs of each: warmed up together, then timed in blocks taken in turn, so that all see the same
 * optimised SDK code and the same minutes of the machine. Measured one after the other, the
 * later saw the SDK's code optimised by everything run before it: the simulated run came first,
 * and its ratio to the bare SDK read 1.6× to 3.0× from one process to the next, against 2.0× to
 * 2.3× in turn.
 */
async function timedInTurn(runs: readonly (() => Promise<number>)[]): Promise<Stats[]> {
  for (let i = 0; i < STEADY_WARMUP; i++) for (const run of runs) await run();
  const samples = runs.map((): number[] => []);
  const block = Math.ceil(WARM_RUNS / TURN_BLOCKS);
  for (let b = 0; b < TURN_BLOCKS; b++) {
    for (const [k, run] of runs.entries()) for (let i = 0; i < block; i++) samples[k]?.push(await run());
  }
  return samples.map((x) => stats(x));
}

interface Compared {
  stats: Stats;
  sample: BareOutcome;
}

/** The bare exchange `mode`, `path` and `tools` say, for timedInTurn, keeping its last outcome. */
function bareRun(mode: StepYield, path: BarePath, tools?: BareTools): { run: () => Promise<number>; last: () => BareOutcome } {
  let last: BareOutcome | null = null;
  return {
    run: async () => (last = await bareOnce(mode, path, tools)).ms,
    last: () => {
      if (last === null) throw new Error('the bare exchange never ran');
      return last;
    },
  };
}

/**
 * The standard run on warm sides in this thread and the bare exchange it is compared with, in
 * memory, through the SDK's stdio entry, and through it with the lab's seven tools registered,
 * timed in turn (timedInTurn).
 */
async function benchWarmAgainstBare(s: Scenario): Promise<{ warm: { stats: Stats; trace: TraceEvent[] }; bare: Compared; stdio: Compared; lab: Compared }> {
  const sides = createNodeSides();
  try {
    let trace: TraceEvent[] = [];
    const simulated = async (): Promise<number> => {
      const t0 = performance.now();
      trace = await runHeadless(s, sides);
      return performance.now() - t0;
    };
    const bare = bareRun('setImmediate', 'connect');
    const stdio = bareRun('setImmediate', 'stdio-entry');
    const lab = bareRun('setImmediate', 'stdio-entry', 'lab');
    const [warm, bareStats, stdioStats, labStats] = await timedInTurn([simulated, bare.run, stdio.run, lab.run]);
    if (!warm || !bareStats || !stdioStats || !labStats) throw new Error('timedInTurn left a run out');
    return {
      warm: { stats: warm, trace },
      bare: { stats: bareStats, sample: bare.last() },
      stdio: { stats: stdioStats, sample: stdio.last() },
      lab: { stats: labStats, sample: lab.last() },
    };
  } finally {
    await sides.close();
  }
}

/** The bare exchange sleeping with setTimeout(0), alone: each step then waits Node's 1 ms, so it is no floor. */
async function benchBareTimers(): Promise<Compared> {
  const timers = bareRun('setTimeout', 'connect');
  const [timed] = await timedInTurn([timers.run]);
  if (!timed) throw new Error('timedInTurn left a run out');
  return { stats: timed, sample: timers.last() };
}

// ── Chromium ────────────────────────────────────────────────────────────────────────────────

interface BrowserFigures {
  /** Navigation → both sides connected, and DOMContentLoaded, with the site served as a static host serves it (bench-static-host.ts). */
  connect: Stats;
  /** The same on a return visit: a new tab after two visits in the same running browser (bench-ready-tab.ts, `returning`). */
  repeatConnect: Stats;
  domContentLoaded: Stats;
  /** The same under `vite preview`, which compresses every response as it sends it. */
  previewConnect: Stats;
  previewDomContentLoaded: Stats;
  /** Navigation → the bare SDK pair connected in a worker of a blank page (bench-ready-floor.ts), loads alternating with the playground's. */
  readyFloor: Stats;
  /** The playground's first visit and its floor's, each in a new tab of a running browser with nothing cached or attached (bench-ready-tab.ts). */
  tabConnect: Stats;
  tabFloor: Stats;
  sequence: Stats;
  sequenceMessages: number;
  lessonJsBytes: number;
  lessonJsGzip: number;
  lessonScripts: number;
  /** Wall ms from Call to the last progress shown: 2,000 steps of 1 ms at 4× (ideal 500 ms). */
  liveWall: Stats;
  /** The longest main-thread task (ms) during each of those live runs. */
  liveLongest: Stats;
  /** Wall ms of the same 2,000 steps replayed from a link: the engine as fast as it goes, the floor under live. */
  replayWall: Stats;
  /** The longest main-thread task (ms) during a replay near the engine's event bound, and the paints after it. */
  boundReplayLongest: Stats;
  /** The explorer's rows in the playground's Explore panel (bench-explore-chromium.ts). */
  explorer: [string, string, string][];
  /** The longest task of a 100,000-event import (bench-import.ts). */
  importLongest: [string, string, string];
}

/** A fresh process's first pair, its code loaded as `how` says (freshPair in bench-speed.ts), next to `floor` when there is one, or why there is none (only the bundle can be missing). */
function freshPairRow(label: string, how: string, samples: { ms: number; cpuMs: number }[] | null, floor?: Stats): [string, string, string] {
  if (samples === null) return [label, '—', 'no dist-cli/host.mjs: run npm run build:cli'];
  const wall = stats(samples.map((f) => f.ms));
  const cpu = stats(samples.map((f) => f.cpuMs));
  const ratio = floor === undefined ? '' : `, ${(wall.median / floor.median).toFixed(1)}× the empty worker pair`;
  return [label, ms(wall.median), `${how}, median of ${wall.n} (p90 ${ms(wall.p90)}, CPU ${ms(cpu.median)}${ratio}); aim ≤ 100 ms`];
}

const LIVE_RUNS = 3;

function slowCountScenario(steps: number): Scenario {
  return { ...defaultScenario(), steps: [{ at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps, stepMs: 1 } } }], endAt: steps + 100 };
}

/**
 * Live mode and replays, as a user drives them at 1400×900, median of LIVE_RUNS after a warm-up:
 *   - live: speed 4×, slow_count {2,000 steps of 1 ms} called from the form, wall ms from the
 *     click to "2000 / 2000" in the calls table (read from Node: a few ms of messaging included),
 *     and the longest main-thread task meanwhile;
 *   - the floor: the same call replayed from a link (the engine as fast as it goes, no pacing);
 *   - a replay near the engine's 20,000-event bound (6,600 steps, about 19,800 events) opened in
 *     an open tab: the longest main-thread task from the hash change until 1 s after it ended.
 */
/**
 * A stopwatch in the page: from `startOn` (a click on the Call button, or now) to the first DOM
 * change after which `doneWhen` holds, both in the page's own clock. Timing a run by Playwright's
 * waits instead adds its polling interval (up to hundreds of ms) to what the user saw.
 */
async function armStopwatch(page: Page, startOn: 'call' | 'now', doneWhen: 'all-progress' | 'replayed'): Promise<() => Promise<number>> {
  await page.evaluate(
    ([start, done]) => {
      const w = window as unknown as { __sw?: { t0: number | null; t1: number | null; seen: boolean } };
      const sw = { t0: start === 'now' ? performance.now() : null, t1: null as number | null, seen: false };
      w.__sw = sw;
      if (start === 'call') document.getElementById('call')?.addEventListener('click', () => (sw.t0 ??= performance.now()), { capture: true, once: true });
      const holds = (): boolean => {
        if (done === 'all-progress') return /^2000 \/ 2000/.test(document.querySelector('#calls-table tbody tr[data-call="#1"] td:nth-of-type(5)')?.textContent ?? '');
        const replaying = (document.getElementById('conn-status')?.textContent ?? '').includes('Replaying');
        sw.seen ||= replaying;
        return sw.seen && !replaying;
      };
      new MutationObserver((_, observer) => {
        if (sw.t0 === null || !holds()) return;
        sw.t1 = performance.now();
        observer.disconnect();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    [startOn, doneWhen] as const,
  );
  return async () => {
    await page.waitForFunction(() => (window as unknown as { __sw?: { t1: number | null } }).__sw?.t1 != null, undefined, { timeout: 120_000 });
    return page.evaluate(() => {
      const sw = (window as unknown as { __sw: { t0: number; t1: number } }).__sw;
      return sw.t1 - sw.t0;
    });
  };
}

async function measureLive(browser: Browser, base: string): Promise<Pick<BrowserFigures, 'liveWall' | 'liveLongest' | 'replayWall' | 'boundReplayLongest'>> {
  const liveWall: number[] = [];
  const liveLongest: number[] = [];
  const replayWall: number[] = [];
  const boundReplayLongest: number[] = [];
  // The links are never checked against a recording: these runs are about time, not the trace.
  const floorLink = await permalinkOf(slowCountScenario(2000), 'not-recorded');
  const boundLink = await permalinkOf(slowCountScenario(6600), 'not-recorded');
  const replay = async (page: Page, link: string): Promise<number> => {
    const stopwatch = await armStopwatch(page, 'now', 'replayed');
    await page.evaluate((l) => void (location.hash = l), link);
    return stopwatch();
  };
  for (let i = 0; i < LIVE_RUNS + 1; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/playground/`);
    await page.locator('.playground[data-ready="true"]').waitFor();
    await watchLongTasks(page);
    await page.getByLabel('Speed').selectOption('4');
    await page.locator('#tool').selectOption('slow_count');
    await page.locator('#arg-steps').fill('2000');
    await page.locator('#arg-stepMs').fill('1');
    const stopwatch = await armStopwatch(page, 'call', 'all-progress');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const wall = await stopwatch();
    const longest = await longestTask(page);
    const floor = await replay(page, floorLink);
    await page.goto(`${base}/playground/`);
    await page.locator('.playground[data-ready="true"]').waitFor();
    await watchLongTasks(page);
    await replay(page, boundLink);
    await page.waitForTimeout(1000);
    const boundLongest = await longestTask(page);
    await context.close();
    if (i === 0) continue;
    liveWall.push(wall);
    liveLongest.push(longest);
    replayWall.push(floor);
    boundReplayLongest.push(boundLongest);
  }
  return { liveWall: stats(liveWall), liveLongest: stats(liveLongest), replayWall: stats(replayWall), boundReplayLongest: stats(boundReplayLongest) };
}

/** `count` quick calls 10 ms apart, each a request and a response: 2 × count messages and the handshake. */
function quickCallsScenario(count: number): Scenario {
  return {
    ...defaultScenario(),
    steps: Array.from({ length: count }, (_, i) => ({ at: 20 + 10 * i, action: { type: 'call' as const, call: `#${i + 1}`, tool: 'quick', args: {} } })),
    endAt: 20 + 10 * count + 1000,
  };
}

/**
 * In Chromium, against the built site (built into dist-bench/ so a running dev build is left
 * alone) served by `vite preview`, each figure as the page itself records it:
 *   - navigation start → both sides connected (`__cancelLabMetrics.workersConnectedMs`), and
 *     DOMContentLoaded, median of CHROMIUM_LOADS fresh loads after one warm-up, served both as a
 *     static host serves the build (bench-static-host.ts) and by `vite preview`, loads alternating,
 *     each in a new browser context;
 *   - the same first visit and its floor in a new tab of a running browser, and a return visit
 *     there (bench-ready-tab.ts);
 *   - generating and drawing the sequence diagram of a ~200-message trace (a replayed link),
 *     `__cancelLabMetrics.sequenceRenderMs`;
 *   - the JavaScript a lesson page loads before any interaction: bytes, and gzip -9 of each file.
 */
async function measureChromium(): Promise<BrowserFigures | null> {
  const executablePath = findChromium();
  if (executablePath === undefined) return null;
  execSync('node_modules/.bin/astro build --outDir dist-bench', { stdio: 'ignore' });
  const floorPath = await writeReadyFloor('dist-bench');
  const port = 4339;
  const server = spawn('node_modules/.bin/vite', ['preview', '--outDir', 'dist-bench', '--port', String(port), '--strictPort', '--host', 'localhost'], {
    stdio: 'ignore',
  });
  const base = `http://localhost:${port}`;
  const host = await serveStatic('dist-bench', port + 1);
  const hostBase = `http://localhost:${port + 1}`;
  try {
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`${base}/playground/`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    try {
      // Loads alternate between the two servers, and the floor, so that all see the same machine.
      const loads = { hosted: { connect: [] as number[], dcl: [] as number[] }, preview: { connect: [] as number[], dcl: [] as number[] } };
      const floor: number[] = [];
      for (let i = 0; i < CHROMIUM_LOADS + 1; i++) {
        for (const [server, at] of [['hosted', hostBase], ['preview', base]] as const) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(`${at}/playground/`);
          await page.waitForFunction(() => window.__cancelLabMetrics?.workersConnectedMs !== undefined);
          const [connected, loaded] = await page.evaluate(() => [
            window.__cancelLabMetrics?.workersConnectedMs ?? NaN,
            (window.performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.domContentLoadedEventEnd ?? NaN,
          ]);
          if (i > 0) {
            loads[server].connect.push(connected ?? NaN);
            loads[server].dcl.push(loaded ?? NaN);
          }
          await context.close();
        }
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${hostBase}${floorPath}`);
        await page.waitForFunction(() => window.__readyFloorMs !== undefined);
        if (i > 0) floor.push(await page.evaluate(() => window.__readyFloorMs ?? NaN));
        await context.close();
      }

      const link = await permalinkOf(quickCallsScenario(100), '');
      const sequence: number[] = [];
      let sequenceMessages = 0;
      for (let i = 0; i < 4; i++) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
        const page = await context.newPage();
        await page.goto(`${base}/playground/#${link}`);
        await page.waitForSelector('#replay-status:not([hidden])', { timeout: 60_000 });
        // The diagrams draw only while their tab is open and on screen.
        await page.getByRole('tab', { name: 'Diagrams' }).click();
        await page.locator('section.diagrams').scrollIntoViewIfNeeded();
        await page.waitForFunction(() => (window.__cancelLabMetrics?.sequenceMessages ?? 0) >= 200, undefined, { timeout: 60_000 });
        const [ms, messages] = await page.evaluate(() => [window.__cancelLabMetrics?.sequenceRenderMs ?? NaN, window.__cancelLabMetrics?.sequenceMessages ?? 0]);
        if (i > 0) sequence.push(ms ?? NaN); // the first load also fetches and compiles Mermaid
        sequenceMessages = messages ?? 0;
        await context.close();
      }

      // The same first visit as a user makes it, a new tab of a browser already running (a
      // browser of the bench's own, started and driven without Playwright), loads alternating with the floor's.
      const workersConnected = 'window.__cancelLabMetrics?.workersConnectedMs';
      const [tabConnect = [], tabFloor = [], tabReturn = []] = await newTabVisits(
        executablePath,
        CHROMIUM_ARGS,
        [
          { url: `${hostBase}/playground/`, figure: workersConnected },
          { url: `${hostBase}${floorPath}`, figure: 'window.__readyFloorMs' },
          { url: `${hostBase}/playground/`, figure: workersConnected, returning: true },
        ],
        CHROMIUM_LOADS,
      );

      const live = await measureLive(browser, base);
      const explorer = await benchExploreChromium(browser, base, standardScenario());
      const importLongest = await benchImportChromium(browser, base);

      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts: Buffer[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') void r.body().then((b) => scripts.push(b), () => undefined);
      });
      await page.goto(`${base}/lessons/what-cancellation-is/`, { waitUntil: 'networkidle' });
      await context.close();
      const bytes = scripts.reduce((n, b) => n + b.length, 0);
      const gzip = scripts.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
      return {
        connect: stats(loads.hosted.connect),
        repeatConnect: stats(tabReturn),
        domContentLoaded: stats(loads.hosted.dcl),
        previewConnect: stats(loads.preview.connect),
        readyFloor: stats(floor),
        tabConnect: stats(tabConnect),
        tabFloor: stats(tabFloor),
        previewDomContentLoaded: stats(loads.preview.dcl),
        sequence: stats(sequence), sequenceMessages, lessonJsBytes: bytes, lessonJsGzip: gzip, lessonScripts: scripts.length, ...live, explorer, importLongest };
    } finally {
      await browser.close();
    }
  } finally {
    server.kill();
    host.close();
  }
}

// ── the run timeline ────────────────────────────────────────────────────────────────────────

interface TimelineFigures {
  frames: number;
  model: Stats;
  render: Stats | null;
  live: Stats | null;
  /** Arrows the live update drew (the new frame, and any whose drawing changed). */
  liveRedrawn: number;
  /** Arrows in the figure once it is drawn: frames drawn over one another at this width are one arrow. */
  drawn: number;
}

/**
 * A 2,000-frame trace (1,000 quick calls on stdio), then:
 *   - the model alone (timelineModel over the whole trace), in Node;
 *   - in Chromium at 1400 px, a timeline made and drawn from nothing (createTimeline + update,
 *     up to a forced style and layout; paint not included), median of TIMELINE_RENDER_RUNS after a warm-up;
 *   - a live update: a drawn timeline of the trace up to its last frame is updated with the same
 *     array grown by that frame, as the page does once per paint; median of TIMELINE_LIVE_RUNS.
 */
async function measureTimeline(): Promise<TimelineFigures> {
  const sides = createNodeSides();
  let trace: TraceEvent[];
  try {
    trace = await runHeadless(quickCallsScenario(1000), sides);
  } finally {
    await sides.close();
  }
  const frames = trace.filter((e) => e.kind === 'frame').length;
  const modelSamples: number[] = [];
  for (let i = 0; i < TIMELINE_MODEL_RUNS + 3; i++) {
    const t0 = performance.now();
    timelineModel(trace);
    if (i >= 3) modelSamples.push(performance.now() - t0);
  }
  const executablePath = findChromium();
  if (executablePath === undefined) return { frames, model: stats(modelSamples), render: null, live: null, liveRedrawn: 0, drawn: 0 };
  const lastFrame = trace.findLastIndex((e) => e.kind === 'frame');
  const { js, css } = await bundleForPage('site/lib/timeline.ts', 'CancelLabTimeline');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 400 } });
    await page.setContent('<!doctype html><html><head><style>:root { color-scheme: light dark; }</style></head><body><div id="host"></div></body></html>');
    await page.addStyleTag({ content: css });
    await page.addScriptTag({ content: js });
    const figures = await page.evaluate(
      ({ trace, lastFrame, renderRuns, liveRuns }) => {
        const lib = window.CancelLabTimeline;
        const host = document.getElementById('host');
        if (!lib || !host) throw new Error('the timeline bundle did not load');
        const input = (t: readonly TraceEvent[]) => ({ trace: t, findings: [], selectedFrame: null, until: null });
        const settle = (): number => host.getBoundingClientRect().height + (host.querySelector('.tl-arrow:last-child')?.getBoundingClientRect().width ?? 0);
        const render: number[] = [];
        let drawn = 0;
        for (let i = 0; i < renderRuns + 1; i++) {
          const t0 = performance.now();
          const tl = lib.createTimeline(host, () => undefined);
          // An update reads a slice of a long trace; the page reads the rest over the next frames.
          while (!tl.update(input(trace)));
          settle();
          if (i > 0) render.push(performance.now() - t0);
          drawn = host.querySelectorAll('.tl-arrow').length;
          tl.destroy();
        }
        const live: number[] = [];
        let redrawn = 0;
        for (let i = 0; i < liveRuns + 1; i++) {
          const growing = trace.slice(0, lastFrame);
          const tl = lib.createTimeline(host, () => undefined);
          while (!tl.update(input(growing)));
          settle();
          const watch = new MutationObserver(() => undefined);
          watch.observe(host, { childList: true, subtree: true });
          growing.push(...trace.slice(lastFrame, lastFrame + 1));
          const t0 = performance.now();
          tl.update(input(growing));
          settle();
          if (i > 0) live.push(performance.now() - t0);
          // Arrows drawn anew, and arrows redrawn in place (their children replaced).
          const touched = new Set<Element>();
          for (const r of watch.takeRecords()) {
            const inArrow = r.target instanceof Element ? r.target.closest('.tl-arrow') : null;
            if (inArrow) touched.add(inArrow);
            for (const n of r.addedNodes) if (n instanceof Element && n.matches('.tl-arrow')) touched.add(n);
          }
          watch.disconnect();
          redrawn = touched.size;
          tl.destroy();
        }
        return { render, live, redrawn, drawn };
      },
      { trace, lastFrame, renderRuns: TIMELINE_RENDER_RUNS, liveRuns: TIMELINE_LIVE_RUNS },
    );
    return { frames, model: stats(modelSamples), render: stats(figures.render), live: stats(figures.live), liveRedrawn: figures.redrawn, drawn: figures.drawn };
  } finally {
    await browser.close();
  }
}

function wireLogRows(figures: Awaited<ReturnType<typeof measureWireLog>>): [string, string, string][] {
  if (figures === null) return [['Chromium: wire log', 'no Chromium found', '']];
  const scroll = [...figures.scroll].sort((a, b) => a - b);
  const work = [...figures.scrollWork].sort((a, b) => a - b);
  const small = stats(figures.appendAt10);
  const scrolling = stats(figures.appendAt100);
  const large = stats(figures.appendAt10000);
  return [
    [
      `Chromium: wire log, scroll ${figures.rows.toLocaleString('en')} rows: p95 frame`,
      ms(percentile(scroll, 95)),
      `${scroll.length} frames of 150 px, top to bottom, 1400×900 (median ${ms(percentile(scroll, 50))}, max ${ms(scroll.at(-1) ?? NaN)}); aim ≤ 16 ms`,
    ],
    [
      `Chromium: wire log, scroll ${figures.rows.toLocaleString('en')} rows: p95 work`,
      ms(percentile(work, 95)),
      `redraw + style + layout per 150 px step, no paint, ${work.length} steps (median ${ms(percentile(work, 50))})`,
    ],
    ['Chromium: wire log, append row 10', ms(small.median), `one row at the tail, followed, up to a forced layout; ten rows fit the view, so it scrolls nothing; median of ${small.n} (p90 ${ms(small.p90)})`],
    ['  the same, row 100', ms(scrolling.median), `the log scrolls one row and moves its window of rows, as every append after the view is full does; median of ${scrolling.n} (p90 ${ms(scrolling.p90)})`],
    [
      `Chromium: wire log, append row ${figures.rows.toLocaleString('en')}`,
      ms(large.median),
      `the same at the last row: ${(large.median / scrolling.median).toFixed(1)}× row 100's; aim: the same as near the top; median of ${large.n} (p90 ${ms(large.p90)})`,
    ],
  ];
}

// ── output ──────────────────────────────────────────────────────────────────────────────────

/** A process's figures over its runs: the median wall time and the largest peak (MiB), if known. */
interface ProcessSummary {
  wall: Stats;
  peakMiB: number | null;
}

function summary(figures: readonly ProcessFigure[]): ProcessSummary {
  const peaks = figures.flatMap((f) => (f.peakKiB === null ? [] : [f.peakKiB]));
  return { wall: stats(figures.map((f) => f.wallMs)), peakMiB: peaks.length ? Math.max(...peaks) / 1024 : null };
}

const seconds = (p: ProcessSummary): string => `${(p.wall.median / 1000).toFixed(2)} s`;
const peak = (p: ProcessSummary): string => (p.peakMiB === null ? 'peak memory: no GNU time' : `${p.peakMiB.toFixed(0)} MiB peak`);

/** "2.4× the wall and 1.8× the peak of npm's floor". */
function against(ours: ProcessSummary, floor: ProcessSummary, name: string): string {
  const memory = ours.peakMiB === null || floor.peakMiB === null ? '' : ` and ${(ours.peakMiB / floor.peakMiB).toFixed(1)}× the peak`;
  return `${(ours.wall.median / floor.wall.median).toFixed(1)}× the wall${memory} of ${name}`;
}

/**
 * The command line's rows: npx and the launcher alone, each next to its floor measured in this
 * run (npm's start-up of a no-op bin, Node's of an empty file) and as a ratio to it, so that
 * the reader sees which part of a figure is npm's or Node's and which is ours.
 */
function cliRows(cli: CliFigures): [string, string, string][] {
  const npx = summary(cli.npx);
  const npxFloor = summary(cli.npxFloor);
  const launcher = summary(cli.launcher);
  const nodeFloor = summary(cli.nodeFloor);
  const runs = `median of ${npx.wall.n} after a warm-up`;
  return [
    [
      `CLI: npx cancel-lab run ${CLI_SCENARIO.split('/').at(-1) ?? ''}`,
      seconds(npx),
      `${peak(npx)}; ${against(npx, npxFloor, "npm's floor")}; ${runs}; aim ≤ 0.3 s and ≤ 80 MiB, whole process`,
    ],
    [
      "  npm's floor: npx of a no-op bin in a tiny package",
      seconds(npxFloor),
      `${peak(npxFloor)}; its bin linked in its node_modules/.bin, as npm install links ours (scripts/link-bin.ts)`,
    ],
    ['  the launcher alone (node bin/cancel-lab.mjs run …)', seconds(launcher), `${peak(launcher)}; ${against(launcher, nodeFloor, "Node's floor")}`],
    ["  Node's floor: node of an empty file", seconds(nodeFloor), `${peak(nodeFloor)}; ${runs}`],
  ];
}

/** What the SDK's own cost of the lab's server (a ratio to the in-memory floor) leaves of the warm run's 1.5× aim. */
function labShare(ratio: number): string {
  const left = 1.5 - ratio;
  return left > 0 ? `${ratio.toFixed(2)}×, leaving ${left.toFixed(2)}× for all the simulation adds` : `${ratio.toFixed(2)}×, already over it`;
}

function table(rows: readonly (readonly [string, string, string])[]): string {
  const header = ['figure', 'value', 'notes'] as const;
  const all = [header, ...rows];
  const width = [0, 1, 2].map((i) => Math.max(...all.map((r) => r[i]?.length ?? 0)));
  const line = (r: readonly string[]) => r.map((c, i) => c.padEnd(width[i] ?? 0)).join('  │ ').trimEnd();
  const rule = width.map((w) => '─'.repeat(w)).join('──┼─');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const s = standardScenario();
  console.log('MCP Cancel Lab — bench');
  console.log(
    `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'} ×${os.cpus().length}, @modelcontextprotocol/* 2.4.0`,
  );
  console.log(
    `scenario: ${s.revision}, ${s.transport}, latency ${s.latency.c2s}/${s.latency.s2c} ms, slow_count {5, 100} at 20, Stop at 240\n`,
  );

  const { warm, bare: bareYield, stdio: bareStdio, lab: bareLab } = await benchWarmAgainstBare(s);
  const warmThreads = await benchWarm(s, WARMUP, true);
  const coldWorkers = await freshPair(COLD_RUNS, 'source', 'threads');
  const coldWorkersBundle = await freshPair(COLD_RUNS, 'bundle', 'threads');
  const emptyPair = stats(await emptyWorkerPair(COLD_RUNS));
  const fresh = await freshPair(COLD_RUNS, 'source', 'in-thread');
  const freshBundle = await freshPair(COLD_RUNS, 'bundle', 'in-thread');
  const cli = await measureCli(CLI_RUNS);
  const library = await libraryReproduces();
  const long = await benchLongRun();
  const checker = await benchChecker();
  const frames = warm.trace.filter((e) => e.kind === 'frame').length;
  const framesPerSecond = frames / (warm.stats.median / 1000);
  const eventsPerSecond = warm.trace.length / (warm.stats.median / 1000);
  const bareTimer = await benchBareTimers();
  const sides = createNodeSides();
  const perTransport: [string, string, string][] = [];
  try {
    for (const combo of allowedCombinations()) {
      const scenario = { ...s, ...combo };
      for (let i = 0; i < WARMUP; i++) await runHeadless(scenario, sides);
      const samples: number[] = [];
      let frameCount = 0;
      for (let i = 0; i < PER_TRANSPORT_RUNS; i++) {
        const t0 = performance.now();
        const trace = await runHeadless(scenario, sides);
        samples.push(performance.now() - t0);
        frameCount = trace.filter((e) => e.kind === 'frame').length;
      }
      const st = stats(samples);
      const shape = combo.transport === 'streamable-http' ? ` (${combo.httpServer})` : '';
      perTransport.push([`  ${combo.revision} ${combo.transport}${shape}`, ms(st.median), `p90 ${ms(st.p90)}, ${frameCount} frames`]);
    }
  } finally {
    await sides.close();
  }
  const browser = await measureChromium();
  const timeline = await measureTimeline();
  const wireLog = await measureWireLog();
  const explorer = await benchExplore(s);

  const bareNote = (o: BareOutcome) =>
    `${o.progress} progress, call ${o.rejected ? 'rejected' : 'resolved'}, handler aborted=${String(o.handlerAborted)}`;
  const rows: [string, string, string][] = [
    ['simulated, warm sides: median', ms(warm.stats.median), `${warm.stats.n} runs after ${STEADY_WARMUP} warm-up, both sides in this thread, timed in turn with the three bare rows below (${TURN_BLOCKS} blocks each)`],
    ['simulated, warm sides: p90', ms(warm.stats.p90), `min ${ms(warm.stats.min)}, max ${ms(warm.stats.max)}`],
    ['  the same, warm worker threads: median', ms(warmThreads.stats.median), `each side in a worker thread of its own (a second pair at once, a site build's embeds), in batches, after ${warmThreads.warmUp} warm-up; p90 ${ms(warmThreads.stats.p90)}`],
    freshPairRow('simulated, first worker pair', "a fresh process's first pair of worker threads (loading the sides from the TypeScript source) and its run", coldWorkers, emptyPair),
    freshPairRow('  the same, from the CLI bundle', 'each thread loading its bundled entry with the compile cache on', coldWorkersBundle, emptyPair),
    ['  floor: an empty worker pair', ms(emptyPair.median), `two threads of an empty module until both have posted, median of ${emptyPair.n}: Node's start of a thread, before any code of ours`],
    freshPairRow('simulated, first pair in this thread', "a fresh process's first pair (loading the sides from the TypeScript source) and its run", fresh),
    freshPairRow('  the same, from the CLI bundle', 'the sides loaded as cancel-lab run loads them (dist-cli/, compile cache on, set up for a short process: bin/short-process.mjs)', freshBundle),
    ['engine throughput', `${framesPerSecond.toFixed(0)} frames/s`, `${frames} frames / warm median`],
    ['', `${eventsPerSecond.toFixed(0)} events/s`, describeTrace(warm.trace)],
    ['checker, a run near the event bound', ms(checker.stats.median), `every rule over the ${checker.events} events of 6,600 progress steps, median of ${checker.stats.n} after one warm-up (p90 ${ms(checker.stats.p90)})`],
    ['simulated, 2,000 × 1 ms, warm: median', ms(long.inThread.median), `${long.events} events, both sides in this thread, one step at a time; median of ${long.inThread.n} after ${LONG_WARMUP} untimed (p90 ${ms(long.inThread.p90)})`],
    ['  the same, worker threads in batches', ms(long.batched.median), `the sides running ahead in batches (lookahead.ts); interleaved with the runs above and below, median of ${long.batched.n} (p90 ${ms(long.batched.p90)})`],
    [
      '  the same, worker threads one step per round trip',
      ms(long.oneByOne.median),
      `batches take ${(long.batched.median / long.oneByOne.median).toFixed(2)}× its time; median of ${long.oneByOne.n}`,
    ],
    ['bare SDK, setTimeout(0) steps: median', ms(bareTimer.stats.median), `p90 ${ms(bareTimer.stats.p90)}; ${bareNote(bareTimer.sample)}`],
    ['bare SDK, setImmediate steps: median', ms(bareYield.stats.median), `p90 ${ms(bareYield.stats.p90)}; ${bareNote(bareYield.sample)}`],
    [
      'ratio simulated/bare (setTimeout)',
      `${(warm.stats.median / bareTimer.stats.median).toFixed(1)}×`,
      'warm median / bare median; Node clamps setTimeout(0) to 1 ms',
    ],
    [
      'ratio simulated/bare (setImmediate)',
      `${(warm.stats.median / bareYield.stats.median).toFixed(1)}×`,
      `warm median / bare median; protocol overhead only; aim ≤ 1.5×, of which the SDK alone serving the lab's server takes ${labShare(bareLab.stats.median / bareYield.stats.median)} (two rows down)`,
    ],
    [
      '  bare SDK through its stdio entry: median',
      ms(bareStdio.stats.median),
      `p90 ${ms(bareStdio.stats.p90)}; setImmediate steps, served by serveStdio with every message framed as a stdio line, as the simulated server is; ${bareNote(bareStdio.sample)}`,
    ],
    [
      '  ratio simulated/bare through the stdio entry',
      `${(warm.stats.median / bareStdio.stats.median).toFixed(1)}×`,
      `the SDK's own stdio path takes ${(bareStdio.stats.median / bareYield.stats.median).toFixed(1)}× the in-memory floor`,
    ],
    [
      '  bare SDK serving the lab\'s server: median',
      ms(bareLab.stats.median),
      `p90 ${ms(bareLab.stats.p90)}; through the stdio entry, with the lab's seven tools registered as the simulated server registers them for every run: ${(bareLab.stats.median / bareYield.stats.median).toFixed(2)}× the in-memory floor; ${bareNote(bareLab.sample)}`,
    ],
    [
      '  ratio simulated/bare serving the lab\'s server',
      `${(warm.stats.median / bareLab.stats.median).toFixed(2)}×`,
      "what is the simulation's own: the coordinator, the wire, two virtual clocks, the trace and its lifecycles",
    ],
    [
      'standard runs per second, one thread',
      `${(1000 / warm.stats.median).toFixed(0)} runs/s`,
      "1 s / warm median: an explorer's ceiling per core (aim ≥ 1,000 schedules/s on both cores, ≥ 300/s in Chromium)",
    ],
    ...cliRows(cli),
    [
      'library traces reproduced in this thread',
      `${library.same} / ${library.all}`,
      library.first === null ? 'every recorded trace hash; aim: all' : `first differing: ${library.first}; aim: all`,
    ],
    explorer,
    ['per transport, warm median:', '', `${PER_TRANSPORT_RUNS} runs each after ${WARMUP} warm-up, same steps`],
    ...perTransport,
    ...(browser === null
      ? [['Chromium', 'no Chromium found', ''] as [string, string, string]]
      : ([
          ['Chromium: playground DOMContentLoaded', ms(browser.domContentLoaded.median), `median of ${browser.domContentLoaded.n} loads, served as a static host serves it (compressed ahead)`],
          [
            'Chromium: load → both sides connected, a new tab',
            ms(browser.tabConnect.median),
            `median of ${browser.tabConnect.n} first visits (p90 ${ms(browser.tabConnect.p90)}), each in a new tab of a running browser, HTTP and code caches cleared, nothing attached until it is ready (bench-ready-tab.ts); interactive from here; aim ≤ 250 ms`,
          ],
          [
            '  its floor: the bare SDK pair in a worker',
            ms(browser.tabFloor.median),
            `median of ${browser.tabFloor.n} loads of a blank page whose head starts a worker of only the two SDK packages, connected over their in-memory pair (bench-ready-floor.ts), the same way, alternating with the row above`,
          ],
          [
            '  ratio playground / floor',
            `${(browser.tabConnect.median / browser.tabFloor.median).toFixed(1)}×`,
            'what the page, the engine and the simulated wire add to the SDK pair alone, on the same machine in the same minutes',
          ],
          [
            '  the same, a return visit',
            ms(browser.repeatConnect.median),
            `median of ${browser.repeatConnect.n} (p90 ${ms(browser.repeatConnect.p90)}): a new tab of the same browser after two visits of its own (the first with the caches cleared), its files and V8's code cache kept, nothing attached until it is ready, alternating with the rows above; aim ≤ 250 ms`,
          ],
          [
            '  the same, a new browser context each',
            ms(browser.connect.median),
            `median of ${browser.connect.n} first visits (p90 ${ms(browser.connect.p90)}), each in a new Playwright context (a fresh profile), which Chromium loads slower than a new tab of a running profile, with nothing attached too, the floor included (a context made over the DevTools pipe, nothing attached: 324 against 209 ms, its floor 186 against 114, in one probe), so the gap is the fresh profile's and not Playwright's`,
          ],
          [
            '    its floor, the same way',
            ms(browser.readyFloor.median),
            `median of ${browser.readyFloor.n} loads of the floor page, alternating with the row above and below; ratio ${(browser.connect.median / browser.readyFloor.median).toFixed(1)}×`,
          ],
          [
            '  the same under vite preview',
            `${ms(browser.previewConnect.median)} (DCL ${ms(browser.previewDomContentLoaded.median)})`,
            `median of ${browser.previewConnect.n} loads, alternating with the row above; vite preview gzips each response as it sends it, on the same 2 cores`,
          ],
          [
            'Chromium: sequence diagram, ~200 messages',
            ms(browser.sequence.median),
            `generate + Mermaid render, ${browser.sequenceMessages} frames in the trace (the diagram keeps the newest 120), median of ${browser.sequence.n}`,
          ],
          [
            'Chromium: live, 2,000 × 1 ms at 4×',
            ms(browser.liveWall.median),
            `wall ms from the click on Call to the page showing 2000 / 2000 (timed in the page), aim about 500 ms (${(browser.liveWall.median / 500).toFixed(1)}× it); median of ${browser.liveWall.n} (p90 ${ms(browser.liveWall.p90)})`,
          ],
          [
            'Chromium: replay of the same (floor)',
            ms(browser.replayWall.median),
            `the engine as fast as it goes; live takes ${(browser.liveWall.median / browser.replayWall.median).toFixed(2)}× it; median of ${browser.replayWall.n}`,
          ],
          [
            'Chromium: longest main-thread task, live',
            ms(browser.liveLongest.median),
            `during those live runs (0 when none went over 50 ms), median of ${browser.liveLongest.n}, max ${ms(browser.liveLongest.max)}; aim ≤ 100 ms`,
          ],
          [
            'Chromium: longest main-thread task, replay',
            ms(browser.boundReplayLongest.median),
            `a replay of ~19,800 events (near the 20,000-event bound) and the paints after it, median of ${browser.boundReplayLongest.n}, max ${ms(browser.boundReplayLongest.max)}; aim ≤ 100 ms`,
          ],
          browser.importLongest,
          ...browser.explorer,
          [
            'lesson page JS before interaction',
            `${(browser.lessonJsBytes / 1024).toFixed(1)} KiB`,
            `${(browser.lessonJsGzip / 1024).toFixed(1)} KiB gzip -9, ${browser.lessonScripts} files (/lessons/what-cancellation-is/); aim ≤ 30 KB gzip`,
          ],
        ] as [string, string, string][])),
    ['timeline model, 2,000 frames (Node)', ms(timeline.model.median), `timelineModel over ${timeline.frames} frames, median of ${timeline.model.n}`],
    ...(timeline.render === null || timeline.live === null
      ? [['Chromium: timeline', 'no Chromium found', ''] as [string, string, string]]
      : ([
          [
            'Chromium: timeline, 2,000 frames drawn',
            ms(timeline.render.median),
            `create + updates until all is read + forced layout, 1400 px, ${timeline.frames} frames as ${timeline.drawn} arrows, median of ${timeline.render.n} (p90 ${ms(timeline.render.p90)}); aim ≤ 100 ms`,
          ],
          [
            'Chromium: timeline, live update +1 frame',
            ms(timeline.live.median),
            `${timeline.liveRedrawn} arrow${timeline.liveRedrawn === 1 ? '' : 's'} drawn, ${((timeline.live.median / timeline.render.median) * 100).toFixed(1)}% of drawing it all; median of ${timeline.live.n}`,
          ],
        ] as [string, string, string][])),
    ...wireLogRows(wireLog),
  ];
  console.log(table(rows));
  console.log(`\nbare SDK: ${WARM_RUNS} runs after ${STEADY_WARMUP} warm-up each; timed from new McpServer/Client to call rejected and handler returned.`);
}

await main();
