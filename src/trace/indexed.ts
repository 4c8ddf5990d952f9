/**
 * What the trace index holds (trace-index.ts builds it): each request with its responses,
 * cancels, stream aborts and progress, per connection and direction; the streams, calls and
 * notes it pairs them with.
 */
import type { ClientStateEvent, DeliveryEvent, Direction, FrameEvent, HandlerEvent, JsonRpcMessage, ServerStateEvent, UserActionEvent } from './events.ts';
import type { RequestId } from './messages.ts';

export interface IndexedRequest {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  id: RequestId;
  method: string;
  /** `params._meta.progressToken`, when the request asks for progress. */
  token: unknown;
  /** The HTTP stream its POST opened. */
  stream: number | undefined;
  /** `params.task` present on a request type a task can be made of: a 2025-11-25 task-augmented request. */
  taskAugmented: boolean;
  /** The client call whose tools/call this is (the call that took this id on this connection). */
  call: string | undefined;
  /**
   * For a request the server sent the client mid-call: the tools/call whose handler sent it
   * (its tool noted `asked-client` just before the SDK wrote it).
   */
  parent: IndexedRequest | undefined;
  responses: IndexedResponse[];
  /**
   * Its responses the answering side's SDK wrote itself, in order. A forged response stands for
   * another peer: it completes nothing the SDK did, and an SDK answering after it answers once.
   */
  ownResponses: IndexedResponse[];
  /** notifications/cancelled from the same side naming it, in order. */
  cancels: IndexedCancel[];
  /** The client closing its stream (HTTP `abort`), in order. */
  aborts: IndexedAbort[];
}

export interface IndexedResponse {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  /** The id as written (may be null or absent in a malformed response). */
  id: unknown;
  req: IndexedRequest | undefined;
  /** Written by its side's SDK; false for a frame the user forged (it stands for another peer). */
  own: boolean;
}

export interface IndexedCancel {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  hasRequestId: boolean;
  requestId: unknown;
  target: IndexedRequest | undefined;
  /** Written by its side's SDK; false for a cancel the user forged (it stands for another peer). */
  own: boolean;
}

export interface IndexedAbort {
  frame: FrameEvent;
  stream: number;
  target: IndexedRequest | undefined;
}

export interface IndexedProgress {
  frame: FrameEvent;
  msg: JsonRpcMessage;
  dir: Direction;
  token: unknown;
  value: unknown;
  owner: IndexedRequest | undefined;
}

export interface IndexedStream {
  /** The client's `request` frame that opened it. */
  open: FrameEvent | undefined;
  /** The JSON-RPC request it carries, when its body is a request. */
  req: IndexedRequest | undefined;
  head: FrameEvent | undefined;
  /** Every s2c frame on the stream, in order. */
  s2c: FrameEvent[];
  end: FrameEvent | undefined;
  aborts: IndexedAbort[];
}

export interface TaskReport {
  frame: FrameEvent;
  status: string;
}

export type StopEvent = UserActionEvent & { action: { type: 'stop' } };
export type CallActionEvent = UserActionEvent & { action: Extract<UserActionEvent['action'], { type: 'call' }> };
export type SettledEvent = HandlerEvent & { note: { type: 'call-settled' } };

export interface IndexedCall {
  /** The user's Call, with the timeout options it asked the SDK for. */
  action: CallActionEvent | undefined;
  requestId: RequestId | null;
  /** The connection the call was made on (null until it has a request id). */
  connection: number | null;
  /** Its tools/call request, once written. */
  request: IndexedRequest | undefined;
  states: ClientStateEvent[];
  settled: SettledEvent[];
}

/** What one frame a side wrote carries, as indexed (a batch may carry several messages). */
export interface IndexedFrame {
  frame: FrameEvent;
  /** The JSON-RPC batch (array) the frame carries, as written, on stdio or HTTP; its messages are indexed one by one. */
  batch: readonly unknown[] | undefined;
  requests: IndexedRequest[];
  responses: IndexedResponse[];
  cancels: IndexedCancel[];
  progress: IndexedProgress[];
  abort: IndexedAbort | undefined;
}

export interface TraceIndex {
  frames: FrameEvent[];
  delivery: Map<number, DeliveryEvent>;
  /** Deliveries per direction, in order (for "the next thing the receiver got"). */
  deliveriesByDir: Record<Direction, DeliveryEvent[]>;
  requests: IndexedRequest[];
  /** Requests by connection, direction and id, in order. */
  requestsByKey: Map<string, IndexedRequest[]>;
  /** The same, across connections (a call's request, looked up from its id). */
  requestsById: Map<string, IndexedRequest[]>;
  progressByOwner: Map<IndexedRequest, IndexedProgress[]>;
  /** The client call a request id belongs to. */
  callByRequestId: Map<string, string>;
  responses: IndexedResponse[];
  /** Responses that match no request (a null id, an unknown id). */
  orphans: IndexedResponse[];
  cancels: IndexedCancel[];
  aborts: IndexedAbort[];
  progress: IndexedProgress[];
  streams: Map<number, IndexedStream>;
  /** Every frame with a message, with the message (batch elements expanded, on stdio and HTTP). */
  messages: { frame: FrameEvent; msg: JsonRpcMessage }[];
  tasks: Map<string, TaskReport[]>;
  stops: StopEvent[];
  calls: Map<string, IndexedCall>;
  /** Server handler notes by request id key. */
  serverNotes: Map<string, HandlerEvent[]>;
  /** The client SDK's onerror notes ("Received a response for an unknown message ID: …"). */
  clientOnerror: HandlerEvent[];
  /** The server SDK's onerror notes (a late client answer to a request the server cancelled). */
  serverOnerror: HandlerEvent[];
  /** The client's handler notes for the server's requests, by request id key. */
  clientHandlerNotes: Map<string, HandlerEvent[]>;
  sessionExpired: number[];
  /** Every indexed frame by its number (a wire fault's copy and a stdio end-of-stream are not). */
  byFrame: Map<number, IndexedFrame>;
  /** A wire fault's copy (by frame number) → the frame it copies. */
  copyOf: Map<number, FrameEvent>;
  /**
   * The server handler's steps by connection and request id (`callKey`): server-state events
   * carry no connection, so each belongs to the connection current when it was recorded.
   */
  serverStates: Map<string, ServerStateEvent[]>;
  /** The connection current now: a reconnect (`reconnect-requested`) starts the next one. */
  connection: number;
  /** The trace was imported from a log taken outside the lab's sides (an `observed` source event). */
  outside: boolean;
}
