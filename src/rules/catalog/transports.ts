/**
 * §10.2 of the digest's matrix: transport behaviour relevant to cancellation and late results
 * (stdio, HTTP+SSE, Streamable HTTP).
 */
import type { Rule, SpecQuote } from './rule.ts';
import { C, D, HTTP, SH, SI, STDIO, STREAMABLE, T, TI, clause, q, same, spec, type HttpLegacy } from './sources.ts';

const DISCONNECT_MAY = 'Disconnection **MAY** occur at any time (e.g., due to network conditions). Therefore:';

/** The session-management items 3 and 4 (2025-11-25 spells the header `MCP-Session-Id`). */
function sessionQuote(header: 'Mcp-Session-Id' | 'MCP-Session-Id'): string {
  return `The server **MAY** terminate the session at any time, after which it **MUST** respond to requests containing that session ID with HTTP 404 Not Found. | When a client receives HTTP 404 in response to a request containing an \`${header}\`, it **MUST** start a new session by sending a new \`InitializeRequest\` without a session ID attached.`;
}

/** How the resumability section opens the client's sentence: 2025-11-25 names the server's close. */
const RESUME_BROKEN = 'If the client wishes to resume after a broken connection';
const RESUME_DISCONNECTED = 'If the client wishes to resume after a disconnection (whether due to network failure or server-initiated closure)';

/** The resumability section's client SHOULD and server MAY / MUST NOT, at their lines of that revision's page. */
function resumeQuotes(r: HttpLegacy, opening: string, client: readonly [number, number], server: readonly [number, number]): readonly SpecQuote[] {
  return [
    q(
      `${opening}, it **SHOULD** issue an HTTP GET to the MCP endpoint, and include the [\`Last-Event-ID\`](https://html.spec.whatwg.org/multipage/server-sent-events.html#the-last-event-id-header) header to indicate the last event ID it received.`,
      spec(T(r), ...client),
    ),
    q(
      'The server **MAY** use this header to replay messages that would have been sent after the last event ID, _on the stream that was disconnected_, and to resume the stream from that point. | The server **MUST NOT** replay messages that would have been delivered on a different stream.',
      spec(T(r), ...server),
    ),
  ];
}

export const TRANSPORT_RULES: readonly Rule[] = [
  {
    id: 'STDIO-FRAMING',
    name: 'One message per line on stdio',
    section: '10.2',
    description: 'On stdio each message is one line ending in a newline, with no newline inside it, and nothing else is written.',
    transports: STDIO,
    revisions: {
      '2024-11-05': [
        clause('MUST NOT', 'Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.', spec(T('2024-11-05'), 24), {
          also: [
            q(
              'The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message. | The client **MUST NOT** write anything to the server\'s `stdin` that is not a valid MCP message.',
              spec(T('2024-11-05'), 27, 29),
            ),
          ],
        }),
      ],
      '2025-03-26': [
        clause('MUST NOT', 'Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.', spec(T('2025-03-26'), 28), {
          also: [
            q(
              'Messages may be JSON-RPC requests, notifications, responses—or a JSON-RPC [batch](https://www.jsonrpc.org/specification#batch) containing one or more requests and/or notifications.',
              spec(T('2025-03-26'), 25, 27),
            ),
            q(
              'The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message. | The client **MUST NOT** write anything to the server\'s `stdin` that is not a valid MCP message.',
              spec(T('2025-03-26'), 31, 33),
            ),
          ],
        }),
      ],
      '2025-06-18': [
        clause('MUST NOT', 'Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.', spec(T('2025-06-18'), 28), {
          also: [
            q('Messages are individual JSON-RPC requests, notifications, or responses.', spec(T('2025-06-18'), 27)),
            q(
              'The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message. | The client **MUST NOT** write anything to the server\'s `stdin` that is not a valid MCP message.',
              spec(T('2025-06-18'), 31, 33),
            ),
          ],
        }),
      ],
      '2025-11-25': [
        clause('MUST NOT', 'Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.', spec(T('2025-11-25'), 28), {
          also: [
            q('Messages are individual JSON-RPC requests, notifications, or responses.', spec(T('2025-11-25'), 27)),
            q(
              'The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message. | The client **MUST NOT** write anything to the server\'s `stdin` that is not a valid MCP message.',
              spec(T('2025-11-25'), 33, 35),
            ),
          ],
        }),
      ],
      '2026-07-28': [
        clause('MUST NOT', 'Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.', spec(SI, 13), {
          also: [
            q(
              'The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message. | The client **MUST NOT** write anything to the server\'s `stdin` that is not a valid MCP message.',
              spec(SI, 18, 21),
            ),
          ],
        }),
      ],
    },
    judged: true,
  },
  {
    id: 'XPORT-STDIO-CANCEL-NOTIFY',
    name: 'On stdio, cancel with the notification',
    section: '10.2',
    description: 'In 2026-07-28 on stdio, a client that abandons a request must send notifications/cancelled for it.',
    transports: STDIO,
    revisions: {
      '2026-07-28': [
        clause(
          'MUST',
          'To cancel an in-flight request, the client **MUST** send a `notifications/cancelled` notification referencing the request\'s ID.',
          spec(SI, 78, 79),
          {
            also: [
              q(
                '**stdio**: There is no per-request stream to close. The client **MUST** send a `notifications/cancelled` notification referencing the request ID.',
                spec(C('2026-07-28'), 42, 43),
              ),
              q(
                'Each binding defines how a client abandons an in-flight request: on stdio the client sends a `notifications/cancelled` notification; on Streamable HTTP it closes the request\'s response stream.',
                spec(TI, 54, 56),
              ),
            ],
          },
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'HTTP-TRANSPORT',
    name: 'Which HTTP transport the revision defines',
    section: '10.2',
    description:
      '2024-11-05 defines HTTP+SSE (POST endpoint plus one SSE stream); 2025-03-26 on, Streamable HTTP, where every client message is its own POST.',
    transports: HTTP,
    revisions: {
      '2024-11-05': [
        clause(
          'MUST',
          'When a client connects, the server **MUST** send an `endpoint` event containing a URI for the client to use for sending messages. All subsequent client messages **MUST** be sent as HTTP POST requests to this endpoint.',
          spec(T('2024-11-05'), 67, 69),
        ),
      ],
      ...same(
        'MUST',
        'Every JSON-RPC message sent from the client **MUST** be a new HTTP POST request to the MCP endpoint.',
        T,
        { '2025-03-26': [84, 85], '2025-06-18': [84, 85], '2025-11-25': [88, 89] },
      ),
      '2026-07-28': [
        clause('MUST', 'Every JSON-RPC message sent from the client **MUST** be a new HTTP POST request to the MCP endpoint.', spec(SH, 72, 73)),
      ],
    },
    judged: false,
    reason: 'It describes the transport itself; the lab\'s wire model fixes its shape, so a trace cannot depart from it.',
  },
  {
    id: 'HTTP-NOTIFICATION-202',
    name: 'A POSTed notification gets 202 and no body',
    section: '10.2',
    description:
      'On Streamable HTTP a POST carrying a notification (a cancel, say) is answered 202 Accepted with no body, or with an HTTP error status if refused, whose body may be a JSON-RPC error response without id.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'MUST',
          'If the input consists solely of (any number of) JSON-RPC _responses_ or _notifications_: | If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body. | If the server cannot accept the input, it **MUST** return an HTTP error status code (e.g., 400 Bad Request). The HTTP response body **MAY** comprise a JSON-RPC _error response_ that has no `id`.',
          spec(T('2025-03-26'), 96, 102),
        ),
      ],
      ...same(
        'MUST',
        'If the input is a JSON-RPC _response_ or _notification_: | If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body. | If the server cannot accept the input, it **MUST** return an HTTP error status code (e.g., 400 Bad Request). The HTTP response body **MAY** comprise a JSON-RPC _error response_ that has no `id`.',
        T,
        { '2025-06-18': [91, 96], '2025-11-25': [95, 100] },
      ),
      '2026-07-28': [
        clause(
          'MUST',
          'If the body is a JSON-RPC _notification_: | If the server accepts it, the server **MUST** return HTTP status code `202 Accepted` with no body. | If the server cannot accept it, it **MUST** return an HTTP error status code (e.g., `400 Bad Request`). The HTTP response body **MAY** comprise a JSON-RPC _error response_ that has no `id`.',
          spec(SH, 82, 87),
        ),
      ],
    },
    notes: ['U-3: in 2026-07-28 a cancel notification over HTTP is not expected, but the POST mechanics still apply.'],
    judged: true,
  },
  {
    id: 'XPORT-HTTP-DISCONNECT-NOT-CANCEL',
    name: 'A disconnect is not a cancel (2025 HTTP)',
    section: '10.2',
    description:
      'On Streamable HTTP 2025-03-26 to 2025-11-25 the server should not treat a dropped connection as the client cancelling its request.',
    transports: STREAMABLE,
    revisions: same(
      'SHOULD NOT',
      `${DISCONNECT_MAY} | Disconnection **SHOULD NOT** be interpreted as the client cancelling its request.`,
      T,
      { '2025-03-26': [120, 122], '2025-06-18': [112, 114], '2025-11-25': [126, 128] },
    ),
    notes: ['R7, R11. Reversed in 2026-07-28 (XPORT-HTTP-CLOSE-IS-CANCEL).'],
    judged: true,
  },
  {
    id: 'XPORT-HTTP-CANCEL-EXPLICIT',
    name: 'Cancel explicitly (2025 HTTP)',
    section: '10.2',
    description:
      'On Streamable HTTP 2025-03-26 to 2025-11-25 a client that cancels should send notifications/cancelled, not just drop the connection.',
    transports: STREAMABLE,
    revisions: same(
      'SHOULD',
      `${DISCONNECT_MAY} … To cancel, the client **SHOULD** explicitly send an MCP \`CancelledNotification\`.`,
      T,
      { '2025-03-26': [120, 123], '2025-06-18': [112, 115], '2025-11-25': [126, 129] },
    ),
    notes: ['U-13.'],
    judged: true,
  },
  {
    id: 'XPORT-HTTP-CLOSE-IS-CANCEL',
    name: 'Closing the stream is the cancel (2026 HTTP)',
    section: '10.2',
    description:
      'In 2026-07-28 on Streamable HTTP, the client cancels by closing the request\'s response stream, and the server must treat that as cancellation.',
    transports: STREAMABLE,
    revisions: {
      '2026-07-28': [
        clause(
          'MUST',
          '**Streamable HTTP**: Closing the SSE response stream is the cancellation signal. The server **MUST** treat a client disconnect as cancellation of that request. No `notifications/cancelled` message is required or expected.',
          spec(C('2026-07-28'), 39, 41),
          {
            also: [
              q(
                'Closing the SSE response stream **MUST** be treated by the server as cancellation of that request. Because each request has its own response stream, the transport-level disconnect is unambiguous.',
                spec(SH, 235, 237),
              ),
              q(
                'Each binding defines how a client abandons an in-flight request: on stdio the client sends a `notifications/cancelled` notification; on Streamable HTTP it closes the request\'s response stream.',
                spec(TI, 54, 56),
              ),
            ],
          },
        ),
      ],
    },
    notes: ['U-4: for a request answered with application/json (no SSE stream) this is unclear, so at most info.'],
    judged: true,
  },
  {
    id: 'XPORT-HTTP-NO-CANCEL-NOTIFICATION',
    name: 'No cancel notification expected on 2026 HTTP',
    section: '10.2',
    description:
      'In 2026-07-28 on Streamable HTTP no notifications/cancelled is required or expected; sending one anyway is not prohibited.',
    transports: STREAMABLE,
    revisions: {
      '2026-07-28': [
        clause(
          'info',
          'This revision of the core protocol defines no client-to-server _notifications_ over Streamable HTTP. The only client-sent notification in the core protocol, `notifications/cancelled`, is used only on the [stdio](/specification/2026-07-28/basic/transports/stdio) transport; on Streamable HTTP, closing the SSE response stream is itself the cancellation signal and no `notifications/cancelled` message is expected (see [Cancellation][cancellation]). The notification rules above describe the transport mechanics for a notification POST; header requirements for notification POSTs are not defined by this revision.',
          spec(SH, 95, 103),
          { also: [q('No `notifications/cancelled` message is required or expected.', spec(C('2026-07-28'), 40, 41))] },
        ),
      ],
    },
    notes: ['U-3.'],
    judged: true,
  },
  {
    id: 'HTTP-RESPONSE-ON-POST-STREAM',
    name: 'The POST stream eventually carries the response',
    section: '10.2',
    description: 'The SSE stream opened for a POSTed request should eventually carry its response.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'SHOULD',
          'The SSE stream **SHOULD** eventually include one JSON-RPC _response_ per each JSON-RPC _request_ sent in the POST body. These _responses_ **MAY** be [batched](https://www.jsonrpc.org/specification#batch).',
          spec(T('2025-03-26'), 108, 110),
        ),
      ],
      '2025-06-18': [
        clause(
          'SHOULD',
          'The SSE stream **SHOULD** eventually include JSON-RPC _response_ for the JSON-RPC _request_ sent in the POST body.',
          spec(T('2025-06-18'), 102, 103),
        ),
      ],
      '2025-11-25': [
        clause(
          'SHOULD',
          'The SSE stream **SHOULD** eventually include a JSON-RPC _response_ for the JSON-RPC _request_ sent in the POST body.',
          spec(T('2025-11-25'), 117, 118),
        ),
      ],
    },
    notes: ['A response on another stream breaks it; a stream still without one is cannot-tell. 2026-07-28 no longer says it: its final response only SHOULD terminate the stream.'],
    judged: true,
  },
  {
    id: 'HTTP-RESPONSE-CONTENT-TYPE',
    name: 'A POSTed request is answered with JSON or an SSE stream',
    section: '10.2',
    description:
      'The server answers a POSTed request with Content-Type application/json (one JSON object) or text/event-stream (an SSE stream), and its body is what the label says; the client must handle both.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'MUST',
          'If the input contains any number of JSON-RPC _requests_, the server **MUST** either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object. The client **MUST** support both these cases.',
          spec(T('2025-03-26'), 103, 106),
        ),
      ],
      ...same(
        'MUST',
        'If the input is a JSON-RPC _request_, the server **MUST** either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object. The client **MUST** support both these cases.',
        T,
        { '2025-06-18': [97, 100], '2025-11-25': [101, 104] },
      ),
      '2026-07-28': [
        clause(
          'MUST',
          'If the body is a JSON-RPC _request_, the server **MUST** return either `Content-Type: application/json` (a single JSON object) or `Content-Type: text/event-stream` (an SSE response stream). The client **MUST** support both.',
          spec(SH, 88, 91),
        ),
      ],
    },
    notes: [
      "The server's half is judged from the answer's head and, once the stream has ended, its body. The client's half (support both) is shown, not judged: the real SDK fails the call on any other label (\"Unexpected content type\"), as the spec lets it.",
    ],
    judged: true,
  },
  {
    id: 'HTTP-RELATED-MESSAGES',
    name: 'Messages on a POST stream relate to its request',
    section: '10.2',
    description: 'Requests and notifications the server sends on a POST\'s stream should (2026-07-28: must) relate to that request.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'SHOULD',
          'The server **MAY** send JSON-RPC _requests_ and _notifications_ before sending a JSON-RPC _response_. These messages **SHOULD** relate to the originating client _request_.',
          spec(T('2025-03-26'), 111, 113),
        ),
      ],
      ...same(
        'SHOULD',
        'The server **MAY** send JSON-RPC _requests_ and _notifications_ before sending the JSON-RPC _response_. These messages **SHOULD** relate to the originating client _request_.',
        T,
        { '2025-06-18': [104, 106], '2025-11-25': [119, 121] },
      ),
      '2026-07-28': [
        clause(
          'MUST',
          'The server **MAY** send JSON-RPC _notifications_ — for example, [`notifications/progress`][notifications-progress] or [`notifications/message`][notifications-message] — before the final response. These notifications **MUST** relate to the originating client request.',
          spec(SH, 112, 116),
        ),
      ],
    },
    notes: ['Only progress names its request (by token), so only progress on another request\'s stream is judged.'],
    judged: true,
  },
  {
    id: 'HTTP-NO-EARLY-CLOSE',
    name: 'The server does not close a POST stream before the response',
    section: '10.2',
    description:
      'The server should not end a request\'s SSE stream before it has sent the response (2025-11-25: it may close the connection to be polled, which is not a cancel).',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'SHOULD NOT',
          'The server **SHOULD NOT** close the SSE stream before sending a JSON-RPC _response_ per each received JSON-RPC _request_, unless the [session](#session-management) expires.',
          spec(T('2025-03-26'), 115, 117),
        ),
      ],
      '2025-06-18': [
        clause(
          'SHOULD NOT',
          'The server **SHOULD NOT** close the SSE stream before sending the JSON-RPC _response_ for the received JSON-RPC _request_, unless the [session](#session-management) expires.',
          spec(T('2025-06-18'), 107, 109),
        ),
      ],
      '2025-11-25': [
        clause('MAY', 'The server **MAY** terminate the SSE stream if the [session](#session-management) expires.', spec(T('2025-11-25'), 122, 123), {
          also: [
            q(
              'After the server has sent an SSE event with an event ID to the client, the server **MAY** close the _connection_ (without terminating the _SSE stream_) at any time in order to avoid holding a long-lived connection. The client **SHOULD** then "poll" the SSE stream by attempting to reconnect.',
              spec(T('2025-11-25'), 109, 112),
            ),
          ],
        }),
      ],
    },
    notes: ['R11: in 2025-11-25 a server-closed stream is a polling close, not a cancel (info).'],
    judged: true,
  },
  {
    id: 'HTTP-CLOSE-AFTER-RESPONSE',
    name: 'The server closes the stream after the response',
    section: '10.2',
    description: 'Once the response is on the stream, the server should close (terminate) it.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause('SHOULD', 'After all JSON-RPC _responses_ have been sent, the server **SHOULD** close the SSE stream.', spec(T('2025-03-26'), 118, 119)),
      ],
      '2025-06-18': [
        clause('SHOULD', 'After the JSON-RPC _response_ has been sent, the server **SHOULD** close the SSE stream.', spec(T('2025-06-18'), 110, 111)),
      ],
      '2025-11-25': [
        clause('SHOULD', 'After the JSON-RPC _response_ has been sent, the server **SHOULD** terminate the SSE stream.', spec(T('2025-11-25'), 124, 125)),
      ],
      '2026-07-28': [clause('SHOULD', 'The final JSON-RPC _response_ **SHOULD** terminate the stream.', spec(SH, 125))],
    },
    judged: false,
    reason: 'An unfinished trace cannot show that a stream is never closed; the trace records the close only when it happens.',
  },
  {
    id: 'HTTP-SSE-POLLING',
    name: 'SSE polling (2025-11-25)',
    section: '10.2',
    description: 'In 2025-11-25 the server may close the connection of an SSE stream on purpose and the client reconnects to poll it.',
    transports: STREAMABLE,
    revisions: {
      '2025-11-25': [
        clause(
          'MAY',
          'After the server has sent an SSE event with an event ID to the client, the server **MAY** close the _connection_ (without terminating the _SSE stream_) at any time in order to avoid holding a long-lived connection. The client **SHOULD** then "poll" the SSE stream by attempting to reconnect.',
          spec(T('2025-11-25'), 109, 112),
          {
            also: [
              q(
                'The server **SHOULD** immediately send an SSE event consisting of an event ID and an empty `data` field in order to prime the client to reconnect (using that event ID as `Last-Event-ID`).',
                spec(T('2025-11-25'), 106, 108),
              ),
              q(
                'The client **MUST** respect the `retry` field, waiting the given number of milliseconds before attempting to reconnect.',
                spec(T('2025-11-25'), 115, 116),
              ),
            ],
          },
        ),
      ],
    },
    notes: [
      'R11. Judged: the client\'s reconnect after the server ends an SSE stream, against the last `retry` it received on that stream (or on the stream it resumes), counted from the end\'s arrival. Whether the server primes or sends `retry` is not judged (a server that is not resumable does neither).',
    ],
    judged: true,
  },
  {
    id: 'HTTP-GET-STREAM',
    name: 'No responses on the GET stream',
    section: '10.2',
    description: 'The server must not put a response on the standalone GET stream unless it is resuming an earlier request\'s stream.',
    transports: STREAMABLE,
    revisions: same(
      'MUST NOT',
      'The server **MUST NOT** send a JSON-RPC _response_ on the stream **unless** [resuming](#resumability-and-redelivery) a stream associated with a previous client request.',
      T,
      { '2025-03-26': [143, 145], '2025-06-18': [133, 135], '2025-11-25': [147, 149] },
    ),
    judged: true,
  },
  {
    id: 'HTTP-NO-BROADCAST',
    name: 'Each message on one stream only',
    section: '10.2',
    description: 'The server sends each message on exactly one of the client\'s open streams.',
    transports: STREAMABLE,
    revisions: same(
      'MUST NOT',
      'The server **MUST** send each of its JSON-RPC messages on only one of the connected streams; that is, it **MUST NOT** broadcast the same message across multiple streams.',
      T,
      { '2025-03-26': [152, 153], '2025-06-18': [142, 143], '2025-11-25': [159, 160] },
    ),
    judged: false,
    reason: 'Equal bytes on two streams may be two legitimate messages; telling a broadcast apart needs the server\'s own record of what it sent.',
  },
  {
    id: 'HTTP-RESUME',
    name: 'Resumable streams',
    section: '10.2',
    description: 'Legacy Streamable HTTP lets the server make streams resumable (Last-Event-ID); 2026-07-28 removes resumption.',
    transports: STREAMABLE,
    revisions: {
      ...same(
        'MAY',
        'To avoid message loss due to disconnection, the server **MAY** make the stream [resumable](#resumability-and-redelivery).',
        T,
        { '2025-03-26': [124, 125], '2025-06-18': [116, 117], '2025-11-25': [130, 131] },
        {
          '2025-03-26': resumeQuotes('2025-03-26', RESUME_BROKEN, [167, 170], [171, 175]),
          '2025-06-18': resumeQuotes('2025-06-18', RESUME_BROKEN, [157, 160], [161, 165]),
          '2025-11-25': resumeQuotes('2025-11-25', RESUME_DISCONNECTED, [176, 180], [181, 185]),
        },
      ),
      '2026-07-28': [clause('info', 'Resumable SSE streams via `Last-Event-ID` are not supported.', spec(SH, 157))],
    },
    notes: [
      'Judged: after the server ends an SSE stream whose request is unanswered and whose events carried ids, the client\'s next GET names the last id it received (SHOULD); a stream resumed with `Last-Event-ID` carries only messages of the stream it resumes (MUST NOT). Replaying is a permission, so what a resumed stream replays is reported, never required.',
    ],
    judged: true,
  },
  {
    id: 'HTTP-REISSUE-NEW-ID',
    name: 'Re-issue a lost request under a new id (2026)',
    section: '10.2',
    description: 'In 2026-07-28 a request lost with its broken stream is re-issued as a new request with a new id (changelog only).',
    transports: STREAMABLE,
    revisions: {
      '2026-07-28': [
        clause(
          'MUST',
          'A broken response stream loses the in-flight request; clients **MUST** re-issue it as a new request with a new request ID',
          spec(`${D}/2026-07-28/changelog.mdx`, 28),
        ),
      ],
    },
    notes: ['U-8: stated only in the changelog.'],
    judged: false,
    reason: 'A re-issued request cannot be told from a new call on the wire, and the text is only in the changelog (U-8).',
  },
  {
    id: 'HTTP-SESSION',
    name: 'Sessions and session expiry',
    section: '10.2',
    description:
      'Legacy Streamable HTTP sessions: after the server ends a session it answers 404, and a client that gets 404 for its session starts a new one with an initialize that carries no session id.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [clause('MUST', sessionQuote('Mcp-Session-Id'), spec(T('2025-03-26'), 198, 202))],
      '2025-06-18': [clause('MUST', sessionQuote('Mcp-Session-Id'), spec(T('2025-06-18'), 188, 192))],
      '2025-11-25': [clause('MUST', sessionQuote('MCP-Session-Id'), spec(T('2025-11-25'), 211, 215))],
    },
    notes: [
      "The client's half is judged: after a 404 to a request that carried a session id, the client's next request must be an initialize without one. The server's half (404 once the session has ended) is shown, not judged: the trace shows a session's end only by the 404 itself.",
    ],
    judged: true,
  },
  {
    id: 'STDIO-UNEXPECTED-EXIT',
    name: 'Restart a server that exits',
    section: '10.2',
    description: 'In 2026-07-28, if the stdio server exits unexpectedly the client should restart it; in-flight requests are lost.',
    transports: STDIO,
    revisions: {
      '2026-07-28': [
        clause(
          'SHOULD',
          'If the server process exits unexpectedly, the client **SHOULD** restart it. Because the protocol is stateless, any in-flight requests are simply lost and the client can retry them against the fresh process.',
          spec(SI, 111, 113),
        ),
      ],
    },
    judged: false,
    reason: 'In the lab a restart is the user\'s Reconnect, not the client\'s own decision, so a trace cannot show whether the client would restart.',
  },
  {
    id: 'SERVER-NO-REQUESTS',
    name: 'Servers send no requests (2026)',
    section: '10.2',
    description: 'In 2026-07-28 the server never sends a JSON-RPC request (so it has nothing of its own to cancel).',
    transports: 'all',
    revisions: {
      '2026-07-28': [
        clause(
          'MUST NOT',
          'Servers **MUST NOT** initiate JSON-RPC requests, and clients do not send JSON-RPC responses.',
          spec(`${D}/2026-07-28/basic/patterns/index.mdx`, 20, 21),
          {
            also: [
              q('The server **MUST NOT** write JSON-RPC _requests_ to `stdout`.', spec(SI, 55)),
              q('The server **MUST NOT** send independent JSON-RPC _requests_ on this stream.', spec(SH, 117)),
            ],
          },
        ),
      ],
    },
    judged: true,
  },
];
