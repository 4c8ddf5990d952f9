/**
 * The playground page: pickers and buttons become user actions; every panel is rendered from
 * the trace (src/views/derive.ts), never from what the page itself remembers.
 */
import {
  defaultScenario,
  REVISIONS,
  TRANSPORTS,
  TRANSPORT_LABEL,
  type HttpServerShape,
  type Revision,
  type Scenario,
  type TransportKind,
} from '../../src/scenario.ts';
import { transportWhyNot, whyNot } from '../../src/combinations.ts';
import { TOOLS, defaultArgs, type ToolSpec } from '../../src/tools.ts';
import { callViews, connectionLog, ledger, negotiated, traceErrors, wireRows, type CallView, type WireRow } from '../../src/views/derive.ts';
import type { TraceEvent } from '../../src/trace.ts';
import { createBrowserSides, type BrowserSides } from './browser-sides.ts';
import { MAX_LINK_LENGTH, decodeLink, encodeLink } from '../../src/permalink.ts';
import { traceHash } from '../../src/trace-hash.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/versions.ts';
import { LiveDriver } from './live-driver.ts';

declare global {
  interface Window {
    /** Figures the benchmark reads: ms from navigation start until both workers were connected. */
    __cancelLabMetrics?: { workersConnectedMs?: number };
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function byId<T extends HTMLElement>(root: HTMLElement, id: string): T {
  const node = root.querySelector<T>(`#${id}`);
  if (!node) throw new Error(`missing #${id}`);
  return node;
}

function wireRowElement(row: WireRow): HTMLTableRowElement {
  const summary = row.raw === '' ? `(no bytes: ${row.framing ?? 'empty frame'})` : row.raw.replace(/\n$/, '');
  let pretty = summary;
  if (row.msg) pretty = JSON.stringify(row.msg, null, 2);
  const details = el('details', {}, el('summary', {}, summary), el('pre', {}, pretty));
  const what = el('td', {}, row.what);
  if (row.injected) what.append(el('span', { className: 'badge', title: 'Forged by the user, not written by the SDK' }, 'injected'));
  const framing = el('td', {}, row.framing ?? '');
  if (row.headers.length > 0) framing.append(el('div', { className: 'headers' }, ...row.headers.map(([n, v]) => el('div', {}, `${n}: ${v}`))));
  const tr = el(
    'tr',
    { className: `${row.dir}${row.carriesMessage ? '' : ' framing-only'}` },
    el('td', { className: 'num' }, String(row.frame)),
    el('td', { className: 'num' }, String(row.sentAt)),
    el('td', { className: 'num delivered' }, row.deliveredAt === null ? 'in flight' : String(row.deliveredAt)),
    el('td', { className: 'dir' }, row.direction),
    el('td', { className: 'num' }, row.stream === null ? '—' : `#${row.stream}`),
    framing,
    what,
    el('td', { className: 'num' }, row.id),
    el('td', {}, details),
  );
  tr.dataset.frame = String(row.frame);
  return tr;
}

function stateCell(state: string | null, history: { t: number; to: string; because: string }[]): HTMLTableCellElement {
  const td = el('td');
  if (state === null) {
    td.append(el('span', { className: 'muted' }, 'not received yet'));
    return td;
  }
  td.append(el('span', { className: `state ${state}` }, state));
  const path = history.map((h) => `${h.t} ms ${h.to} (${h.because})`).join(' → ');
  td.append(el('div', { className: 'history' }, path));
  return td;
}

export function mountPlayground(root: HTMLElement): void {
  const revision = byId<HTMLSelectElement>(root, 'revision');
  const transport = byId<HTMLSelectElement>(root, 'transport');
  const httpServer = byId<HTMLSelectElement>(root, 'http-server');
  const httpServerField = byId<HTMLElement>(root, 'http-server-field');
  const unavailable = byId<HTMLUListElement>(root, 'unavailable');
  const connBody = root.querySelector('#connection-table tbody') as HTMLTableSectionElement;
  const connCount = byId<HTMLElement>(root, 'conn-count');
  const showFraming = byId<HTMLInputElement>(root, 'show-framing');
  const wireTable = byId<HTMLTableElement>(root, 'wire-table');
  const wireCaption = byId<HTMLElement>(root, 'wire-caption');
  const shareButton = byId<HTMLButtonElement>(root, 'share');
  const shareLink = byId<HTMLInputElement>(root, 'share-link');
  const copyLink = byId<HTMLButtonElement>(root, 'copy-link');
  const shareMessage = byId<HTMLElement>(root, 'share-message');
  const linkError = byId<HTMLElement>(root, 'link-error');
  const replayStatus = byId<HTMLElement>(root, 'replay-status');
  const latC2s = byId<HTMLInputElement>(root, 'lat-c2s');
  const latS2c = byId<HTMLInputElement>(root, 'lat-s2c');
  const restart = byId<HTMLButtonElement>(root, 'restart');
  const connStatus = byId<HTMLElement>(root, 'conn-status');
  const play = byId<HTMLButtonElement>(root, 'play');
  const stepButton = byId<HTMLButtonElement>(root, 'step');
  const speed = byId<HTMLSelectElement>(root, 'speed');
  const clock = byId<HTMLOutputElement>(root, 'clock');
  const nextEvent = byId<HTMLElement>(root, 'next-event');
  const form = byId<HTMLFormElement>(root, 'call-form');
  const toolSelect = byId<HTMLSelectElement>(root, 'tool');
  const toolArgs = byId<HTMLElement>(root, 'tool-args');
  const toolSummary = byId<HTMLElement>(root, 'tool-summary');
  const callButton = byId<HTMLButtonElement>(root, 'call');
  const callsBody = root.querySelector('#calls-table tbody') as HTMLTableSectionElement;
  const noCalls = byId<HTMLElement>(root, 'no-calls');
  const ledgerBody = root.querySelector('#ledger-table tbody') as HTMLTableSectionElement;
  const ledgerEmpty = byId<HTMLElement>(root, 'ledger-empty');
  const wireBody = root.querySelector('#wire-table tbody') as HTMLTableSectionElement;
  const errorsSection = root.querySelector('section.errors') as HTMLElement;
  const errorsList = byId<HTMLUListElement>(root, 'errors-list');

  let sides: BrowserSides | null = null;
  let running: Scenario = defaultScenario();
  let driver: LiveDriver | null = null;
  let callCounter = 0;
  const wireRowsShown = new Map<number, HTMLTableRowElement>();

  function currentTool(): ToolSpec {
    return TOOLS.find((t) => t.name === toolSelect.value) ?? (TOOLS[0] as ToolSpec);
  }

  function renderToolArgs(): void {
    const tool = currentTool();
    toolArgs.replaceChildren(
      ...tool.args.map((a) =>
        el(
          'div',
          { className: 'field' },
          el('label', { htmlFor: `arg-${a.name}` }, a.label),
          el('input', {
            id: `arg-${a.name}`,
            name: a.name,
            type: a.kind === 'number' ? 'number' : 'text',
            value: String(a.default),
            ...(a.kind === 'number' && { min: '0' }),
          }),
        ),
      ),
    );
    toolSummary.textContent = tool.summary;
  }

  function readArgs(): Record<string, unknown> {
    const tool = currentTool();
    const args: Record<string, unknown> = defaultArgs(tool);
    for (const a of tool.args) {
      const input = toolArgs.querySelector<HTMLInputElement>(`input[name="${a.name}"]`);
      if (!input) continue;
      args[a.name] = a.kind === 'number' ? Math.max(0, Math.round(Number(input.value) || 0)) : input.value;
    }
    return args;
  }

  function renderCalls(calls: CallView[]): void {
    noCalls.hidden = calls.length > 0;
    callsBody.replaceChildren(
      ...calls.map((c) => {
        const stop = el('button', { type: 'button', textContent: `Stop ${c.call}`, disabled: c.clientState !== 'RUNNING' });
        stop.addEventListener('click', () => void driver?.act({ type: 'stop', call: c.call }));
        const stopped = c.clientState === 'CANCEL_REQUESTED' || c.clientState === 'STOPPED_LOCALLY';
        const inject = el('button', {
          type: 'button',
          textContent: `Inject late result ${c.call}`,
          title: 'Forge a result for this request id, as a server that ignored the cancel would send',
          disabled: !stopped || c.requestId === null,
        });
        inject.addEventListener('click', () => void driver?.act({ type: 'inject-response', call: c.call, outcome: 'result' }));
        const late = el('td');
        if (c.lateResponses.length === 0) late.append(el('span', { className: 'muted' }, '—'));
        for (const l of c.lateResponses) late.append(el('div', {}, `${l.t} ms: ${l.because}`));
        const tr = el(
          'tr',
          {},
          el('th', { scope: 'row' }, c.call),
          el('td', {}, `${c.tool} ${JSON.stringify(c.args)}`),
          el('td', { className: 'num' }, c.requestId === null ? '—' : JSON.stringify(c.requestId)),
          stateCell(c.clientState, c.clientHistory),
          stateCell(c.serverState, c.serverHistory),
          el('td', { className: 'num' }, c.progress === null ? '—' : `${c.progress}${c.total === null ? '' : ` / ${c.total}`}`),
          late,
          el('td', { className: 'actions' }, stop, inject),
        );
        tr.dataset.call = c.call;
        return tr;
      }),
    );
  }

  function renderTrace(trace: readonly TraceEvent[]): void {
    for (const row of wireRows(trace)) {
      const shown = wireRowsShown.get(row.frame);
      if (!shown) {
        const tr = wireRowElement(row);
        wireRowsShown.set(row.frame, tr);
        wireBody.append(tr);
      } else if (row.deliveredAt !== null) {
        const cell = shown.querySelector('td.delivered');
        if (cell && cell.textContent !== String(row.deliveredAt)) cell.textContent = String(row.deliveredAt);
      }
    }
    renderCalls(callViews(trace));
    const entries = ledger(trace);
    ledgerEmpty.hidden = entries.length > 0;
    ledgerBody.replaceChildren(
      ...entries.map((e) =>
        el('tr', {}, el('td', { className: 'num' }, String(e.t)), el('td', {}, e.key), el('td', {}, e.value), el('td', { className: 'num' }, JSON.stringify(e.requestId))),
      ),
    );
    const connections = connectionLog(trace);
    connCount.textContent = String(connections.length);
    connBody.replaceChildren(
      ...connections.map((c) =>
        el(
          'tr',
          {},
          el('td', { className: 'num' }, String(c.t)),
          el('td', {}, c.event),
          el('td', { className: 'num' }, c.stream === null ? '—' : `#${c.stream}`),
          el('td', {}, c.by ?? '—'),
          el('td', {}, c.detail),
        ),
      ),
    );
    const agreed = negotiated(trace);
    if (agreed) {
      connStatus.textContent = `Connected: negotiated protocol version ${agreed.protocolVersion} (${agreed.era} era) at t = ${agreed.t} ms, over ${TRANSPORT_LABEL[running.transport]}${running.transport === 'streamable-http' ? ` (${running.httpServer === 'sessionful' && running.revision !== '2026-07-28' ? 'sessionful' : 'createMcpHandler'} server)` : ''}.`;
      if (window.__cancelLabMetrics?.workersConnectedMs === undefined) {
        window.__cancelLabMetrics = { workersConnectedMs: performance.now() };
      }
      root.dataset.ready = 'true';
    }
    const errors = traceErrors(trace);
    errorsSection.hidden = errors.length === 0;
    errorsList.replaceChildren(...errors.map((e) => el('li', {}, `${e.t} ms: ${e.message}`)));
  }

  function renderClock(): void {
    if (!driver) return;
    clock.textContent = `t = ${driver.now} ms`;
    play.textContent = driver.isPlaying ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', String(driver.isPlaying));
    const next = driver.run.nextEventTime();
    nextEvent.textContent = next === null ? 'nothing scheduled' : `next event at ${next} ms`;
  }

  /** Disables what the SDK cannot make with the chosen revision, each with its one-line reason. */
  function syncPickers(): void {
    const rev = (REVISIONS.find((r) => r === revision.value) ?? '2025-11-25') as Revision;
    const reasons: string[] = [];
    for (const option of transport.options) {
      const reason = transportWhyNot(rev, option.value as TransportKind);
      option.disabled = reason !== null;
      option.textContent = TRANSPORT_LABEL[option.value as TransportKind] + (reason ? ' (unavailable)' : '');
      if (reason) reasons.push(`${TRANSPORT_LABEL[option.value as TransportKind]}: ${reason}`);
    }
    if (transport.selectedOptions[0]?.disabled) transport.value = 'stdio';
    const shapes = transport.value === 'streamable-http';
    httpServerField.hidden = !shapes;
    for (const option of httpServer.options) {
      const reason = whyNot(rev, 'streamable-http', option.value as HttpServerShape);
      option.disabled = reason !== null;
      if (shapes && reason) reasons.push(`${option.textContent ?? ''}: ${reason}`);
    }
    if (httpServer.selectedOptions[0]?.disabled) httpServer.value = 'stateless';
    unavailable.replaceChildren(...reasons.map((r) => el('li', {}, r)));
  }

  function scenarioFromPickers(): Scenario {
    const scenario = defaultScenario();
    const chosen = REVISIONS.find((r) => r === revision.value) as Revision | undefined;
    if (chosen) scenario.revision = chosen;
    scenario.transport = (TRANSPORTS.find((t) => t === transport.value) ?? 'stdio') as TransportKind;
    scenario.httpServer = httpServer.value === 'stateless' ? 'stateless' : 'sessionful';
    scenario.latency = { c2s: Math.max(0, Math.round(Number(latC2s.value) || 0)), s2c: Math.max(0, Math.round(Number(latS2c.value) || 0)) };
    // Live runs have no natural end; the scenario's end only bounds headless replays.
    scenario.endAt = Number.MAX_SAFE_INTEGER;
    return scenario;
  }

  /** Sets the pickers from a scenario (a link being opened). */
  function showScenario(scenario: Scenario): void {
    revision.value = scenario.revision;
    transport.value = scenario.transport;
    httpServer.value = scenario.httpServer;
    latC2s.value = String(scenario.latency.c2s);
    latS2c.value = String(scenario.latency.s2c);
    syncPickers();
  }

  async function start(from?: Scenario): Promise<void> {
    driver?.dispose();
    root.dataset.ready = 'false';
    wireBody.replaceChildren();
    wireRowsShown.clear();
    callCounter = 0;
    connStatus.textContent = 'Starting the client and server workers…';
    sides ??= createBrowserSides();
    running = from ?? scenarioFromPickers();
    callCounter = Math.max(0, ...running.steps.map((st) => (st.action.type === 'call' ? Number(/^#(\d+)$/.exec(st.action.call)?.[1] ?? 0) : 0)));
    wireCaption.textContent =
      running.transport === 'stdio'
        ? 'Every frame on the simulated stdio wire: one newline-delimited JSON-RPC message per line.'
        : 'Every frame on the simulated HTTP wire: requests, response heads, body chunks (SSE events or JSON), ends and aborts, by stream.';
    try {
      const d = await LiveDriver.start(
        running,
        sides,
        () => renderTrace(d.run.trace),
        () => renderClock(),
      );
      driver = d;
      renderTrace(d.run.trace);
      if (from) await d.replay();
      else d.play();
    } catch (error) {
      connStatus.textContent = `The workers could not start: ${String(error)}`;
    }
  }

  renderToolArgs();
  toolSelect.addEventListener('change', renderToolArgs);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!driver) return;
    callCounter++;
    const call = `#${callCounter}`;
    void driver.act({ type: 'call', call, tool: currentTool().name, args: readArgs() });
  });
  play.addEventListener('click', () => (driver?.isPlaying ? driver.pause() : driver?.play()));
  stepButton.addEventListener('click', () => void driver?.step());
  speed.addEventListener('change', () => driver?.setSpeed(Number(speed.value)));
  /** A run the user starts by hand is no longer the one in the link. */
  function forgetLink(): void {
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  }

  restart.addEventListener('click', () => {
    forgetLink();
    void start();
  });

  async function share(): Promise<void> {
    if (!driver) return;
    await driver.settle();
    const scenario: Scenario = { ...running, steps: [...driver.steps], endAt: driver.now };
    const link = await encodeLink(scenario, { engine: ENGINE_VERSION, sdk: SDK_VERSION, trace: await traceHash(driver.run.trace) });
    const url = `${location.origin}${location.pathname}#${link}`;
    if (url.length > MAX_LINK_LENGTH) {
      shareLink.value = '';
      copyLink.disabled = true;
      shareMessage.textContent = `This run's link would be ${url.length} characters, over the ${MAX_LINK_LENGTH} that survive in bug trackers and chat. Download the scenario as a file instead.`;
      downloadScenario(scenario);
      return;
    }
    history.replaceState(null, '', `#${link}`);
    shareLink.value = url;
    copyLink.disabled = false;
    shareMessage.textContent = `Link ready (${url.length} characters): it replays these ${scenario.steps.length} actions up to t = ${scenario.endAt} ms.`;
  }

  function downloadScenario(scenario: Scenario): void {
    const a = el('a', { href: URL.createObjectURL(new Blob([JSON.stringify(scenario, null, 2)], { type: 'application/json' })), download: 'scenario.json', textContent: 'Download scenario.json' });
    shareMessage.append(' ', a);
  }

  shareButton.addEventListener('click', () => void share());
  copyLink.addEventListener('click', () => {
    void navigator.clipboard.writeText(shareLink.value).then(
      () => (shareMessage.textContent = 'Link copied.'),
      () => (shareMessage.textContent = 'The browser refused the clipboard; select the link and copy it by hand.'),
    );
  });

  /** Opens the link in the fragment, if any: replays it, or says why it cannot, leaving the playground as it was. */
  async function openLink(): Promise<boolean> {
    if (location.hash.length <= 1) return false;
    const decoded = await decodeLink(location.hash);
    if (!decoded.ok) {
      linkError.hidden = false;
      linkError.textContent = `This link could not be opened. ${decoded.error} The playground below starts empty instead.`;
      return false;
    }
    showScenario(decoded.scenario);
    await start(decoded.scenario);
    if (!driver) return true;
    const now = await traceHash(driver.run.trace);
    replayStatus.hidden = false;
    const recorded = decoded.meta;
    if (!recorded) {
      replayStatus.textContent = `Replayed ${decoded.scenario.steps.length} actions (trace ${now}); the link recorded no trace to compare with.`;
    } else if (recorded.trace === now) {
      replayStatus.replaceChildren(el('span', { className: 'reproduced' }, 'Reproduced exactly'), ` — trace ${now}, engine ${ENGINE_VERSION}, SDK ${SDK_VERSION}.`);
    } else {
      replayStatus.replaceChildren(
        el('span', { className: 'differs' }, 'The trace differs from the recorded one'),
        ` — recorded ${recorded.trace} with engine ${recorded.engine} and SDK ${recorded.sdk}; now ${now} with engine ${ENGINE_VERSION} and SDK ${SDK_VERSION}.`,
      );
    }
    return true;
  }
  for (const picker of [revision, transport, httpServer, latC2s, latS2c]) {
    picker.addEventListener('change', () => {
      syncPickers();
      forgetLink();
      void start();
    });
  }
  showFraming.addEventListener('change', () => wireTable.classList.toggle('messages-only', !showFraming.checked));
  syncPickers();
  void openLink().then((opened) => (opened ? undefined : start()));
}
