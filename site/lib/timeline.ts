/**
 * The run timeline: virtual time to the right, the client's lane(s) on top and the server's at
 * the bottom, each frame an arrow slanting between them, so a response and a cancel that cross
 * on the wire cross on the page. The model is src/views/timeline.ts; the drawing, timeline-svg.ts.
 *
 * Live, the page calls `update` once per paint with the growing trace. The model is read on
 * from the events it has not seen (createTimelineBuilder), an arrow that did not change is the
 * same object and is not looked at again, and the fitted time axis grows in round steps so the
 * scale itself rarely changes: one more frame draws one more arrow.
 */
import type { TraceEvent } from '../../src/trace/index.ts';
import { createTimelineBuilder, describeTimeline, type TimelineBuilder, type TimelineFinding, type TimelineModel } from '../../src/views/index.ts';
import { createFigure, drawArrows, drawFrame, drawMark, formatMs, layoutOf, markDrawings, r1, reconcile, type Drawn, type DrawnArrow, type Layout } from './timeline-svg.ts';
import '../styles/timeline.css';

export interface TimelineInput {
  trace: readonly TraceEvent[];
  findings: readonly TimelineFinding[];
  selectedFrame: number | null;
  /** Show the trace up to this position (seq, inclusive); null for all of it. */
  until: number | null;
  /** Leave out frames that carry no JSON-RPC message, as the wire log does when framing is hidden. */
  messagesOnly?: boolean;
}

export interface Timeline {
  /** Draws the input; false when the trace was too long to read in one go and the rest follows over the next frames. */
  update(input: TimelineInput): boolean;
  destroy(): void;
}

/** The smallest span one can zoom to, in virtual ms. */
const MIN_SPAN = 2;
const ZOOM_STEP = 1.6;
/** The most one update spends reading new events into the model (ms); the rest waits a frame. */
const READ_SLICE_MS = 12;

/** Zoom out, in, earlier, later, fit: buttons, so every view change is a keyboard press away. */
function createToolbar(act: { zoom(factor: number): void; pan(fraction: number): void; fit(): void }): { toolbar: HTMLElement; range: HTMLElement } {
  const toolbar = document.createElement('div');
  toolbar.className = 'timeline-toolbar';
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Timeline zoom');
  const buttons: [string, string, () => void][] = [
    ['−', 'Zoom out', () => act.zoom(1 / ZOOM_STEP)],
    ['+', 'Zoom in', () => act.zoom(ZOOM_STEP)],
    ['←', 'Earlier', () => act.pan(-1 / 3)],
    ['→', 'Later', () => act.pan(1 / 3)],
    ['Fit', 'Fit the whole run', () => act.fit()],
  ];
  for (const [text, label, onClick] of buttons) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.title = label;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', onClick);
    toolbar.appendChild(b);
  }
  const range = document.createElement('span');
  range.className = 'timeline-range';
  toolbar.appendChild(range);
  return { toolbar, range };
}

/** The next round number at or above `x` (1, 1.2, 1.5, … 8 × 10^k): the axis grows in steps people read. */
function niceCeil(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  return ([1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((m) => m * p >= x) ?? 10) * p;
}

export function createTimeline(host: HTMLElement, onSelect: (frame: number) => void): Timeline {
  const root = document.createElement('div');
  root.className = 'timeline';
  const fig = createFigure();
  const figure = fig.svg;
  root.append(figure);
  host.appendChild(root);

  let input: TimelineInput | null = null;
  let model: TimelineModel | null = null;
  const reader = createReader();
  let modelFindings: readonly TimelineFinding[] | null = null;
  let modelMessagesOnly = false;
  let lay: Layout | null = null;
  // The host's width as its observer last reported it (below), which it does before the first
  // paint: read here, at mount, it would lay the whole page out while the page is still being built.
  let width = 800;
  let fitEnd = 0;
  /** The visible span, or null to fit the whole run (and follow it while it grows). */
  let view: [number, number] | null = null;
  let frameKey = '';
  /** Bumped whenever the scale or the lanes change: every arrow is then measured again. */
  let layoutVersion = 0;
  const arrows = new Map<number, DrawnArrow>();
  /** The animation frame that reads on where a read stopped at its slice, or 0. */
  let catchUp = 0;
  const marks = new Map<string, Drawn>();

  const domain = (): [number, number] => view ?? [0, fitEnd];

  const setView = (d0: number, span: number): void => {
    if (span >= fitEnd) {
      view = null;
    } else {
      const s = Math.max(MIN_SPAN, span);
      const start = Math.min(Math.max(0, d0), fitEnd - s);
      view = [start, start + s];
    }
    render();
  };
  const zoom = (factor: number, atPx?: number): void => {
    const [d0, d1] = domain();
    const c = lay && atPx !== undefined ? lay.x.invert(atPx) : (d0 + d1) / 2;
    setView(c - (c - d0) / factor, (d1 - d0) / factor);
  };
  const pan = (dt: number): void => {
    const [d0, d1] = domain();
    if (view !== null) setView(d0 + dt, d1 - d0);
  };
  const { toolbar, range } = createToolbar({
    zoom,
    pan: (fraction) => pan(fraction * (domain()[1] - domain()[0])),
    fit: () => {
      // Fit now: the span grown while the run was live may be roomier than the run needs.
      view = null;
      fitEnd = 0;
      render();
    },
  });
  root.prepend(toolbar);

  function render(): void {
    if (!model || !input) return;
    // The fitted span grows in nice steps (and shrinks when the run is cut back), so a live
    // run rescales a handful of times, not on every frame.
    // While a long trace is still being read (the end of a long replay), the span is fitted to
    // where it will end, not to what has been read: the scale then stays put over the frames it
    // takes, and each draws its new arrows only, instead of moving every arrow as the axis grows.
    const tEnd = reader.behind ? endOf(input) : model.tEnd;
    if (fitEnd === 0 || tEnd > fitEnd * 0.95 || tEnd < fitEnd * 0.4) fitEnd = niceCeil(Math.max(tEnd * 1.15, 50));
    const d = domain();
    lay = layoutOf(model.lanes, width, d);
    const key = `${width}|${d[0]}|${d[1]}|${model.lanes.map((l) => l.id).join(',')}`;
    if (key !== frameKey) {
      frameKey = key;
      layoutVersion++;
      drawFrame(fig, model.lanes, lay);
      range.textContent = `${formatMs(d[0], d[1] >= 10_000)} – ${formatMs(d[1])}`;
    }
    drawArrows(fig.arrows, arrows, model.arrows, lay, layoutVersion, input.selectedFrame);
    const h = lay.height;
    reconcile(fig.marks, marks, markDrawings(model.marks, lay), (m) => `${m.cls}|${m.x},${m.y},${h}|${m.text}|${m.title}`, (g, m) => drawMark(g, m, h));
    const xn = r1(lay.x(model.tEnd));
    for (const [k, v] of Object.entries({ x1: xn, x2: xn, y1: 16, y2: h - 6 })) fig.now.setAttribute(k, String(v));
    const label = describeTimeline(model);
    if (figure.getAttribute('aria-label') !== label) figure.setAttribute('aria-label', label);
  }

  function update(next: TimelineInput): boolean {
    const selectionMoved = next.selectedFrame !== input?.selectedFrame;
    input = next;
    const read = reader.read(next.trace, next.until, performance.now() + READ_SLICE_MS);
    // A long trace all at once (the end of a long replay) is read over several frames.
    if (reader.behind && catchUp === 0) {
      catchUp = requestAnimationFrame(() => {
        catchUp = 0;
        if (input) update(input);
      });
    }
    const messagesOnly = next.messagesOnly === true;
    if (!model || read !== null || next.findings !== modelFindings || messagesOnly !== modelMessagesOnly) {
      model = reader.builder.model({ findings: next.findings, messagesOnly });
      modelFindings = next.findings;
      modelMessagesOnly = messagesOnly;
    }
    const selected = selectionMoved && next.selectedFrame !== null ? model?.arrows.find((a) => a.frame === next.selectedFrame) : undefined;
    if (selected && view !== null && (selected.sentAt < view[0] || selected.sentAt > view[1])) {
      // Bring a frame picked elsewhere (the wire log) into view.
      const span = view[1] - view[0];
      view = [Math.max(0, selected.sentAt - span / 3), Math.max(0, selected.sentAt - span / 3) + span];
    }
    render();
    return !reader.behind;
  }

  attachGestures(figure, {
    layout: () => lay,
    domain,
    zoomed: () => view !== null,
    setView,
    zoom,
    pan,
    toUser: (px) => px * (width / (figure.getBoundingClientRect().width || width)),
    onSelect,
  });
  const resize = new ResizeObserver(() => {
    const w = host.clientWidth;
    if (w > 0 && w !== width) {
      width = w;
      render();
    }
  });
  resize.observe(host);

  return {
    update,
    destroy() {
      cancelAnimationFrame(catchUp);
      resize.disconnect();
      root.remove();
    },
  };
}

/** The virtual time of the last event the input asks to show. */
function endOf(input: TimelineInput): number {
  const last = input.until === null ? input.trace.length - 1 : Math.min(input.trace.length - 1, input.until);
  return input.trace[last]?.t ?? 0;
}

/**
 * Reads a trace into a timeline builder: on from where it was while it is the same run growing
 * (or the slider moved on), from the start for anything else (a new run, the slider moved back).
 * A read stops at `deadline` (performance.now()); `behind` then says there is more to read.
 */
function createReader(): {
  readonly builder: TimelineBuilder;
  readonly behind: boolean;
  read(trace: readonly TraceEvent[], until: number | null, deadline: number): 'more' | 'again' | null;
} {
  let builder = createTimelineBuilder();
  /** The last event read, to tell a trace that grew from a new one. */
  let last: TraceEvent | undefined;
  let behind = false;
  return {
    get builder() {
      return builder;
    },
    get behind() {
      return behind;
    },
    read(trace, until, deadline) {
      const limit = until === null ? trace.length : Math.min(trace.length, Math.max(0, until + 1));
      const grown = builder.length <= limit && (builder.length === 0 || trace[builder.length - 1] === last);
      if (!grown) builder = createTimelineBuilder();
      const from = builder.length;
      let i = from;
      // The clock is read every 256 events: reading it costs more than adding one.
      while (i < limit && ((i - from) % 256 !== 255 || performance.now() < deadline)) builder.add(trace[i++] as TraceEvent);
      behind = i < limit;
      last = trace[i - 1];
      return !grown ? 'again' : i > from ? 'more' : null;
    },
  };
}

/** What the gestures move: the controller's view of time. */
interface ViewControls {
  layout(): Layout | null;
  domain(): [number, number];
  /** False while the whole run is fitted (there is nothing to pan to). */
  zoomed(): boolean;
  setView(start: number, span: number): void;
  zoom(factor: number, atPx?: number): void;
  pan(dt: number): void;
  /** Client px to the figure's own units (its viewBox is as wide as the host, however wide it is shown). */
  toUser(px: number): number;
  onSelect(frame: number): void;
}

/**
 * Drag to pan (once the pointer moved a few px; a still press on an arrow selects it), two
 * fingers to pinch, ctrl/⌘ + wheel (a trackpad pinch) to zoom, horizontal or shift + wheel to
 * pan. A plain vertical wheel is left to the page, which scrolls.
 */
function attachGestures(figure: SVGSVGElement, ctl: ViewControls): void {
  const pointers = new Map<number, number>();
  let drag: { x: number; domain: [number, number]; moved: boolean; frame: number | null } | null = null;
  let pinch: { dist: number; domain: [number, number]; mid: number } | null = null;
  const pair = (): [number, number] => [...pointers.values()] as [number, number];
  figure.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    pointers.set(e.pointerId, e.clientX);
    if (pointers.size === 2) {
      const [a, b] = pair();
      pinch = { dist: Math.abs(a - b) || 1, domain: ctl.domain(), mid: (a + b) / 2 - figure.getBoundingClientRect().left };
      drag = null;
      return;
    }
    const target = e.target instanceof Element ? e.target.closest<SVGGElement>('.tl-arrow') : null;
    const frame = target?.dataset.frame;
    drag = { x: e.clientX, domain: ctl.domain(), moved: false, frame: frame === undefined ? null : Number(frame) };
  });
  figure.addEventListener('pointermove', (e) => {
    const lay = ctl.layout();
    if (!pointers.has(e.pointerId) || !lay) return;
    pointers.set(e.pointerId, e.clientX);
    const plotWidth = lay.right - lay.left;
    if (pinch && pointers.size === 2) {
      const [a, b] = pair();
      const factor = (Math.abs(a - b) || 1) / pinch.dist;
      const [d0, d1] = pinch.domain;
      const c = d0 + ((ctl.toUser(pinch.mid) - lay.left) / plotWidth) * (d1 - d0);
      ctl.setView(c - (c - d0) / factor, (d1 - d0) / factor);
      return;
    }
    if (!drag) return;
    const dx = e.clientX - drag.x;
    if (!drag.moved && Math.abs(dx) < 4) return;
    if (!drag.moved) {
      drag.moved = true;
      figure.setPointerCapture(e.pointerId);
      figure.classList.add('panning');
    }
    const [d0, d1] = drag.domain;
    if (ctl.zoomed()) ctl.setView(d0 - (ctl.toUser(dx) / plotWidth) * (d1 - d0), d1 - d0);
  });
  const end = (e: PointerEvent): void => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (e.type === 'pointerup' && drag && !drag.moved && drag.frame !== null) ctl.onSelect(drag.frame);
    drag = null;
    figure.classList.remove('panning');
  };
  figure.addEventListener('pointerup', end);
  figure.addEventListener('pointercancel', end);
  figure.addEventListener(
    'wheel',
    (e) => {
      const lay = ctl.layout();
      if (!lay) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        ctl.zoom(Math.exp(-e.deltaY * 0.004), ctl.toUser(e.clientX - figure.getBoundingClientRect().left));
      } else if (ctl.zoomed() && (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY))) {
        e.preventDefault();
        const [d0, d1] = ctl.domain();
        ctl.pan(((e.shiftKey ? e.deltaY : e.deltaX) / (lay.right - lay.left)) * (d1 - d0));
      }
    },
    { passive: false },
  );
}
