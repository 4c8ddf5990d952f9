/**
 * The event store a resumable Streamable HTTP server keeps (the SDK's `EventStore`): every SSE
 * event the server writes, so that a client reconnecting with `Last-Event-ID` gets the events of
 * that stream it missed. Its ids are deterministic (the SDK names streams with
 * `crypto.randomUUID()`; the store numbers them in the order they are first seen), so a run's
 * trace is the same every time: `s2.3` is the third event of the second stream, and names its
 * stream as the spec asks (2025-11-25 transports.mdx:174-175).
 */
import type { EventId, EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface StoredEvent {
  id: EventId;
  streamId: string;
  /** Null for a priming event, which carries an id and no message: nothing is replayed for it. */
  message: JSONRPCMessage | null;
}

/** What the SDK stores: a message, or `{}` for a priming event. */
type Stored = JSONRPCMessage | Record<string, never>;

const isMessage = (stored: Stored): stored is JSONRPCMessage => Object.keys(stored).length > 0;

export class LabEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private readonly streamNumbers = new Map<string, number>();
  private readonly counts = new Map<string, number>();

  storeEvent(streamId: string, stored: Stored): Promise<EventId> {
    let stream = this.streamNumbers.get(streamId);
    if (stream === undefined) {
      stream = this.streamNumbers.size + 1;
      this.streamNumbers.set(streamId, stream);
    }
    const n = (this.counts.get(streamId) ?? 0) + 1;
    this.counts.set(streamId, n);
    const id = `s${stream}.${n}`;
    this.events.push({ id, streamId, message: isMessage(stored) ? stored : null });
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: EventId): Promise<string | undefined> {
    return Promise.resolve(this.events.find((e) => e.id === eventId)?.streamId);
  }

  /** Sends the events of `lastEventId`'s stream written after it, in order; an unknown id replays nothing. */
  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    const last = this.events[at];
    if (last === undefined) return '';
    for (const e of this.events.slice(at + 1)) if (e.streamId === last.streamId && e.message !== null) await send(e.id, e.message);
    return last.streamId;
  }
}
