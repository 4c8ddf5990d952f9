/**
 * The diagrams panel: a Mermaid sequence diagram of the trace and a state diagram of one
 * lifecycle (a call's client request, its server handler, or the connection), both drawn by the
 * generators in src/diagrams from the same tables and trace the engine uses. Mermaid is loaded
 * only when the panel first comes into view, and renders with securityLevel 'strict'.
 */
import type { Mermaid } from 'mermaid';
import { clientRequestMachine } from '../../src/machines/index.ts';
import { serverHandlerMachine } from '../../src/machines/index.ts';
import { connectionMachine } from '../../src/machines/index.ts';
import type { MachineDef, Transition } from '../../src/machines/index.ts';
import { sequenceDiagram, type DiagramFinding } from '../../src/diagrams/index.ts';
import { stateDiagram } from '../../src/diagrams/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { saveFile } from './save-file.ts';

/** Past this many messages the sequence diagram keeps the newest (the rest are summarised). */
const MAX_MESSAGES = 120;
/** Renders are coalesced: at most one per this many wall-clock ms while a run is live. */
const RENDER_EVERY_MS = 250;

export interface DiagramElements {
  section: HTMLElement;
  subject: HTMLSelectElement;
  position: HTMLInputElement;
  positionLabel: HTMLElement;
  stateView: HTMLElement;
  sequenceView: HTMLElement;
  copyState: HTMLButtonElement;
  copySequence: HTMLButtonElement;
  downloadState: HTMLButtonElement;
  downloadSequence: HTMLButtonElement;
  status: HTMLElement;
}

interface Subject<S extends string> {
  def: MachineDef<S, string>;
  current: S | undefined;
  last: Transition<S, string> | undefined;
}

/** The transition a recorded state change took: the table's own row for (from, event). */
function transitionOf<S extends string>(def: MachineDef<S, string>, from: S, on: string | null): Transition<S, string> | undefined {
  return def.transitions.find((t) => t.from === from && t.on === on);
}

/** The lifecycle the user picked, its state at the end of `trace`, and the transition just taken. */
function subjectOf(value: string, trace: readonly TraceEvent[]): Subject<string> {
  if (value.startsWith('call:')) {
    const call = value.slice(5);
    const changes = trace.filter((e) => e.kind === 'client-state' && e.call === call);
    const last = changes.at(-1);
    return {
      def: clientRequestMachine,
      current: last?.kind === 'client-state' ? last.to : undefined,
      last: last?.kind === 'client-state' && last.from !== null ? transitionOf(clientRequestMachine, last.from, last.on) : undefined,
    };
  }
  if (value.startsWith('request:')) {
    const key = value.slice(8);
    const changes = trace.filter((e) => e.kind === 'server-state' && JSON.stringify(e.requestId) === key);
    const last = changes.at(-1);
    return {
      def: serverHandlerMachine,
      current: last?.kind === 'server-state' ? last.to : undefined,
      last: last?.kind === 'server-state' && last.from !== null ? transitionOf(serverHandlerMachine, last.from, last.on) : undefined,
    };
  }
  // The engine steps the connection table and records each step in the trace.
  const last = trace.findLast((e) => e.kind === 'connection-state');
  return {
    def: connectionMachine,
    current: last?.kind === 'connection-state' ? last.to : connectionMachine.initial,
    last: last?.kind === 'connection-state' ? transitionOf(connectionMachine, last.from, last.on) : undefined,
  };
}

export class DiagramsPanel {
  private readonly els: DiagramElements;
  private mermaid: Promise<Mermaid> | null = null;
  private trace: readonly TraceEvent[] = [];
  private findings: DiagramFinding[] = [];
  private follow = true;
  private visible = false;
  private renderQueued = false;
  private lastRender = 0;
  private shown = { state: '', sequence: '' };
  private renderCount = 0;
  private drawError = false;

  constructor(els: DiagramElements) {
    this.els = els;
    new IntersectionObserver((entries) => {
      this.visible = entries.some((e) => e.isIntersecting);
      if (this.visible) this.schedule();
    }).observe(els.section);
    els.subject.addEventListener('change', () => this.schedule(true));
    els.position.addEventListener('input', () => {
      this.follow = Number(els.position.value) >= Number(els.position.max);
      this.schedule(true);
    });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      this.mermaid = null;
      this.shown = { state: '', sequence: '' };
      this.schedule(true);
    });
    els.copyState.addEventListener('click', () => void this.copy(this.shown.state));
    els.copySequence.addEventListener('click', () => void this.copy(this.shown.sequence));
    els.downloadState.addEventListener('click', () => this.download(els.stateView, 'state-diagram.svg'));
    els.downloadSequence.addEventListener('click', () => this.download(els.sequenceView, 'sequence-diagram.svg'));
  }

  /** New trace (or findings): subjects and the scrubber follow; drawing waits for the panel to be seen. */
  update(trace: readonly TraceEvent[], findings: DiagramFinding[]): void {
    this.trace = trace;
    this.findings = findings;
    const max = String(Math.max(0, trace.length - 1));
    if (this.els.position.max !== max) this.els.position.max = max;
    if (this.follow) this.els.position.value = max;
    this.syncSubjects();
    this.schedule();
  }

  /** Selects a lifecycle (e.g. when the user opens a call). */
  select(value: string): void {
    if ([...this.els.subject.options].some((o) => o.value === value)) {
      this.els.subject.value = value;
      this.schedule(true);
    }
  }

  private syncSubjects(): void {
    const wanted: [string, string][] = [['connection', 'Connection']];
    for (const e of this.trace) {
      if (e.kind === 'client-state' && e.from === null) wanted.push([`call:${e.call}`, `Call ${e.call}: client request`]);
      if (e.kind === 'server-state' && e.from === null) wanted.push([`request:${JSON.stringify(e.requestId)}`, `Request ${JSON.stringify(e.requestId)}: server handler`]);
    }
    const unique = [...new Map(wanted).entries()];
    const have = [...this.els.subject.options].map((o) => o.value).join('|');
    if (have === unique.map(([v]) => v).join('|')) return;
    const selected = this.els.subject.value;
    this.els.subject.replaceChildren(...unique.map(([value, label]) => Object.assign(document.createElement('option'), { value, textContent: label })));
    // Follow the newest call unless the user picked something that still exists.
    const newestCall = unique.filter(([v]) => v.startsWith('call:')).at(-1)?.[0];
    this.els.subject.value = unique.some(([v]) => v === selected) && selected !== 'connection' ? selected : (newestCall ?? 'connection');
  }

  private schedule(now = false): void {
    if (!this.visible || this.renderQueued) return;
    this.renderQueued = true;
    const wait = now ? 0 : Math.max(0, RENDER_EVERY_MS - (performance.now() - this.lastRender));
    setTimeout(() => {
      this.renderQueued = false;
      this.lastRender = performance.now();
      void this.render();
    }, wait);
  }

  private load(): Promise<Mermaid> {
    this.mermaid ??= import('mermaid').then(({ default: mermaid }) => {
      // The theme the reader picked in the docs wins over the OS setting.
      const picked = document.documentElement.dataset.theme;
      const dark = picked === 'dark' || (picked !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default', sequence: { showSequenceNumbers: false } });
      return mermaid;
    });
    return this.mermaid;
  }

  private async render(): Promise<void> {
    const upTo = Math.min(Number(this.els.position.value), this.trace.length - 1);
    const prefix = this.trace.slice(0, upTo + 1);
    const at = prefix.at(-1);
    this.els.positionLabel.textContent = this.follow ? `live (event ${upTo}, t = ${at?.t ?? 0} ms)` : `event ${upTo} of ${this.trace.length - 1}, t = ${at?.t ?? 0} ms`;
    const subject = subjectOf(this.els.subject.value, prefix);
    const stateText = stateDiagram(subject.def, { ...(subject.current && { current: subject.current }), ...(subject.last && { lastTransition: subject.last }) });
    const findings = this.findings.filter((f) => f.witnesses.every((w) => w <= upTo));
    const generateStart = performance.now();
    const sequenceText = sequenceDiagram(prefix, { maxMessages: MAX_MESSAGES, findings });
    const generateMs = performance.now() - generateStart;
    this.els.stateView.dataset.current = subject.current ?? '';
    this.els.stateView.dataset.transition = subject.last ? `${subject.last.from} → ${subject.last.to}` : '';
    if (stateText === this.shown.state && sequenceText === this.shown.sequence) return;
    try {
      const mermaid = await this.load();
      const started = performance.now();
      if (stateText !== this.shown.state) {
        this.els.stateView.innerHTML = (await mermaid.render(`state-${++this.renderCount}`, stateText)).svg;
        this.shown.state = stateText;
      }
      if (sequenceText !== this.shown.sequence) {
        this.els.sequenceView.innerHTML = (await mermaid.render(`seq-${++this.renderCount}`, sequenceText)).svg;
        this.shown.sequence = sequenceText;
        this.els.sequenceView.scrollTop = this.els.sequenceView.scrollHeight;
        // For `npm run bench`: how long generating and drawing the sequence diagram took.
        window.__cancelLabMetrics = { ...window.__cancelLabMetrics, sequenceRenderMs: performance.now() - started + generateMs, sequenceMessages: prefix.filter((e) => e.kind === 'frame').length };
      }
      // A drawing error goes once the diagram draws again; other messages (copied…) stay.
      if (this.drawError) this.els.status.textContent = '';
      this.drawError = false;
    } catch (error) {
      this.drawError = true;
      this.els.status.textContent = `The diagram could not be drawn: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.els.status.textContent = 'Mermaid source copied.';
    } catch {
      this.els.status.textContent = 'The browser refused the clipboard.';
    }
  }

  private download(view: HTMLElement, name: string): void {
    const svg = view.querySelector('svg');
    if (!svg) return;
    saveFile(name, new XMLSerializer().serializeToString(svg), 'image/svg+xml');
  }
}
