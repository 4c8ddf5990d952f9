/**
 * The Connection panel: the setting pickers (revision, transport, server shape, profiles,
 * latency, resumable streams with their retry), what is unavailable and why, the status line, a notice of what the page did with
 * the user's work (replayed it, restored it), and the connection events. The pickers show the
 * running scenario; changing one replays its steps under the new setting. A latency is bounded
 * where it is typed, by the schema's own bound, so Share never makes a link the app refuses.
 */
import {
  CLIENT_PROFILE_INFO,
  CLIENT_PROFILES,
  INPUT_BOUNDS,
  REVISIONS,
  SERVER_PROFILE_INFO,
  SERVER_PROFILES,
  TRANSPORTS,
  TRANSPORT_LABEL,
  profileWhyNot,
  streamsWhyNot,
  transportWhyNot,
  whyNot,
  type ProfileInfo,
  type Scenario,
} from '../../../../src/scenario/index.ts';
import { statusLine, type RunView } from '../../../../src/views/index.ts';
import type { LiveState } from '../../session.ts';
import { byId, controlWriter, el, need, pressWatch } from '../dom.ts';
import type { Actions, Panel, Setting } from '../types.ts';
import { createNegotiationControls } from './negotiation.ts';
import { workersFailed } from '../../workers-failed.ts';
import { wholeNumberIn } from '../whole-number.ts';
import { grouped, plural } from '../../../../src/trace/index.ts';

/** The status line: the workers' phase while they are not live, then the view's own line. */
function pageStatus(view: RunView, live: LiveState): string {
  if (live.phase === 'starting') return 'Starting the client and the server…';
  if (live.phase === 'replaying') return `Replaying ${plural(view.scenario.steps.length, 'action')}…`;
  if (live.phase === 'failed') return workersFailed(live.failure ?? '');
  return statusLine(view);
}

/** The schema's bound on `resumable.retryMs` (src/scenario/streams.ts). */
const RETRY_MAX_MS = 60_000;

const pick = <T extends string>(values: readonly T[], value: string, fallback: T): T => values.find((v) => v === value) ?? fallback;

/**
 * One bullet of what is unavailable: the options a reason rules out, then the reason; the reason
 * alone when it already begins with the one option it rules out ("HTTP+SSE is the 2024-11-05
 * transport…", not "HTTP+SSE: HTTP+SSE is…").
 */
function unavailableLine(what: readonly string[], reason: string): string {
  const [only] = what;
  return what.length === 1 && only !== undefined && reason.startsWith(`${only} `) ? reason : `${what.join(', ')}: ${reason}`;
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

/** What the page did with the user's work, said until a later run replaces the one it describes. */
export interface Notice {
  /** The run it describes, once its start resolved (null: that run is still starting). */
  run: number | null;
  say(view: RunView, live: LiveState): string;
  button?: { label: string; onClick(): void };
}

/** The setting `to` differs from `from` in, as words ("Streamable HTTP (sessionful)", "2 standing faults"). */
export function describeChange(from: Scenario, to: Scenario): string {
  const words: string[] = [];
  if (to.transport !== from.transport || to.httpServer !== from.httpServer) {
    words.push(TRANSPORT_LABEL[to.transport] + (to.transport === 'streamable-http' ? ` (${to.httpServer})` : ''));
  }
  if (to.revision !== from.revision) words.push(`revision ${to.revision}`);
  const [server, client] = [to.serverProfile ?? 'ts-v2', to.clientProfile ?? 'ts-v2'];
  if (server !== (from.serverProfile ?? 'ts-v2')) words.push(`the server ${SERVER_PROFILE_INFO[server].label}`);
  if (client !== (from.clientProfile ?? 'ts-v2')) words.push(`the client ${CLIENT_PROFILE_INFO[client].label}`);
  if (JSON.stringify(to.negotiation ?? null) !== JSON.stringify(from.negotiation ?? null)) words.push('the version negotiation');
  if (to.latency.c2s !== from.latency.c2s || to.latency.s2c !== from.latency.s2c) words.push(`latency ${to.latency.c2s} ms / ${to.latency.s2c} ms`);
  if (JSON.stringify(to.resumable ?? null) !== JSON.stringify(from.resumable ?? null)) {
    words.push(to.resumable ? `resumable streams${to.resumable.retryMs === undefined ? '' : ` (retry ${to.resumable.retryMs} ms)`}` : 'no resumable streams');
  }
  const faults = to.faults?.length ?? 0;
  if (JSON.stringify(to.faults ?? []) !== JSON.stringify(from.faults ?? [])) words.push(faults === 1 ? '1 standing fault' : `${faults} standing faults`);
  return words.join(', ') || 'the same setting';
}

export interface ConnectionPanel extends Panel {
  notify(notice: Notice | null): void;
}

export function createConnectionPanel(root: HTMLElement, actions: Actions): ConnectionPanel {
  const revision = byId<HTMLSelectElement>(root, 'revision');
  const transport = byId<HTMLSelectElement>(root, 'transport');
  const httpServer = byId<HTMLSelectElement>(root, 'http-server');
  const httpServerField = byId<HTMLElement>(root, 'http-server-field');
  const serverProfile = byId<HTMLSelectElement>(root, 'server-profile');
  const clientProfile = byId<HTMLSelectElement>(root, 'client-profile');
  const latC2s = byId<HTMLInputElement>(root, 'lat-c2s');
  const afterPress = pressWatch(root.ownerDocument);
  const latS2c = byId<HTMLInputElement>(root, 'lat-s2c');
  const resumable = byId<HTMLInputElement>(root, 'resumable');
  const retryMs = byId<HTMLInputElement>(root, 'retry-ms');
  const resumableFields = [byId<HTMLElement>(root, 'resumable-field'), byId<HTMLElement>(root, 'retry-field')];
  const unavailable = byId<HTMLUListElement>(root, 'unavailable');
  const profileNotes = byId<HTMLElement>(root, 'profile-notes');
  const status = byId<HTMLElement>(root, 'conn-status');
  const count = byId<HTMLElement>(root, 'conn-count');
  const body = need<HTMLTableSectionElement>(root, '#connection-table tbody');
  const negotiation = createNegotiationControls(root);
  const noticeText = el('span', {});
  const noticeButton = el('button', { type: 'button' });
  const noticeBox = el('p', { id: 'work-notice', className: 'notice', hidden: true }, noticeText, ' ', noticeButton);
  noticeBox.setAttribute('role', 'status');
  (status.parentElement ?? status).after(noticeBox);
  let notice: Notice | null = null;
  noticeButton.addEventListener('click', () => notice?.button?.onClick());
  let shown: Scenario | null = null;
  const write = controlWriter();
  for (const input of [latC2s, latS2c]) input.max = String(INPUT_BOUNDS.maxMs);
  let rendered: RunView | null = null;

  function read(): Omit<Setting, 'negotiation'> {
    const ms = (input: HTMLInputElement) => Math.max(0, Math.round(Number(input.value) || 0));
    return {
      revision: pick(REVISIONS, revision.value, '2025-11-25'),
      transport: pick(TRANSPORTS, transport.value, 'stdio'),
      httpServer: httpServer.value === 'stateless' ? 'stateless' : 'sessionful',
      serverProfile: pick(SERVER_PROFILES, serverProfile.value, 'ts-v2'),
      clientProfile: pick(CLIENT_PROFILES, clientProfile.value, 'ts-v2'),
      latency: { c2s: ms(latC2s), s2c: ms(latS2c) },
    };
  }

  /** The resumable setting as the checkbox and the retry field say it (an empty retry: none); undefined when off or unavailable. */
  function readResumable(): Scenario['resumable'] {
    if (!resumable.checked || resumable.disabled) return undefined;
    const text = retryMs.value.trim();
    return text === '' ? {} : { retryMs: Math.round(Number(text)) };
  }

  /** What each SDK's stateless server is: v2's createMcpHandler, or v1's new server and transport for each request. */
  function labelStateless(): void {
    const v1 = pick(SERVER_PROFILES, serverProfile.value, 'ts-v2') === 'ts-v1';
    for (const option of httpServer.options) {
      if (option.value === 'stateless') option.textContent = `stateless (${v1 ? 'a server and transport per request' : 'createMcpHandler'})`;
    }
  }

  /** Resumable streams only where the schema takes them (sessionful Streamable HTTP on the v2 server, before 2026-07-28). */
  function syncResumable(because: (what: string, reason: string) => void): void {
    const setting = read();
    const why = streamsWhyNot(setting);
    // Only Streamable HTTP has streams to resume: elsewhere the two fields are not shown at all.
    for (const field of resumableFields) field.hidden = setting.transport !== 'streamable-http';
    resumable.disabled = why !== null;
    if (why !== null) resumable.checked = false;
    retryMs.disabled = !resumable.checked;
    resumable.title = why === null ? '' : `Not on this setting: a resumable server ${why}`;
    if (why !== null && setting.transport === 'streamable-http') because('Resumable streams', `a resumable server ${why}`);
  }

  /** Disables what the SDK cannot make with the chosen revision, each with its one-line reason. */
  function syncOptions(): void {
    labelStateless();
    const rev = read().revision;
    // One bullet per reason, naming every option it rules out: on 2026-07-28 HTTP, the eight
    // profiles that cannot speak it share one line instead of repeating it eight times.
    const reasons = new Map<string, string[]>();
    // Each name once per reason: the server's and the client's TypeScript SDK v1 share a label (it read "TypeScript SDK v1 (real, 1.32.2), TypeScript SDK v1 (real, 1.32.2): …").
    const because = (what: string, reason: string): void => {
      const named = reasons.get(reason) ?? [];
      if (!named.includes(what)) reasons.set(reason, [...named, what]);
    };
    for (const option of transport.options) {
      const kind = pick(TRANSPORTS, option.value, 'stdio');
      const reason = transportWhyNot(rev, kind);
      option.disabled = reason !== null;
      option.textContent = TRANSPORT_LABEL[kind] + (reason ? ' (unavailable)' : '');
      if (reason) because(TRANSPORT_LABEL[kind], reason);
    }
    if (transport.selectedOptions[0]?.disabled) transport.value = 'stdio';
    const shapes = transport.value === 'streamable-http';
    httpServerField.hidden = !shapes;
    for (const option of httpServer.options) {
      const reason = whyNot(rev, 'streamable-http', option.value === 'stateless' ? 'stateless' : 'sessionful');
      option.disabled = reason !== null;
      if (shapes && reason) because(option.textContent ?? '', reason);
    }
    if (httpServer.selectedOptions[0]?.disabled) httpServer.value = 'stateless';
    const tr = read().transport;
    for (const option of serverProfile.options) {
      const profile = pick(SERVER_PROFILES, option.value, 'ts-v2');
      const reason = profileWhyNot(rev, tr, profile, 'ts-v2');
      option.disabled = reason !== null;
      if (reason) because(SERVER_PROFILE_INFO[profile].label, reason);
    }
    if (serverProfile.selectedOptions[0]?.disabled) serverProfile.value = 'ts-v2';
    const server = read().serverProfile ?? 'ts-v2';
    for (const option of clientProfile.options) {
      const profile = pick(CLIENT_PROFILES, option.value, 'ts-v2');
      const reason = profileWhyNot(rev, tr, server, profile);
      option.disabled = reason !== null;
      if (reason) because(CLIENT_PROFILE_INFO[profile].label, reason);
    }
    if (clientProfile.selectedOptions[0]?.disabled) clientProfile.value = 'ts-v2';
    syncResumable(because);
    unavailable.replaceChildren(...[...reasons].map(([reason, what]) => el('li', {}, unavailableLine(what, reason))));
    profileNotes.replaceChildren(describeProfile('Server', SERVER_PROFILE_INFO[server]), describeProfile('Client', CLIENT_PROFILE_INFO[read().clientProfile ?? 'ts-v2']));
  }

  function show(scenario: Scenario): void {
    write(revision, scenario.revision);
    write(transport, scenario.transport);
    write(httpServer, scenario.httpServer);
    write(serverProfile, scenario.serverProfile ?? 'ts-v2');
    write(clientProfile, scenario.clientProfile ?? 'ts-v2');
    write(latC2s, String(scenario.latency.c2s));
    write(latS2c, String(scenario.latency.s2c));
    write(resumable, scenario.resumable !== undefined);
    if (scenario.resumable) write(retryMs, scenario.resumable.retryMs === undefined ? '' : String(scenario.resumable.retryMs));
    negotiation.show(scenario);
    syncOptions();
  }

  /** A latency or retry the links cannot carry is refused where it was typed: the run keeps its own. */
  function refused(): boolean {
    const fields = [
      { input: latC2s, max: INPUT_BOUNDS.maxMs, optional: false, what: 'A latency' },
      { input: latS2c, max: INPUT_BOUNDS.maxMs, optional: false, what: 'A latency' },
      { input: retryMs, max: RETRY_MAX_MS, optional: true, what: 'A retry' },
    ];
    for (const { input, max, optional, what } of fields) {
      const read = wholeNumberIn(input, 0, max);
      const bad = !read.ok || (read.value === null && !optional);
      input.setCustomValidity(bad ? `${what} is a whole number of ms from 0 to ${grouped(max)}.` : '');
      if (bad) {
        // Shown once the click that moved focus away has landed: the bubble scrolls the field into
        // view, and doing that mid-click would move the button the user pressed from under the pointer.
        afterPress(() => input.reportValidity());
        return true;
      }
    }
    return false;
  }

  for (const picker of [revision, transport, httpServer, serverProfile, clientProfile, latC2s, latS2c, resumable, retryMs, ...negotiation.inputs]) {
    picker.addEventListener('change', () => {
      if (refused()) return;
      // Resumable streams belong to the transport they were set on: a new transport starts without them.
      if (picker === transport) resumable.checked = false;
      syncOptions();
      const setting = read();
      // A negotiation the schema refuses is said beside its controls; the run keeps its setting.
      const negotiated = negotiation.read(setting);
      if (negotiated.ok) actions.restart({ ...setting, negotiation: negotiated.negotiation, resumable: readResumable() });
    });
  }
  byId<HTMLButtonElement>(root, 'restart').addEventListener('click', () => actions.restart());

  function showNotice(view: RunView, live: LiveState): void {
    // A notice goes once a later run replaced the one it describes.
    if (notice && notice.run !== null && live.run > notice.run) notice = null;
    noticeBox.hidden = notice === null;
    if (!notice) return;
    const text = notice.say(view, live);
    if (noticeText.textContent !== text) noticeText.textContent = text;
    noticeButton.hidden = !notice.button;
    noticeButton.textContent = notice.button?.label ?? '';
  }

  let lastPaint: { view: RunView; live: LiveState } | null = null;
  return {
    notify(next) {
      notice = next;
      if (lastPaint) showNotice(lastPaint.view, lastPaint.live);
      else noticeBox.hidden = next === null;
    },
    update(view, page) {
      lastPaint = { view, live: page.live };
      showNotice(view, page.live);
      if (view.scenario !== shown) {
        shown = view.scenario;
        show(view.scenario);
      }
      const line = pageStatus(view, page.live);
      if (status.textContent !== line) status.textContent = line;
      if (view === rendered) return;
      rendered = view;
      count.textContent = String(view.connections.length);
      body.replaceChildren(
        ...view.connections.map((c) =>
          el('tr', {}, el('td', { className: 'num' }, String(c.t)), el('td', {}, c.event), el('td', { className: 'num' }, c.stream === null ? '—' : `#${c.stream}`), el('td', {}, c.by ?? '—'), el('td', {}, c.detail)),
        ),
      );
    },
  };
}
