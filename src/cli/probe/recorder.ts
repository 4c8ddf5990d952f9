/**
 * The probe's record of the real wire: every line the client wrote and read, in order, with the
 * wall-clock ms since the probe started, and notes (the server's stderr, lines that are not
 * JSON, a process exit, what the probe did). It is kept as a stdio log ("[+12ms] --> {…}") and
 * turned into the lab's trace by the stdio-log importer, the same one `cancel-lab check` uses,
 * so a probe's trace is judged exactly as an imported log is.
 *
 * Bounds: a server that floods (more than MAX_FRAMES frames, or MAX_BYTES read) trips the
 * recorder, which stops recording and tells the probe, so that memory stays bounded.
 */
import { grouped, PROBE_RECORDER, importTrace, type Direction, type ObservedTransport, type TraceEvent } from '../../trace/index.ts';

export const MAX_FRAMES = 5_000;
export const MAX_BYTES = 4 * 1024 * 1024;
/** Stderr and other notes past this many characters are summed up, not kept. */
export const MAX_NOTE_CHARS = 64 * 1024;

/** A frame as recorded: when, which way, the line as written, and its message when it is JSON-RPC. */
export interface Recorded {
  t: number;
  dir: Direction;
  raw: string;
  msg: Record<string, unknown> | null;
}

type Item = ({ kind: 'frame' } & Recorded) | { kind: 'note'; t: number; text: string };

function parse(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : null;
  } catch {
    return null;
  }
}

export class Recorder {
  private readonly items: Item[] = [];
  private readonly started = performance.now();
  private bytes = 0;
  private frameCount = 0;
  /** The frames the probe wrote on purpose to see what the server does (its own cancels), by frame number. */
  readonly deliberate = new Set<number>();
  private noteChars = 0;
  private skippedNotes = 0;
  /** Why recording stopped (a flood), once it has. */
  tripped: string | null = null;
  /** Told once, when a bound trips. */
  onTrip: (why: string) => void = () => undefined;

  now(): number {
    return Math.round(performance.now() - this.started);
  }

  /** A line the client wrote to the server (without its newline). */
  wrote(raw: string): void {
    this.frame('c2s', raw);
  }

  /** A line the client read from the server (without its newline). */
  read(raw: string): void {
    this.bytes += raw.length + 1;
    if (this.bytes > MAX_BYTES) this.trip(`the server wrote more than ${MAX_BYTES / 1048576} MB`);
    this.frame('s2c', raw);
  }

  /**
   * A stdout line that is no JSON-RPC message: noted, and counted against MAX_BYTES as a frame
   * is (a server printing `y` forever read 8 million lines in the handshake's 10 s, unbounded).
   */
  stray(note: string, raw: string): void {
    if (this.tripped !== null) return;
    this.bytes += raw.length + 1;
    if (this.bytes > MAX_BYTES) return this.trip(`the server wrote more than ${MAX_BYTES / 1048576} MB`);
    this.note(note);
  }

  note(text: string): void {
    if (this.tripped !== null) return;
    const flat = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
    if (flat === '') return;
    if (this.noteChars + flat.length > MAX_NOTE_CHARS) {
      this.skippedNotes++;
      return;
    }
    this.noteChars += flat.length;
    this.items.push({ kind: 'note', t: this.now(), text: flat });
  }

  private frame(dir: Direction, raw: string): void {
    if (this.tripped !== null) return;
    this.items.push({ kind: 'frame', t: this.now(), dir, raw, msg: parse(raw) });
    if (++this.frameCount >= MAX_FRAMES) this.trip(`the wire carried ${grouped(MAX_FRAMES)} frames`);
  }

  private trip(why: string): void {
    if (this.tripped !== null) return;
    this.items.push({ kind: 'note', t: this.now(), text: `probe: stopped recording: ${why} (the probe's bound)` });
    this.tripped = why;
    this.onTrip(why);
  }

  get frameTotal(): number {
    return this.frameCount;
  }

  /** The frames so far, in order; a frame's place in this list is its `frame` number in the trace. */
  frames(): Recorded[] {
    return this.items.flatMap((i) => (i.kind === 'frame' ? [i] : []));
  }

  /** The record as a stdio log, one line per frame or note, each with its `[+N ms]` stamp. */
  stdioLog(): string {
    const lines = this.items.map((i) => (i.kind === 'frame' ? `[+${i.t}ms] ${i.dir === 'c2s' ? '-->' : '<--'} ${i.raw}` : `[+${i.t}ms] # ${i.text}`));
    if (this.skippedNotes > 0) lines.push(`[+${this.now()}ms] # probe: ${this.skippedNotes} more notes (server stderr, stdout that is not JSON-RPC) left out past ${MAX_NOTE_CHARS / 1024} KB`);
    return `${lines.join('\n')}\n`;
  }

  /**
   * The lab's trace of the record: the stdio-log importer's, with its opening `observed` event
   * saying where it came from (the probe, as its recorder, for whoever judges the trace later)
   * and over which transport (which the messages alone do not show).
   * Null when no frame was recorded.
   */
  trace(source: string, transport: ObservedTransport): { trace: TraceEvent[]; revision?: string } | null {
    const imported = importTrace(this.stdioLog(), 'stdio-log');
    if (!imported.ok) return null;
    const text = `Recorded by cancel-lab probe at the client's transport (${source}), in wall-clock ms: only what crossed the wire there.`;
    const trace = readAtOnce(imported.trace, this.deliberate).map((e): TraceEvent => (e.kind === 'observed' && e.what === 'source' ? { ...e, text, transport, recorder: PROBE_RECORDER } : e));
    return { trace, ...(imported.revision !== undefined && { revision: imported.revision }) };
  }
}

/**
 * The importer places each delivery as late as a log allows, on both sides; but the probe
 * records at the client, so a frame the server wrote reached the client when it was recorded:
 * its delivery moves to just after it (and the client's next frames come after it). The cancels
 * the probe wrote itself, not its SDK client, are marked forged (`injected`), as the
 * playground marks a frame the user forges.
 */
function readAtOnce(trace: readonly TraceEvent[], forged: ReadonlySet<number>): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const e of trace) {
    if (e.kind === 'frame' && forged.has(e.frame)) {
      out.push({ ...e, injected: true, seq: out.length });
      continue;
    }
    if (e.kind === 'delivery' && e.dir === 's2c') continue;
    // A note is the log's whole line: its stamp and marker said only where it sat.
    if (e.kind === 'observed' && e.what === 'note') {
      out.push({ ...e, text: e.text.replace(/^\[\+\d+ms\] # /, ''), seq: out.length });
      continue;
    }
    if (e.kind === 'frame' && e.dir === 's2c') {
      out.push({ ...e, deliverAt: e.t, seq: out.length });
      out.push({ kind: 'delivery', frame: e.frame, dir: 's2c', seq: out.length, t: e.t });
    } else out.push({ ...e, seq: out.length });
  }
  return out;
}
