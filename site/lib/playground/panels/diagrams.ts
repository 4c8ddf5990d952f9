/**
 * The Diagrams panel: a Mermaid sequence diagram of the trace and a state diagram of one
 * lifecycle, both drawn by the generators in src/diagrams from the same tables and trace the
 * engine uses. Mermaid loads when the panel first comes into view, and renders with
 * securityLevel 'strict'. Drawing is coalesced to one render per RENDER_EVERY_MS while live.
 */
import type { Mermaid } from 'mermaid';
import { sequenceDiagram, stateDiagram, subjectOf, subjectsOf } from '../../../../src/diagrams/index.ts';
import { findingNotes, type RunView } from '../../../../src/views/index.ts';
import { saveFile } from '../../save-file.ts';
import { byId, el, need } from '../dom.ts';
import type { Panel } from '../types.ts';

/** Past this many messages the sequence diagram keeps the newest (the rest are summarised). */
const MAX_MESSAGES = 120;
const RENDER_EVERY_MS = 250;

/** The two diagrams' Mermaid source at trace position `upTo`, for the lifecycle `picked`. */
function draw(view: RunView, picked: string, upTo: number) {
  const prefix = view.trace.slice(0, upTo + 1);
  const subject = subjectOf(picked, prefix);
  const stateText = stateDiagram(subject.def, { ...(subject.current && { current: subject.current }), ...(subject.last && { lastTransition: subject.last }) });
  // A finding's note shows once all its witnesses are on the diagram.
  const findings = findingNotes(view.findings, view.scenario).filter((n) => n.witnesses.every((w) => w <= upTo));
  const generateStart = performance.now();
  const sequenceText = sequenceDiagram(prefix, { maxMessages: MAX_MESSAGES, findings });
  return {
    stateText,
    sequenceText,
    current: subject.current ?? '',
    transition: subject.last ? `${subject.last.from} → ${subject.last.to}` : '',
    messages: prefix.filter((e) => e.kind === 'frame').length,
    generateMs: performance.now() - generateStart,
    t: prefix.at(-1)?.t ?? 0,
  };
}

/** Mermaid, loaded on first use and set up for the theme in force (the docs' pick wins over the OS). */
let mermaid: { dark: boolean; ready: Promise<Mermaid> } | null = null;
function loadMermaid(): Promise<Mermaid> {
  const picked = document.documentElement.dataset.theme;
  const dark = picked === 'dark' || (picked !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  if (mermaid?.dark !== dark) {
    mermaid = {
      dark,
      ready: import('mermaid').then(({ default: m }) => {
        m.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default', sequence: { showSequenceNumbers: false } });
        return m;
      }),
    };
  }
  return mermaid.ready;
}

async function copy(text: string, status: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Mermaid source copied.';
  } catch {
    status.textContent = 'The browser refused the clipboard.';
  }
}

function download(of: HTMLElement, name: string): void {
  const svg = of.querySelector('svg');
  if (svg) saveFile(name, new XMLSerializer().serializeToString(svg), 'image/svg+xml');
}

/**
 * Mermaid makes its SVG as wide as its box, scaled down to fit: in the drawer a state diagram
 * with a dozen labelled edges came out a quarter of its size, its labels too small to read.
 * Drawn at the size Mermaid laid it out, the text is the page's size and the box scrolls.
 */
function atNaturalSize(view: HTMLElement): void {
  const svg = view.querySelector('svg');
  const width = svg?.viewBox.baseVal.width;
  if (!svg || !width) return;
  svg.style.maxWidth = 'none';
  svg.style.width = `${Math.ceil(width)}px`;
  svg.removeAttribute('height');
  // A diagram wider or taller than its box opens on the highlighted state (the box scrolls, not the page).
  const current = view.querySelector('.current')?.getBoundingClientRect();
  if (!current) return;
  const box = view.getBoundingClientRect();
  view.scrollLeft += current.left + current.width / 2 - (box.left + box.width / 2);
  view.scrollTop += current.top + current.height / 2 - (box.top + box.height / 2);
}

export function createDiagramsPanel(root: HTMLElement): Panel {
  const section = need<HTMLElement>(root, 'section.diagrams');
  const subject = byId<HTMLSelectElement>(root, 'diagram-subject');
  const position = byId<HTMLInputElement>(root, 'diagram-position');
  const positionLabel = byId<HTMLElement>(root, 'diagram-position-label');
  const stateView = byId<HTMLElement>(root, 'state-diagram');
  const sequenceView = byId<HTMLElement>(root, 'sequence-diagram');
  const status = byId<HTMLElement>(root, 'diagram-status');
  let view: RunView | null = null;
  let follow = true;
  let visible = false;
  let queued = false;
  let lastRender = 0;
  let shown = { state: '', sequence: '' };
  let renders = 0;
  let drawError = false;

  function schedule(now = false): void {
    if (!visible || queued) return;
    queued = true;
    setTimeout(
      () => {
        queued = false;
        lastRender = performance.now();
        void render();
      },
      now ? 0 : Math.max(0, RENDER_EVERY_MS - (performance.now() - lastRender)),
    );
  }

  function syncSubjects(v: RunView): void {
    const unique = subjectsOf(v.trace);
    if ([...subject.options].map((o) => o.value).join('|') === unique.map(([value]) => value).join('|')) return;
    const selected = subject.value;
    subject.replaceChildren(...unique.map(([value, label]) => el('option', { value, textContent: label })));
    // Follow the newest call unless the user picked something that still exists.
    const newestCall = unique.filter(([value]) => value.startsWith('call:')).at(-1)?.[0];
    subject.value = unique.some(([value]) => value === selected) && selected !== 'connection' ? selected : (newestCall ?? 'connection');
  }

  async function render(): Promise<void> {
    if (!view) return;
    const upTo = Math.min(Number(position.value), view.trace.length - 1);
    const { stateText, sequenceText, current, transition, messages, generateMs, t } = draw(view, subject.value, upTo);
    positionLabel.textContent = follow ? `live (event ${upTo}, t = ${t} ms)` : `event ${upTo} of ${view.trace.length - 1}, t = ${t} ms`;
    stateView.dataset.current = current;
    stateView.dataset.transition = transition;
    if (stateText === shown.state && sequenceText === shown.sequence) return;
    try {
      const m = await loadMermaid();
      const started = performance.now();
      if (stateText !== shown.state) {
        stateView.innerHTML = (await m.render(`state-${++renders}`, stateText)).svg;
        atNaturalSize(stateView);
        shown.state = stateText;
      }
      if (sequenceText !== shown.sequence) {
        sequenceView.innerHTML = (await m.render(`seq-${++renders}`, sequenceText)).svg;
        atNaturalSize(sequenceView);
        shown.sequence = sequenceText;
        sequenceView.scrollTop = sequenceView.scrollHeight;
        // For `npm run bench`: how long generating and drawing the sequence diagram took.
        window.__cancelLabMetrics = { ...window.__cancelLabMetrics, sequenceRenderMs: performance.now() - started + generateMs, sequenceMessages: messages };
      }
      // A drawing error goes once the diagram draws again; other messages (copied…) stay.
      if (drawError) status.textContent = '';
      drawError = false;
    } catch (error) {
      drawError = true;
      status.textContent = `The diagram could not be drawn: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  new IntersectionObserver((entries) => {
    visible = entries.some((e) => e.isIntersecting);
    if (visible) schedule();
  }).observe(section);
  subject.addEventListener('change', () => schedule(true));
  position.addEventListener('input', () => {
    follow = Number(position.value) >= Number(position.max);
    schedule(true);
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    shown = { state: '', sequence: '' };
    schedule(true);
  });
  byId<HTMLButtonElement>(root, 'copy-state').addEventListener('click', () => void copy(shown.state, status));
  byId<HTMLButtonElement>(root, 'copy-sequence').addEventListener('click', () => void copy(shown.sequence, status));
  byId<HTMLButtonElement>(root, 'download-state').addEventListener('click', () => download(stateView, 'state-diagram.svg'));
  byId<HTMLButtonElement>(root, 'download-sequence').addEventListener('click', () => download(sequenceView, 'sequence-diagram.svg'));

  return {
    update(next) {
      if (next === view) return;
      view = next;
      const max = String(Math.max(0, next.trace.length - 1));
      if (position.max !== max) position.max = max;
      if (follow) position.value = max;
      syncSubjects(next);
      schedule();
    },
  };
}
