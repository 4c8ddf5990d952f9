/**
 * The playground page: pickers and buttons become user actions; every panel is rendered from
 * the trace (src/views/derive.ts), never from what the page itself remembers.
 */
import {
  CLIENT_PROFILES,
  defaultScenario,
  REVISIONS,
  SERVER_PROFILES,
  TRANSPORTS,
  TRANSPORT_LABEL,
  type ClientProfile,
  type HttpServerShape,
  type Revision,
  type Scenario,
  type ServerProfile,
  type TransportKind,
  type WireFault,
} from '../../src/scenario/index.ts';
import { CLIENT_PROFILE_INFO, SERVER_PROFILE_INFO, profileWhyNot, type ProfileInfo } from '../../src/scenario/index.ts';
import { settingLine, transportWhyNot, whyNot } from '../../src/scenario/index.ts';
import { TOOLS, defaultArgs, type ToolSpec } from '../../src/scenario/index.ts';
import { callViews, connectionLog, ledger, negotiated, sideLogs, traceErrors, wireRows, type CallView, type WireRow } from '../../src/views/index.ts';
import { serializeTrace, type Target, type TraceEvent } from '../../src/trace/index.ts';
import { CATALOG, clauseFor, ruleById } from '../../src/rules/index.ts';
import { checkRun, type Finding } from '../../src/rules/index.ts';
import { toChecksJson } from '../../src/report/index.ts';
import { createBrowserSides, type BrowserSides } from './browser-sides.ts';
import { MAX_LINK_LENGTH, decodeLink, permalinkOf } from '../../src/scenario/index.ts';
import { traceHash } from '../../src/trace/index.ts';
import { ENGINE_VERSION, SDK_VERSION } from '../../src/scenario/index.ts';
import { LiveDriver } from './live-driver.ts';
import { DiagramsPanel } from './diagrams.ts';
import { saveFile } from './save-file.ts';
import type { ScenarioEditor } from './editor.ts';
import { bugReport } from '../../src/report/index.ts';

declare global {
  interface Window {
    /** Figures the benchmark reads: ms from navigation start until both workers were connected. */
    __cancelLabMetrics?: { workersConnectedMs?: number; sequenceRenderMs?: number; sequenceMessages?: number };
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
  const summary = row.raw === '' ? `(no bytes: ${row.framing ?? (row.eof ? 'end of stream' : 'empty frame')})` : row.raw.replace(/\n$/, '');
  let pretty = summary;
  if (row.msg) pretty = JSON.stringify(row.msg, null, 2);
  const details = el('details', {}, el('summary', {}, summary), el('pre', {}, pretty));
  const what = el('td', { className: 'what' }, row.what);
  if (row.injected) what.append(el('span', { className: 'badge', title: 'Forged by the user, not written by the SDK' }, 'injected'));
  if (row.fault) what.append(el('span', { className: 'badge', title: 'A wire fault the user set' }, row.fault));
  const framing = el('td', {}, row.framing ?? '');
  if (row.headers.length > 0) framing.append(el('div', { className: 'headers' }, ...row.headers.map(([n, v]) => el('div', {}, `${n}: ${v}`))));
  const tr = el(
    'tr',
    { className: `${row.dir}${row.carriesMessage ? '' : ' framing-only'}` },
    el('td', { className: 'num' }, String(row.frame)),
    el('td', { className: 'num' }, String(row.sentAt)),
    el('td', { className: 'num delivered' }, deliveredText(row)),
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

function deliveredText(row: WireRow): string {
  if (row.droppedBecause !== null) return `never (${row.droppedBecause})`;
  if (row.deliveredAt !== null) return String(row.deliveredAt);
  if (row.fault === 'dropped') return 'never (dropped)';
  if (row.fault === 'held' && row.deliverAt === null) return 'held';
  return 'in flight';
}

function stateCell(state: string | null, history: { t: number; to: string; because: string }[]): HTMLTableCellElement {
  const td = el('td');
  if (state === null) {
    td.append(el('span', { className: 'muted' }, 'not received yet'));
    return td;
  }
  td.append(el('span', { className: `state ${state.replace(/ /g, '-')}` }, state));
  td.append(
    el(
      'details',
      { className: 'history' },
      el('summary', {}, `${history.length} changes`),
      el('ol', {}, ...history.map((h) => el('li', {}, `${h.t} ms ${h.to} (${h.because})`))),
    ),
  );
  return td;
}

export function mountPlayground(root: HTMLElement): void {
  const revision = byId<HTMLSelectElement>(root, 'revision');
  const serverProfile = byId<HTMLSelectElement>(root, 'server-profile');
  const clientProfile = byId<HTMLSelectElement>(root, 'client-profile');
  const profileNotes = byId<HTMLElement>(root, 'profile-notes');
  const target = byId<HTMLSelectElement>(root, 'target');
  const targetId = byId<HTMLInputElement>(root, 'target-id');
  const clientLog = byId<HTMLElement>(root, 'client-log');
  const serverLog = byId<HTMLElement>(root, 'server-log');
  const faultList = byId<HTMLUListElement>(root, 'fault-list');
  const faultCount = byId<HTMLElement>(root, 'fault-count');
  const diagrams = new DiagramsPanel({
    section: root.querySelector('section.diagrams') as HTMLElement,
    subject: byId<HTMLSelectElement>(root, 'diagram-subject'),
    position: byId<HTMLInputElement>(root, 'diagram-position'),
    positionLabel: byId<HTMLElement>(root, 'diagram-position-label'),
    stateView: byId<HTMLElement>(root, 'state-diagram'),
    sequenceView: byId<HTMLElement>(root, 'sequence-diagram'),
    copyState: byId<HTMLButtonElement>(root, 'copy-state'),
    copySequence: byId<HTMLButtonElement>(root, 'copy-sequence'),
    downloadState: byId<HTMLButtonElement>(root, 'download-state'),
    downloadSequence: byId<HTMLButtonElement>(root, 'download-sequence'),
    status: byId<HTMLElement>(root, 'diagram-status'),
  });
  const verdictCounts = byId<HTMLElement>(root, 'verdict-counts');
  const findingsList = byId<HTMLUListElement>(root, 'findings');
  const showAllFindings = byId<HTMLInputElement>(root, 'show-all-findings');
  const holdButtons = { c2s: byId<HTMLButtonElement>(root, 'hold-c2s'), s2c: byId<HTMLButtonElement>(root, 'hold-s2c') };
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
  const callsBody = root.querySelector('#calls-table tbody') as HTMLTableSectionElement;
  const noCalls = byId<HTMLElement>(root, 'no-calls');
  const ledgerBody = root.querySelector('#ledger-table tbody') as HTMLTableSectionElement;
  const ledgerEmpty = byId<HTMLElement>(root, 'ledger-empty');
  const wireBody = root.querySelector('#wire-table tbody') as HTMLTableSectionElement;
  const errorsSection = root.querySelector('section.errors') as HTMLElement;
  const errorsList = byId<HTMLUListElement>(root, 'errors-list');

  // The workers start loading first: their scripts download and compile while the page sets up.
  let sides: BrowserSides | null = createBrowserSides();
  let running: Scenario = defaultScenario();
  let renderQueued = false;
  let replaying = false;
  let faults: WireFault[] = [];
  const holding = { c2s: false, s2c: false };
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
          a.kind === 'choice'
            ? el(
                'select',
                { id: `arg-${a.name}`, name: a.name },
                ...(a.choices ?? []).map((c) => el('option', { value: c, textContent: c, selected: c === a.default })),
              )
            : el('input', {
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
      const input = toolArgs.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${a.name}"]`);
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
        if (c.lost) late.append(el('div', { className: 'lost' }, `lost with its connection (${c.outcome ?? ''})`));
        if (c.lateResponses.length === 0 && !c.lost) late.append(el('span', { className: 'muted' }, '—'));
        for (const l of c.lateResponses) late.append(el('div', {}, `${l.t} ms: ${l.because}`));
        const tr = el(
          'tr',
          {},
          el('th', { scope: 'row' }, c.call),
          el('td', { className: 'tool' }, c.tool, el('div', { className: 'args' }, JSON.stringify(c.args))),
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
    // Each view is derived once per paint and handed to the panels that need it.
    const rows = wireRows(trace);
    const calls = callViews(trace);
    for (const row of rows) {
      const shown = wireRowsShown.get(row.frame);
      if (!shown) {
        const tr = wireRowElement(row);
        wireRowsShown.set(row.frame, tr);
        wireBody.append(tr);
      } else {
        const cell = shown.querySelector('td.delivered');
        const text = deliveredText(row);
        if (cell && cell.textContent !== text) cell.textContent = text;
      }
    }
    renderCalls(calls);
    renderFindings(trace, rows);
    syncEditor();
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
      connStatus.textContent = `Connected: negotiated protocol version ${agreed.protocolVersion} (${agreed.era} era) at t = ${agreed.t} ms, over ${settingLine(running)}.`;
      if (window.__cancelLabMetrics?.workersConnectedMs === undefined) {
        window.__cancelLabMetrics = { ...window.__cancelLabMetrics, workersConnectedMs: performance.now() };
      }
      root.dataset.ready = 'true';
    }
    const logs = sideLogs(trace);
    for (const [side, pre] of [['client', clientLog], ['server', serverLog]] as const) {
      const text = logs
        .filter((l) => l.side === side)
        .map((l) => `${l.t} ms  ${l.text}${l.source ? `  (${l.source})` : ''}`)
        .join('\n');
      if (pre.textContent !== text) pre.textContent = text;
    }
    renderTargets(calls);
    const errors = traceErrors(trace);
    errorsSection.hidden = errors.length === 0;
    errorsList.replaceChildren(...errors.map((e) => el('li', {}, `${e.t} ms: ${e.message}`)));
  }

  let findings: Finding[] = [];
  let openFinding: string | null = null;

  /**
   * A finding worth a badge: a violation, or a race the spec allows (a MUST/SHOULD rule judged
   * info because of timing) — not the descriptive info rules, which every cancel satisfies.
   */
  function notable(f: Finding): boolean {
    if (f.verdict === 'violated') return true;
    if (f.severity !== 'info' || f.verdict !== 'satisfied' || f.witnesses.length === 0) return false;
    const rule = ruleById(f.rule);
    return rule !== undefined && clauseFor(rule, running.revision, running.transport)?.keyword !== 'info';
  }

  function findingKey(f: Finding): string {
    return `${f.rule}@${f.witnesses.join(',')}`;
  }

  function renderFindings(trace: readonly TraceEvent[], rows: WireRow[] = wireRows(trace)): void {
    findings = checkRun(running, trace);
    const violated = (sev: string) => findings.filter((f) => f.verdict === 'violated' && f.severity === sev).length;
    const races = findings.filter((f) => f.severity === 'info' && f.witnesses.length > 0).length;
    verdictCounts.textContent = `${violated('error')} errors (MUST broken) · ${violated('warning')} warnings (SHOULD not followed) · ${races} allowed races and open points (info) · ${findings.filter((f) => f.verdict === 'satisfied').length} rules satisfied · ${findings.filter((f) => f.verdict === 'cannot-tell').length} can’t tell from this trace`;
    const shown = findings.filter((f) => showAllFindings.checked || notable(f));
    const rank = (f: Finding) => (f.verdict === 'violated' ? { error: 0, warning: 1, info: 2 }[f.severity] : 3);
    shown.sort((a, b) => rank(a) - rank(b));
    findingsList.replaceChildren(
      ...shown.map((f) => {
        const rule = ruleById(f.rule);
        const clause = rule ? clauseFor(rule, running.revision, running.transport) : undefined;
        const key = findingKey(f);
        const details = el(
          'details',
          { open: openFinding === key },
          el(
            'summary',
            {},
            el('span', { className: `sev-${f.severity}` }, `${f.verdict === 'violated' ? f.severity : f.verdict === 'satisfied' && f.severity === 'info' ? 'info' : f.verdict}`),
            ` ${f.rule} — ${rule?.name ?? ''}`,
          ),
          el('p', {}, f.why),
          ...(clause
            ? [
                el('blockquote', {}, `${clause.keyword}: “${clause.quote}”`),
                el('a', { href: clause.source.url, rel: 'noopener', target: '_blank' }, `${clause.source.path}:${clause.source.lines[0]}-${clause.source.lines[1]}`),
              ]
            : []),
          el('p', { className: 'muted' }, f.witnesses.length ? `Witnesses: trace events ${f.witnesses.join(', ')}` : 'No single event witnesses it.'),
        );
        details.addEventListener('toggle', () => {
          openFinding = details.open ? key : openFinding === key ? null : openFinding;
          highlight(details.open ? f.witnesses : []);
        });
        const li = el('li', {}, details);
        li.dataset.rule = f.rule;
        return li;
      }),
    );
    badgeRows(rows);
    diagrams.update(
      trace,
      findings.filter(notable).map((f) => ({ witnesses: f.witnesses, rule: f.rule, severity: f.verdict === 'violated' ? f.severity : 'info' })),
    );
  }

  /** Badges on the wire-log rows that witness a notable finding. */
  function badgeRows(rows: readonly WireRow[]): void {
    const bySeq = new Map<number, Finding[]>();
    for (const f of findings.filter(notable)) for (const seq of f.witnesses) bySeq.set(seq, [...(bySeq.get(seq) ?? []), f]);
    for (const row of rows) {
      const tr = wireRowsShown.get(row.frame);
      const cell = tr?.querySelector('td.what');
      if (!tr || !cell) continue;
      const fs = [...(bySeq.get(row.seq) ?? []), ...(row.deliverySeq === null ? [] : (bySeq.get(row.deliverySeq) ?? []))];
      const wanted = [...new Set(fs.map((f) => `${f.verdict === 'violated' ? f.severity : 'info'}:${f.rule}`))];
      const have = [...cell.querySelectorAll<HTMLElement>('.rule-badge')].map((b) => b.dataset.key ?? '');
      if (wanted.join('|') === have.join('|')) continue;
      for (const b of cell.querySelectorAll('.rule-badge')) b.remove();
      for (const k of wanted) {
        const [sev, rule] = k.split(':') as [string, string];
        const badge = el('span', { className: `badge rule-badge sev-${sev}`, title: `${sev}: ${rule}` }, `${sev === 'error' ? '✖' : sev === 'warning' ? '⚠' : 'ℹ'} ${rule}`);
        badge.dataset.key = k;
        cell.append(badge);
      }
    }
  }

  function highlight(witnesses: number[]): void {
    const set = new Set(witnesses);
    let first: HTMLTableRowElement | null = null;
    for (const [, tr] of wireRowsShown) tr.classList.remove('highlight');
    if (!driver) return;
    for (const row of wireRows(driver.run.trace)) {
      if (!set.has(row.seq) && (row.deliverySeq === null || !set.has(row.deliverySeq))) continue;
      const tr = wireRowsShown.get(row.frame);
      tr?.classList.add('highlight');
      first ??= tr ?? null;
    }
    first?.scrollIntoView({ block: 'nearest' });
  }

  function renderTargets(calls: CallView[]): void {
    const wanted = [
      ...calls.filter((c) => c.requestId !== null).map((c) => [`call:${c.call}`, `call ${c.call} (id ${JSON.stringify(c.requestId)})`]),
      ['initialize', 'initialize'],
      ['any', 'any id (below)'],
    ];
    const have = [...target.options].map((o) => o.value).join('|');
    if (have === wanted.map(([v]) => v).join('|')) return;
    const selected = target.value;
    target.replaceChildren(...wanted.map(([value, label]) => el('option', { value: value ?? '', textContent: label ?? '' })));
    if (wanted.some(([v]) => v === selected)) target.value = selected;
  }

  function chosenTarget(): Target {
    if (target.value === 'initialize') return { initialize: true };
    if (target.value.startsWith('call:')) return { call: target.value.slice(5) };
    const raw = targetId.value.trim();
    return { requestId: /^-?\d+$/.test(raw) ? Number(raw) : raw };
  }

  function describeProfile<P extends string>(role: string, info: ProfileInfo<P>): HTMLElement {
    return el(
      'details',
      { className: info.emulated ? 'emulated' : 'real' },
      el('summary', {}, `${role}: ${info.label}${info.emulated ? ` — ${info.differences.length} differences from the real SDK, with sources` : ''}`),
      el('ul', {}, ...info.differences.map((d) => el('li', {}, d))),
      el('div', {}, 'Follows: ', ...info.sources.flatMap((src, i) => [i > 0 ? ' · ' : '', el('a', { href: src.url, rel: 'noopener', target: '_blank' }, src.label)])),
    );
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
    const tr = transport.value as TransportKind;
    for (const option of serverProfile.options) {
      const reason = profileWhyNot(rev, tr, option.value as ServerProfile, 'ts-v2');
      option.disabled = reason !== null;
      if (reason) reasons.push(`${SERVER_PROFILE_INFO[option.value as ServerProfile].label}: ${reason}`);
    }
    if (serverProfile.selectedOptions[0]?.disabled) serverProfile.value = 'ts-v2';
    for (const option of clientProfile.options) {
      const reason = profileWhyNot(rev, tr, serverProfile.value as ServerProfile, option.value as ClientProfile);
      option.disabled = reason !== null;
      if (reason) reasons.push(`${CLIENT_PROFILE_INFO[option.value as ClientProfile].label}: ${reason}`);
    }
    if (clientProfile.selectedOptions[0]?.disabled) clientProfile.value = 'ts-v2';
    unavailable.replaceChildren(...reasons.map((r) => el('li', {}, r)));
    profileNotes.replaceChildren(
      describeProfile('Server', SERVER_PROFILE_INFO[serverProfile.value as ServerProfile]),
      describeProfile('Client', CLIENT_PROFILE_INFO[clientProfile.value as ClientProfile]),
    );
  }

  function scenarioFromPickers(): Scenario {
    const scenario = defaultScenario();
    const chosen = REVISIONS.find((r) => r === revision.value) as Revision | undefined;
    if (chosen) scenario.revision = chosen;
    scenario.transport = (TRANSPORTS.find((t) => t === transport.value) ?? 'stdio') as TransportKind;
    scenario.httpServer = httpServer.value === 'stateless' ? 'stateless' : 'sessionful';
    scenario.serverProfile = (SERVER_PROFILES.find((p) => p === serverProfile.value) ?? 'ts-v2') as ServerProfile;
    scenario.clientProfile = (CLIENT_PROFILES.find((p) => p === clientProfile.value) ?? 'ts-v2') as ClientProfile;
    if (faults.length > 0) scenario.faults = [...faults];
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
    serverProfile.value = scenario.serverProfile ?? 'ts-v2';
    clientProfile.value = scenario.clientProfile ?? 'ts-v2';
    faults = [...(scenario.faults ?? [])];
    latC2s.value = String(scenario.latency.c2s);
    latS2c.value = String(scenario.latency.s2c);
    syncPickers();
  }

  /** Starts are queued: each waits for the previous run to let go of the workers. */
  let starting: Promise<void> = Promise.resolve();
  function start(from?: Scenario): Promise<void> {
    starting = starting.then(() => startNow(from));
    return starting;
  }

  async function startNow(from?: Scenario): Promise<void> {
    const previous = driver;
    // Until the new run exists, clicks have nowhere to go (not to the old, disposed run).
    driver = null;
    await previous?.dispose();
    root.dataset.ready = 'false';
    wireBody.replaceChildren();
    wireRowsShown.clear();
    callCounter = 0;
    connStatus.textContent = 'Starting the client and server workers…';
    sides ??= createBrowserSides();
    running = from ?? scenarioFromPickers();
    holding.c2s = false;
    holding.s2c = false;
    for (const [dir, button] of Object.entries(holdButtons)) {
      button.textContent = `Hold ${dir === 'c2s' ? 'client → server' : 'server → client'}`;
      button.setAttribute('aria-pressed', 'false');
    }
    renderFaults();
    callCounter = Math.max(0, ...running.steps.map((st) => (st.action.type === 'call' ? Number(/^#(\d+)$/.exec(st.action.call)?.[1] ?? 0) : 0)));
    wireCaption.textContent =
      running.transport === 'stdio'
        ? 'Every frame on the simulated stdio wire: one newline-delimited JSON-RPC message per line.'
        : 'Every frame on the simulated HTTP wire: requests, response heads, body chunks (SSE events or JSON), ends and aborts, by stream.';
    try {
      const d = await LiveDriver.start(
        running,
        sides,
        // A run that was replaced while it stepped must not paint over its successor; and a
        // fast replay paints once per frame, not once per event.
        () => {
          if (renderQueued || replaying) return;
          renderQueued = true;
          requestAnimationFrame(() => {
            renderQueued = false;
            if (driver === d) renderTrace(d.run.trace);
          });
        },
        () => {
          if (driver === d) renderClock();
        },
      );
      driver = d;
      renderTrace(d.run.trace);
      if (from) {
        // A replay runs as fast as the engine goes; the page is painted once, at the end.
        replaying = true;
        connStatus.textContent = `Replaying the link's ${from.steps.length} actions…`;
        try {
          await d.replay();
        } finally {
          replaying = false;
        }
        renderTrace(d.run.trace);
      } else d.play();
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
    const scenario = currentScenario();
    const link = await permalinkOf(scenario, await traceHash(driver.run.trace));
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
    const snippet = byId<HTMLTextAreaElement>(root, 'embed-snippet');
    snippet.value = `<iframe src="${location.origin}/embed/?theme=light&height=520#${link}" title="MCP Cancel Lab scenario" width="100%" height="520" style="border:0" loading="lazy"></iframe>`;
    byId<HTMLElement>(root, 'embed-snippet-field').hidden = false;
    copyLink.disabled = false;
    shareMessage.textContent = `Link ready (${url.length} characters): it replays these ${scenario.steps.length} actions up to t = ${scenario.endAt} ms.`;
  }

  function downloadScenario(scenario: Scenario): void {
    const a = el('a', { href: URL.createObjectURL(new Blob([JSON.stringify(scenario, null, 2)], { type: 'application/json' })), download: 'scenario.json', textContent: 'Download scenario.json' });
    shareMessage.append(' ', a);
  }

  shareButton.addEventListener('click', () => void share());
  /** The run as a scenario: the pickers, and every action so far at its virtual ms. */
  function currentScenario(): Scenario {
    return { ...running, steps: [...(driver?.steps ?? running.steps)], endAt: driver?.now ?? running.endAt };
  }

  const editorDetails = byId<HTMLDetailsElement>(root, 'editor-details');
  const editorErrors = byId<HTMLUListElement>(root, 'editor-errors');
  let editor: ScenarioEditor | null = null;
  let editorFocused = false;
  /** The editor follows the run, except while the user is typing in it. */
  function syncEditor(): void {
    if (editor && !editorFocused) editor.set(currentScenario());
  }
  editorDetails.addEventListener('toggle', () => {
    if (!editorDetails.open || editor) return;
    void import('./editor.ts').then(({ createEditor }) => {
      const host = byId<HTMLElement>(root, 'scenario-editor');
      editor = createEditor(host);
      host.addEventListener('focusin', () => (editorFocused = true));
      host.addEventListener('focusout', () => (editorFocused = false));
      syncEditor();
    });
  });
  byId<HTMLButtonElement>(root, 'run-scenario').addEventListener('click', () => {
    if (!editor) return;
    const read = editor.read();
    if (!read.ok) {
      editorErrors.replaceChildren(...read.errors.map((e) => el('li', {}, e)));
      return;
    }
    editorErrors.replaceChildren();
    forgetLink();
    editorFocused = false;
    showScenario(read.scenario);
    void start(read.scenario);
  });

  byId<HTMLButtonElement>(root, 'copy-report').addEventListener('click', () => {
    if (!driver) return;
    const d = driver;
    void (async () => {
      await d.settle();
      const scenario = currentScenario();
      const hash = await traceHash(d.run.trace);
      const link = `${location.origin}${location.pathname}#${await permalinkOf(scenario, hash)}`;
      const markdown = bugReport({
        scenario,
        trace: d.run.trace,
        findings: checkRun(scenario, d.run.trace),
        link: link.length <= MAX_LINK_LENGTH ? link : null,
        traceHash: hash,
      });
      try {
        await navigator.clipboard.writeText(markdown);
        shareMessage.textContent = `Bug report copied (${markdown.length} characters of Markdown).`;
      } catch {
        shareMessage.textContent = 'The browser refused the clipboard.';
      }
    })();
  });

  // Keyboard shortcuts (listed in the dialog): never while the user types in a field.
  const shortcutsDialog = byId<HTMLDialogElement>(root, 'shortcuts-dialog');
  byId<HTMLButtonElement>(root, 'shortcuts').addEventListener('click', () => shortcutsDialog.showModal());
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, select, textarea, [contenteditable="true"], .cm-editor, dialog')) return;
    const running = callViews(driver?.run.trace ?? []).filter((c) => c.clientState === 'RUNNING');
    switch (event.key) {
      case 'c':
        form.requestSubmit();
        break;
      case 's': {
        const newest = running.at(-1);
        if (newest) void driver?.act({ type: 'stop', call: newest.call });
        break;
      }
      case 'n':
        void driver?.step();
        break;
      case 'p':
      case ' ':
        if (driver?.isPlaying) driver.pause();
        else driver?.play();
        break;
      case '?':
        shortcutsDialog.showModal();
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  showAllFindings.addEventListener('change', () => driver && renderFindings(driver.run.trace));
  byId<HTMLButtonElement>(root, 'export-checks').addEventListener('click', () => {
    if (!driver) return;
    saveFile('checks.json', toChecksJson(CATALOG, running.revision, running.transport, checkRun(running, driver.run.trace)), 'application/json');
  });
  byId<HTMLButtonElement>(root, 'export-trace').addEventListener('click', () => {
    if (!driver) return;
    saveFile('trace.jsonl', `${serializeTrace(driver.run.trace)}\n`, 'application/jsonl');
  });
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
  function renderFaults(): void {
    faultCount.textContent = String(faults.length);
    faultList.replaceChildren(
      ...faults.map((f) =>
        el('li', {}, `${f.dir === 'c2s' ? 'client → server' : 'server → client'}: ${f.action} ${f.match ?? 'any frame'}${f.nth ? ` (match #${f.nth} only)` : ''}${f.action === 'delay' ? ` by ${f.ms ?? 0} ms` : ''}`),
      ),
    );
  }

  const act = (action: Parameters<LiveDriver['act']>[0]): void => void driver?.act(action);
  byId<HTMLButtonElement>(root, 'inject-result').addEventListener('click', () => act({ type: 'inject-response', outcome: 'result', ...chosenTarget() }));
  byId<HTMLButtonElement>(root, 'inject-error').addEventListener('click', () => act({ type: 'inject-response', outcome: 'error', ...chosenTarget() }));
  byId<HTMLButtonElement>(root, 'inject-to-server').addEventListener('click', () => act({ type: 'inject-response', outcome: 'result', to: 'server', ...chosenTarget() }));
  byId<HTMLButtonElement>(root, 'inject-cancel').addEventListener('click', () => act({ type: 'inject-cancel', ...chosenTarget() }));
  byId<HTMLButtonElement>(root, 'disconnect').addEventListener('click', () => act({ type: 'disconnect' }));
  byId<HTMLButtonElement>(root, 'crash').addEventListener('click', () => act({ type: 'crash-server' }));
  byId<HTMLButtonElement>(root, 'reconnect').addEventListener('click', () => act({ type: 'reconnect' }));
  for (const dir of ['c2s', 's2c'] as const) {
    const button = holdButtons[dir];
    button.addEventListener('click', () => {
      holding[dir] = !holding[dir];
      act({ type: holding[dir] ? 'hold' : 'release', dir });
      const label = dir === 'c2s' ? 'client → server' : 'server → client';
      button.textContent = `${holding[dir] ? 'Release' : 'Hold'} ${label}`;
      button.setAttribute('aria-pressed', String(holding[dir]));
    });
  }
  byId<HTMLButtonElement>(root, 'add-fault').addEventListener('click', () => {
    const match = byId<HTMLInputElement>(root, 'fault-match').value.trim();
    const nth = Number(byId<HTMLInputElement>(root, 'fault-nth').value);
    const action = byId<HTMLSelectElement>(root, 'fault-action').value as WireFault['action'];
    faults.push({
      dir: byId<HTMLSelectElement>(root, 'fault-dir').value === 's2c' ? 's2c' : 'c2s',
      action,
      ...(match !== '' && { match }),
      ...(nth >= 1 && { nth: Math.round(nth) }),
      ...(action === 'delay' && { ms: Math.max(0, Math.round(Number(byId<HTMLInputElement>(root, 'fault-ms').value) || 0)) }),
    });
    renderFaults();
    forgetLink();
    void start();
  });
  byId<HTMLButtonElement>(root, 'clear-faults').addEventListener('click', () => {
    faults = [];
    renderFaults();
    forgetLink();
    void start();
  });

  for (const picker of [revision, transport, httpServer, serverProfile, clientProfile, latC2s, latS2c]) {
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
