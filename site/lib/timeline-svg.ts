/**
 * The timeline's drawing (site/lib/timeline.ts holds the controller): the layout of lanes and
 * time, each arrow and mark as an SVG group, and the axis. Arrows are keyed by frame and marks
 * by kind and seq; each keeps a signature of what it shows, and only what changed is redrawn.
 *
 * Every element is made with createElementNS and every string goes in through textContent, so
 * whatever a tool argument or a forged frame carries is shown as text.
 */
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import type { TimelineArrow, TimelineLane, TimelineMark } from '../../src/views/index.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const DIRECTION = { c2s: 'client → server', s2c: 'server → client' } as const;

function svg<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  parent?.appendChild(el);
  return el;
}

export const r1 = (n: number): number => Math.round(n * 10) / 10;

/** Virtual ms for people: seconds once the figure's span reaches 10 s, so one axis keeps one unit. */
export function formatMs(t: number, seconds = t >= 10_000): string {
  return seconds ? `${Math.round(t) / 1000} s` : `${r1(t)} ms`;
}

export interface Layout {
  width: number;
  height: number;
  left: number;
  right: number;
  x: ScaleLinear<number, number>;
  y: Map<string, number>;
  /** Space between client lanes: a label goes above a client lane only when there is room. */
  gap: number;
  firstClient: string;
}

export function layoutOf(lanes: readonly TimelineLane[], width: number, domain: readonly [number, number]): Layout {
  const left = width < 560 ? 54 : 96;
  const right = width - 24;
  const clients = lanes.filter((l) => l.side === 'client');
  const gap = clients.length <= 1 ? 0 : Math.max(12, Math.min(26, 150 / clients.length));
  const y = new Map<string, number>();
  let at = 54;
  for (const lane of clients) {
    y.set(lane.id, at);
    at += gap;
  }
  const server = at - gap + (width < 560 ? 96 : 110);
  for (const lane of lanes) if (lane.side === 'server') y.set(lane.id, server);
  const x = scaleLinear().domain([domain[0], domain[1]]).range([left, right]);
  return { width, height: server + 30, left, right, x, y, gap, firstClient: clients[0]?.id ?? '' };
}

interface ArrowDrawing {
  d: string;
  cls: string;
  /** `end`: drawn to the left of its arrow, which is too near the plot's right edge for the text to run on. */
  label: { x: number; y: number; text: string; end: boolean } | null;
  /** Where its label ends (px), for the labels after it on the same lane. */
  labelEnd: number | null;
  title: string;
}

/** An open arrowhead at (x, y) pointing along (dx, dy), or a cross for a frame that reached nobody. */
function tip(x: number, y: number, dx: number, dy: number, state: TimelineArrow['state']): string {
  if (state === 'dropped') return ` M${r1(x - 4)} ${r1(y - 4)} L${r1(x + 4)} ${r1(y + 4)} M${r1(x - 4)} ${r1(y + 4)} L${r1(x + 4)} ${r1(y - 4)}`;
  if (state === 'held') return ` M${r1(x)} ${r1(y - 5)} V${r1(y + 5)} M${r1(x + 4)} ${r1(y - 5)} V${r1(y + 5)}`;
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const [bx, by] = [x - ux * 7, y - uy * 7];
  return ` M${r1(bx - uy * 4)} ${r1(by + ux * 4)} L${r1(x)} ${r1(y)} L${r1(bx + uy * 4)} ${r1(by - ux * 4)}`;
}

function titleOf(a: TimelineArrow): string {
  const times = [`sent ${formatMs(a.sentAt)}`];
  if (a.releasedAt !== null) times.push(`released ${formatMs(a.releasedAt)}`);
  if (a.state === 'delivered') times.push(`delivered ${formatMs(a.end.t)}`);
  else if (a.state === 'dropped') times.push(a.droppedBecause ? `reached nobody at ${formatMs(a.end.t)}: ${a.droppedBecause}` : 'dropped by a wire fault');
  else times.push(a.state === 'held' ? 'held on the wire' : 'in flight');
  const notes = [
    a.injected ? 'injected (forged by the user)' : '',
    a.fault === 'delayed' || a.fault === 'duplicated' ? `${a.fault} by a wire fault` : '',
    a.late ? 'arrived after Stop: the client ignored it' : '',
    a.crossesCancel !== undefined ? `crossed the cancel (frame ${a.crossesCancel}) on the wire` : '',
    a.crossesResponse !== undefined ? `crossed the response (frame ${a.crossesResponse}) on the wire` : '',
  ].filter((n) => n !== '');
  return [a.label, `${DIRECTION[a.dir]} · ${times.join(' · ')}`, ...notes, `frame ${a.frame}: click to show it in the wire log`].join('\n');
}

/** Per sender lane, where the last drawn label ends (px), so labels do not pile up. */
type LabelRoom = Map<string, number>;

function drawingOf(a: TimelineArrow, lay: Layout, room: LabelRoom, selected: boolean): ArrowDrawing {
  const y0 = lay.y.get(a.fromLane) ?? 0;
  const y1 = lay.y.get(a.toLane) ?? 0;
  const toward = Math.sign(y1 - y0);
  const x0 = lay.x(a.sentAt);
  let d = `M${r1(x0)} ${r1(y0)}`;
  let [px, py] = [x0, y0];
  if (a.releasedAt !== null || a.state === 'held') {
    // Waiting on the sender's side, just off its lane so the lane line does not hide it.
    const xr = lay.x(a.releasedAt ?? a.end.t);
    [px, py] = [xr, y0 + toward * 4];
    d = `M${r1(x0)} ${r1(py)} H${r1(xr)}`;
  }
  const xe = a.state === 'held' ? px : lay.x(a.end.t);
  const ye = a.state === 'held' ? py : y0 + a.end.reach * (y1 - y0);
  if (a.state !== 'held') d += ` L${r1(xe)} ${r1(ye)}`;
  d += tip(xe, ye, xe - px, ye - py, a.state);
  const cls = [
    'tl-arrow',
    `dir-${a.dir}`,
    `kind-${a.kind}`,
    `state-${a.state}`,
    a.injected ? 'injected' : '',
    a.cancel ? 'cancel' : '',
    a.late ? 'late' : '',
    a.crossesCancel !== undefined || a.crossesResponse !== undefined ? 'crossing' : '',
    selected ? 'selected' : '',
  ].filter((c) => c !== '').join(' ');
  let label: ArrowDrawing['label'] = null;
  let labelEnd: number | null = null;
  const roomy = a.dir === 's2c' || lay.gap === 0 || lay.gap >= 22 || a.fromLane === lay.firstClient;
  if ((a.kind !== 'framing' || a.cancel) && roomy && x0 >= lay.left && x0 <= lay.right) {
    const text = a.injected ? `${a.label} (injected)` : a.label;
    const free = room.get(a.fromLane) ?? -Infinity;
    const width = text.length * 5.8;
    // Past the plot's right edge the clip would cut the text ("notifications/cancelle"): it ends at its arrow instead.
    const end = x0 + 2 + width > lay.right + 8;
    if (end ? x0 - 2 - width >= free : x0 >= free) {
      labelEnd = end ? x0 + 8 : x0 + width + 8;
      room.set(a.fromLane, labelEnd);
      // Outside the band the arrows cross: above a client lane, below the server's.
      label = { x: r1(end ? x0 - 2 : x0 + 2), y: r1(toward > 0 ? y0 - 6 : y0 + 14), text, end };
    }
  }
  return { d, cls, label, labelEnd, title: titleOf(a) };
}

export interface Drawn {
  g: SVGGElement;
  sig: string;
}

/**
 * Brings `parent`'s keyed children in line with `items`: new keys are drawn, changed
 * signatures redrawn, vanished keys removed; the rest are left alone.
 */
export function reconcile<T>(parent: SVGGElement, drawn: Map<string, Drawn>, items: ReadonlyMap<string, T>, sigOf: (item: T) => string, draw: (g: SVGGElement, item: T) => void): void {
  for (const [key, old] of drawn) {
    if (!items.has(key)) {
      old.g.remove();
      drawn.delete(key);
    }
  }
  for (const [key, item] of items) {
    const sig = sigOf(item);
    const old = drawn.get(key);
    if (old?.sig === sig) continue;
    const g = old?.g ?? svg('g', {}, parent);
    g.replaceChildren();
    draw(g, item);
    drawn.set(key, { g, sig });
  }
}

function drawArrow(g: SVGGElement, frame: number, a: ArrowDrawing): void {
  g.setAttribute('class', a.cls);
  g.dataset.frame = String(frame);
  svg('title', {}, g, a.title);
  svg('path', { class: 'hit', d: a.d }, g);
  svg('path', { class: 'line', d: a.d }, g);
  if (a.label) svg('text', { x: a.label.x, y: a.label.y, ...(a.label.end && { 'text-anchor': 'end' }) }, g, a.label.text);
}

export interface DrawnArrow {
  g: SVGGElement;
  /** What it was drawn from: the model's arrow (the same object while unchanged), the selection, the layout. */
  arrow: TimelineArrow;
  selected: boolean;
  layout: number;
  /** How many plain arrows it stands for besides itself (drawn under it, see `drawArrows`). */
  under: number;
  sig: string;
  fromLane: string;
  labelEnd: number | null;
}

/** Plain arrows whose ends fall in the same PILE_PX-wide column are drawn as one. */
const PILE_PX = 2;

/** An arrow that carries nothing a reader must find among its neighbours: it may stand in a pile. */
function plain(a: TimelineArrow, selected: boolean): boolean {
  return !selected && !a.cancel && !a.late && !a.injected && a.fault === null && a.crossesCancel === undefined && a.crossesResponse === undefined;
}

/**
 * Draws what changed: an arrow drawn from the same model object, selection and layout is
 * skipped without a look (its label still holds its room); one whose drawing changed is redrawn.
 *
 * What the figure cannot show is not drawn: arrows wholly outside the visible time, and plain
 * arrows that would be drawn over one another — same lanes, kind and state, both ends within
 * PILE_PX — which are drawn once, the first of them saying how many it stands for. A run of
 * thousands of progress notifications fitted into 1,400 px is a few hundred arrows, so drawing
 * and laying out the figure stays a few ms however long the run; zooming in separates them.
 * Cancels, late responses, injected, faulted, crossing and selected frames are always drawn.
 */
export function drawArrows(parent: SVGGElement, drawn: Map<number, DrawnArrow>, arrows: readonly TimelineArrow[], lay: Layout, layout: number, selectedFrame: number | null): void {
  const room: LabelRoom = new Map();
  const shown: TimelineArrow[] = [];
  const under = new Map<TimelineArrow, number>();
  const piles = new Map<string, TimelineArrow>();
  const [lo, hi] = [lay.left - 8, lay.right + 8];
  for (const a of arrows) {
    const x0 = lay.x(a.sentAt);
    const xe = lay.x(a.end.t);
    if (Math.max(x0, xe) < lo || Math.min(x0, xe) > hi) continue;
    if (plain(a, a.frame === selectedFrame)) {
      const key = `${a.fromLane}>${a.toLane}|${a.kind}|${a.state}|${Math.round(x0 / PILE_PX)}|${Math.round(xe / PILE_PX)}`;
      const first = piles.get(key);
      if (first) {
        under.set(first, (under.get(first) ?? 0) + 1);
        continue;
      }
      piles.set(key, a);
    }
    shown.push(a);
  }
  const keep = new Set<number>();
  for (const a of shown) {
    keep.add(a.frame);
    const selected = a.frame === selectedFrame;
    const extra = under.get(a) ?? 0;
    const old = drawn.get(a.frame);
    if (old && old.arrow === a && old.selected === selected && old.layout === layout && old.under === extra) {
      if (old.labelEnd !== null) room.set(old.fromLane, old.labelEnd);
      continue;
    }
    const d = drawingOf(a, lay, room, selected);
    if (extra > 0) d.title += `\n${extra} more ${extra === 1 ? 'frame like it is' : 'frames like it are'} drawn under this arrow: zoom in to tell them apart`;
    const sig = `${d.cls}|${d.d}|${d.label?.x},${d.label?.y},${d.label?.end},${d.label?.text}|${d.title}`;
    const g = old?.g ?? svg('g', {}, parent);
    if (old?.sig !== sig) {
      g.replaceChildren();
      drawArrow(g, a.frame, d);
    }
    drawn.set(a.frame, { g, arrow: a, selected, layout, under: extra, sig, fromLane: a.fromLane, labelEnd: d.labelEnd });
  }
  for (const [frame, old] of drawn) {
    if (keep.has(frame)) continue;
    old.g.remove();
    drawn.delete(frame);
  }
}

interface MarkDrawing {
  kind: TimelineMark['kind'];
  cls: string;
  x: number;
  y: number;
  /** Rule marks (Stop, crash, disconnect, reconnect) run across every lane. */
  rule: boolean;
  text: string | null;
  title: string;
}

const SHORT: Record<TimelineMark['kind'], (m: TimelineMark) => string> = {
  stop: (m) => m.label,
  crash: () => 'crash',
  disconnect: () => 'disconnect',
  reconnect: () => 'reconnect',
  late: () => 'late',
  finding: () => '',
};

export function markDrawings(marks: readonly TimelineMark[], lay: Layout): Map<string, MarkDrawing> {
  const out = new Map<string, MarkDrawing>();
  const stacked = new Map<string, number>();
  let lastRuleLabel = -Infinity;
  for (const m of marks) {
    let x = lay.x(m.t);
    const laneY = lay.y.get(m.lane) ?? 0;
    const rule = m.kind !== 'finding' && m.kind !== 'late';
    let y = laneY;
    if (m.kind === 'finding') {
      // Findings at one place line up beside each other, off the lane so arrow ends stay visible.
      const at = `${Math.round(x)}:${m.lane}`;
      const n = stacked.get(at) ?? 0;
      stacked.set(at, n + 1);
      x += n * 10;
      y = laneY + (m.lane === 'server' ? -12 : 12);
    }
    let text: string | null = SHORT[m.kind](m) || null;
    if (rule && text !== null) {
      if (x < lastRuleLabel) text = null;
      else lastRuleLabel = x + text.length * 6.2 + 6;
    }
    const cls = ['tl-mark', `kind-${m.kind}`, m.severity ? `severity-${m.severity}` : ''].filter((c) => c !== '').join(' ');
    let key = `${m.kind}:${m.seq}`;
    for (let i = 1; out.has(key); i++) key = `${m.kind}:${m.seq}:${i}`;
    out.set(key, { kind: m.kind, cls, x: r1(x), y: r1(y), rule, text, title: `${m.label} (${formatMs(m.t)})` });
  }
  return out;
}

export function drawMark(g: SVGGElement, m: MarkDrawing, height: number): void {
  g.setAttribute('class', m.cls);
  svg('title', {}, g, m.title);
  if (m.rule) svg('line', { class: 'rule', x1: m.x, x2: m.x, y1: 20, y2: height - 6 }, g);
  const { x, y } = m;
  // A square for Stop, a cross for a crash, a diamond for a finding, a ring round a late arrival.
  if (m.kind === 'stop') svg('rect', { class: 'glyph', x: x - 4, y: y - 4, width: 8, height: 8 }, g);
  else if (m.kind === 'crash') svg('path', { class: 'glyph', d: `M${x - 5} ${y - 5} L${x + 5} ${y + 5} M${x - 5} ${y + 5} L${x + 5} ${y - 5}` }, g);
  else if (m.kind === 'finding') svg('path', { class: 'glyph', d: `M${x} ${y - 6} L${x + 6} ${y} L${x} ${y + 6} L${x - 6} ${y} Z` }, g);
  else svg('circle', { class: 'glyph', cx: x, cy: y, r: m.kind === 'late' ? 8 : 4 }, g);
  if (m.text !== null) {
    const [tx, ty] = m.rule ? [m.x + 3, 30] : [m.x + 11, m.y + 4];
    svg('text', { x: tx, y: ty }, g, m.text);
  }
}

/** The figure's layers, back to front: axis, lanes, then the plot (clipped to the time axis). */
export interface Figure {
  svg: SVGSVGElement;
  clip: SVGRectElement;
  axis: SVGGElement;
  lanes: SVGGElement;
  now: SVGLineElement;
  marks: SVGGElement;
  arrows: SVGGElement;
}

let figures = 0;

export function createFigure(): Figure {
  const figure = svg('svg', { role: 'img' });
  const clipId = `tl-clip-${++figures}`;
  const clip = svg('rect', {}, svg('clipPath', { id: clipId }, svg('defs', {}, figure)));
  const axis = svg('g', { class: 'tl-axis' }, figure);
  const lanes = svg('g', { class: 'tl-lane' }, figure);
  const plot = svg('g', { 'clip-path': `url(#${clipId})` }, figure);
  return { svg: figure, clip, axis, lanes, now: svg('line', { class: 'tl-now' }, plot), marks: svg('g', {}, plot), arrows: svg('g', {}, plot) };
}

/** The figure's size, clip, axis and lanes: redrawn when the scale, the width or the lanes change. */
export function drawFrame(fig: Figure, lanes: readonly TimelineLane[], lay: Layout): void {
  fig.svg.setAttribute('viewBox', `0 0 ${lay.width} ${lay.height}`);
  fig.svg.setAttribute('height', String(lay.height));
  for (const [k, v] of Object.entries({ x: lay.left - 8, y: 0, width: lay.right - lay.left + 16, height: lay.height })) fig.clip.setAttribute(k, String(v));
  const axis = fig.axis;
  axis.replaceChildren();
  const seconds = (lay.x.domain()[1] ?? 0) >= 10_000;
  for (const t of lay.x.ticks(Math.max(2, Math.floor((lay.right - lay.left) / 90)))) {
    const x = r1(lay.x(t));
    svg('line', { x1: x, x2: x, y1: 16, y2: lay.height - 6 }, axis);
    svg('text', { x, y: 12, 'text-anchor': 'middle' }, axis, formatMs(t, seconds));
  }
  fig.lanes.replaceChildren();
  for (const lane of lanes) {
    const y = lay.y.get(lane.id) ?? 0;
    const g = svg('g', {}, fig.lanes);
    svg('title', {}, g, lane.title);
    svg('line', { class: lane.stream === null ? 'lifeline' : '', x1: lay.left, x2: lay.right, y1: y, y2: y }, g);
    svg('text', { class: lane.stream === null ? 'side' : '', x: lay.left - 8, y: y + 4, 'text-anchor': 'end' }, g, lane.label);
  }
  const clients = lanes.filter((l) => l.stream !== null);
  if (clients.length > 0) {
    // Stream lanes are the client's ends of HTTP streams: say so once, above them.
    svg('text', { class: 'side', x: lay.left - 8, y: 34, 'text-anchor': 'end' }, fig.lanes, 'client');
  }
}
