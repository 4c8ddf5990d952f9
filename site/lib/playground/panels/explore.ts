/**
 * The Explore panel: searches the running scenario's schedule space on a pool of workers of its
 * own (explore-pool.ts, loaded on the first Start), and shows, from the search's records alone,
 * its progress, a histogram of outcome classes and each rule broken with its count. Selecting a
 * class or a rule opens its smallest schedule as the page's run, through the permalink: the
 * fragment changes and the page replays it, as any link. When the search ends, each rule's
 * witness is shrunk as the CLI's is (a second Stop keeps the smallest schedule run instead).
 * Resume takes the last search of the same scenario up where it stopped: every schedule it ran
 * is kept (explore's `known`), so only the rest is run.
 */
import type { Exploration, Ran, ScheduleRecord, Witness } from '../../../../src/explore/index.ts';
import { choicesOf, compareChoices, permalinkOf, withSchedule, type MsRange, type Scenario } from '../../../../src/scenario/index.ts';
import { canonicalJson, grouped, plural } from '../../../../src/trace/index.ts';
import { byId, el } from '../dom.ts';
import type { Actions, Panel } from '../types.ts';

interface Search {
  /** The scenario searched: the running one without its own schedule. */
  scenario: Scenario;
  budget: number;
  records: ScheduleRecord[];
  /** Every schedule this search and the ones it takes up ran, for a Resume to take up in turn. */
  known: Map<string, Ran>;
  /** The schedules shown when Resume took up an earlier search (null for one Start began). */
  resumedAfter: number | null;
  state: 'running' | 'shrinking' | 'stopped' | 'done' | 'failed';
  /** Stop was pressed during the search (the shrinking after it may still run). */
  stopped: boolean;
  exploration: Exploration | null;
  /** Each rule's shrunk witness, once the shrinking ended; the rules without one open their smallest schedule run. */
  shrunk: Map<string, Witness>;
  /** Ends the shrinking (created when it starts). */
  shrinkController: AbortController | null;
  error: string | null;
  lanes: number;
  controller: AbortController;
  /** performance.now() when it started (a resumed search: set back by the time its stopped part took), and when it ended (null while it runs). */
  began: number;
  ended: number | null;
}

interface Row {
  li: HTMLLIElement;
  button: HTMLButtonElement;
  count: HTMLElement;
  bar: HTMLElement;
}

interface Bar {
  key: string;
  label: string;
  count: number;
  /** The smallest schedule with it, in the search's order of schedules. */
  smallest: ScheduleRecord;
}

function bars(records: readonly ScheduleRecord[], keysOf: (r: ScheduleRecord) => readonly string[], label: (key: string) => string): Bar[] {
  const byKey = new Map<string, Bar>();
  for (const r of records) {
    for (const key of keysOf(r)) {
      const bar = byKey.get(key);
      if (!bar) byKey.set(key, { key, label: label(key), count: 1, smallest: r });
      else {
        bar.count++;
        if (compareChoices(choicesOf(r.schedule), choicesOf(bar.smallest.schedule)) < 0) bar.smallest = r;
      }
    }
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** What a search found so far: its outcome classes and its rules broken (by judged schedules only). */
export function tally(records: readonly ScheduleRecord[]): { classes: Bar[]; rules: Bar[] } {
  const must = new Set(records.flatMap((r) => r.must));
  const judged = records.filter((r) => r.problem === undefined);
  return {
    classes: bars(records, (r) => [r.outcome], (key) => key),
    rules: bars(judged, (r) => r.violated, (rule) => `${rule} (${must.has(rule) ? 'MUST' : 'SHOULD'})`),
  };
}

/** A range around a latency, ten values or so: what "Add a latency range" declares. */
function rangeAround(ms: number): MsRange {
  const high = Math.max(20, ms * 2);
  const every = Math.max(1, Math.round(high / 10));
  return [every, high, every];
}

function shrunkText(s: Search): string {
  if (!s.records.some((r) => r.problem === undefined && r.violated.length > 0)) return '';
  return s.shrunk.size > 0 ? ' The rules broken open their shrunk witnesses.' : ' The rules broken open the smallest schedules run (not shrunk).';
}

function statusText(s: Search): string {
  const n = s.records.length;
  const distinct = new Set(s.records.map((r) => r.traceHash)).size;
  const seconds = ((s.ended ?? performance.now()) - s.began) / 1000;
  const traces = `${plural(distinct, 'distinct trace')}, in ${seconds.toFixed(1)} s`;
  switch (s.state) {
    case 'running': {
      const taken = s.resumedAfter === null ? '' : ` (taken up after ${grouped(s.resumedAfter)}: those are not run again)`;
      return `Exploring on ${plural(s.lanes, 'worker')}: ${grouped(n)} of ${plural(s.budget, 'schedule')}${taken}, ${traces}.`;
    }
    case 'shrinking':
      return `${s.stopped ? `Stopped at ${grouped(n)} of ${plural(s.budget, 'schedule')}` : `Ran ${plural(n, 'schedule')}`}; shrinking… the witnesses of the rules broken (Stop keeps them as run).`;
    case 'stopped':
      return `Stopped at ${grouped(n)} of ${plural(s.budget, 'schedule')}; ${traces}.${shrunkText(s)}`;
    case 'failed':
      return `The search failed: ${s.error ?? ''}`;
    case 'done': {
      const e = s.exploration;
      if (e?.exhausted === true) return `Searched the whole space: ${plural(n, 'schedule')}, ${traces}.${shrunkText(s)}`;
      const how = e?.strategy === 'random' ? `drawn at random (seed ${e.seed}) from a space too large to run whole` : 'in the exhaustive order, cut by the budget';
      return `${plural(n, 'schedule')} ${how}; ${traces}.${shrunkText(s)}`;
    }
  }
}

export function createExplorePanel(root: HTMLElement, actions: Actions): Panel {
  const spaceLine = byId<HTMLElement>(root, 'explore-space');
  const noSpace = byId<HTMLElement>(root, 'explore-no-space');
  const budgetInput = byId<HTMLInputElement>(root, 'explore-budget');
  const startButton = byId<HTMLButtonElement>(root, 'explore-start');
  const stopButton = byId<HTMLButtonElement>(root, 'explore-stop');
  const resumeButton = byId<HTMLButtonElement>(root, 'explore-resume');
  const progress = byId<HTMLProgressElement>(root, 'explore-progress');
  const status = byId<HTMLElement>(root, 'explore-status');
  const classList = byId<HTMLUListElement>(root, 'explore-classes');
  const ruleList = byId<HTMLUListElement>(root, 'explore-rules');
  const noRules = byId<HTMLElement>(root, 'explore-no-rules');
  let current: Scenario | null = null;
  let search: Search | null = null;
  let renderQueued = false;
  // The shown bar of each key, so a count that changes updates its row in place (a click on it is not lost).
  const rows = new Map<HTMLUListElement, Map<string, Row>>();

  function syncBars(list: HTMLUListElement, shown: readonly Bar[], total: number): void {
    const mine = rows.get(list) ?? new Map<string, Row>();
    rows.set(list, mine);
    for (const [key, row] of mine) {
      if (shown.some((b) => b.key === key)) continue;
      row.li.remove();
      mine.delete(key);
    }
    for (const [i, b] of shown.entries()) {
      let row = mine.get(b.key);
      if (!row) {
        const count = el('span', { className: 'count' });
        const bar = el('span', { className: 'bar' });
        const button = el('button', { type: 'button', title: 'Open its smallest schedule as the run' }, count, el('span', {}, b.label), bar);
        button.addEventListener('click', () => void openWitness(list, b.key));
        row = { li: el('li', {}, button), button, count, bar };
        row.li.dataset.key = b.key;
        mine.set(b.key, row);
      }
      row.count.textContent = String(b.count);
      row.button.setAttribute('aria-label', `${b.label}: ${plural(b.count, 'schedule')}`);
      row.bar.style.width = `${total === 0 ? 0 : (100 * b.count) / total}%`;
      if (list.children[i] !== row.li) list.insertBefore(row.li, list.children[i] ?? null);
    }
  }

  function render(): void {
    renderQueued = false;
    const s = search;
    const running = s?.state === 'running' || s?.state === 'shrinking';
    const space = current?.explore !== undefined && Object.keys(withSchedule(current, []).explore ?? {}).length > 0;
    startButton.disabled = running || !space;
    stopButton.disabled = !running;
    resumeButton.disabled = !s || running || s.state === 'failed' || (s.state === 'done' && s.exploration?.exhausted === true);
    if (!s) return;
    // A space smaller than the budget was all run: the bar is full.
    progress.max = s.state === 'done' && s.exploration?.exhausted === true ? Math.max(1, s.records.length) : s.budget;
    progress.value = s.records.length;
    status.textContent = statusText(s);
    const { classes, rules } = tally(s.records);
    syncBars(classList, classes, s.records.length);
    syncBars(ruleList, rules, s.records.length);
    noRules.hidden = rules.length > 0 || s.records.length === 0;
  }

  function queueRender(): void {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(render);
  }

  async function openWitness(list: HTMLUListElement, key: string): Promise<void> {
    if (!search) return;
    const { classes, rules } = tally(search.records);
    const bar = (list === classList ? classes : rules).find((b) => b.key === key);
    if (!bar) return;
    const shrunk = list === ruleList ? search.shrunk.get(key) : undefined;
    if (shrunk) {
      location.hash = shrunk.link;
      return;
    }
    const link = await permalinkOf(withSchedule(search.scenario, choicesOf(bar.smallest.schedule)), bar.smallest.traceHash);
    location.hash = link;
  }

  /** Starts a search of the running scenario; `resume` takes up the last one, when it searched the same scenario. */
  async function run(budget: number, resume: boolean): Promise<void> {
    if (!current) return;
    const { explorePool, poolSize } = await import('../../explore-pool.ts');
    const controller = new AbortController();
    const scenario = withSchedule(current, []);
    const earlier = resume && search !== null && canonicalJson(search.scenario) === canonicalJson(scenario) ? search : null;
    const known = earlier?.known ?? new Map<string, Ran>();
    // A resumed search's time counts the stopped part too: the summary's "in N s" is the whole search's.
    const spent = earlier === null ? 0 : (earlier.ended ?? performance.now()) - earlier.began;
    const s: Search = { scenario, budget, records: [], known, resumedAfter: earlier?.records.length ?? null, state: 'running', stopped: false, exploration: null, shrunk: new Map(), shrinkController: null, error: null, lanes: poolSize(), controller, began: performance.now() - spent, ended: null };
    search = s;
    for (const list of [classList, ruleList]) list.replaceChildren();
    rows.clear();
    queueRender();
    try {
      const found = await explorePool({
        scenario: s.scenario,
        budget,
        signal: controller.signal,
        known,
        onRecord(record) {
          s.records.push(record);
          queueRender();
        },
        onShrinking() {
          s.stopped = controller.signal.aborted;
          s.state = 'shrinking';
          s.shrinkController = new AbortController();
          queueRender();
          return s.shrinkController.signal;
        },
      });
      s.exploration = found.exploration;
      s.shrunk = found.shrunk;
      s.state = controller.signal.aborted ? 'stopped' : 'done';
    } catch (error) {
      s.state = controller.signal.aborted ? 'stopped' : 'failed';
      s.error = error instanceof Error ? error.message : String(error);
    }
    s.ended = performance.now();
    queueRender();
  }

  function budget(): number {
    const n = Math.floor(budgetInput.valueAsNumber);
    return Number.isFinite(n) && n >= 1 ? Math.min(n, 100_000) : 200;
  }

  startButton.addEventListener('click', () => void run(budget(), false));
  stopButton.addEventListener('click', () => (search?.state === 'shrinking' ? search.shrinkController : search?.controller)?.abort());
  resumeButton.addEventListener('click', () => {
    // A search that ran its whole budget goes on with twice as many, unless the user asked for more.
    if (search?.state === 'done' && budget() <= search.records.length) budgetInput.value = String(search.records.length * 2);
    void run(budget(), true);
  });
  byId<HTMLButtonElement>(root, 'explore-add-range').addEventListener('click', () => {
    if (!current) return;
    const { c2s, s2c } = current.latency;
    actions.runScenario({ ...current, explore: { ...current.explore, c2s: rangeAround(c2s), s2c: rangeAround(s2c) } });
  });

  return {
    update(_view, page) {
      current = page.live.scenario;
      const space = withSchedule(current, []).explore ?? {};
      const has = Object.keys(space).length > 0;
      noSpace.hidden = has;
      const schedule = current.explore?.schedule;
      const line = has
        ? `This scenario's space: ${JSON.stringify(space)}.${schedule === undefined ? '' : ` The run shown takes its schedule ${schedule}; the search starts from the default one.`}`
        : '';
      if (spaceLine.textContent === line) return;
      spaceLine.textContent = line;
      queueRender();
    },
  };
}
