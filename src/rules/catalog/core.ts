/**
 * §10.1 of the digest's matrix: the cancellation core (notifications/cancelled, who may send it,
 * what it may name, what its receiver does).
 */
import type { Rule } from './rule.ts';
import { C, I, S, SH, SI, STDIO, STREAMABLE, clause, q, same, spec } from './sources.ts';

// Sentences several rules quote.
const REF_LEGACY =
  'Cancellation notifications **MUST** only reference requests that: | Were previously issued in the same direction | Are believed to still be in-progress';
const REF_2026 =
  'Cancellation notifications **MUST** only reference requests that: | Were previously issued by the client | Are believed to still be in-progress';
const RECV_LEGACY =
  'Receivers of cancellation notifications **SHOULD**: | Stop processing the cancelled request | Free associated resources | Not send a response for the cancelled request';
const RECV_2026 =
  'Servers receiving cancellation notifications **SHOULD**: | Stop processing the cancelled request | Free associated resources | Not send a response for the cancelled request';
const SCHEMA_SAME_DIRECTION = 'This MUST correspond to the ID of a request previously issued in the same direction.';
const SCHEMA_IN_FLIGHT =
  'The request SHOULD still be in-flight, but due to communication latency, it is always possible that this notification MAY arrive after the request has already finished.';
const SCHEMA_UNUSED = 'This notification indicates that the result will be unused, so any associated processing SHOULD cease.';
const SCHEMA_NO_INIT = 'A client MUST NOT attempt to cancel its `initialize` request.';
const SI_STOP_NO_MORE =
  'Servers **SHOULD** stop work on a cancelled request as soon as practical and **MUST NOT** send any further messages for it.';
const SH_STOP_NO_MORE =
  'The server **SHOULD** stop work on the cancelled request as soon as practical and **MUST NOT** send any further messages for it.';

// Line tables of the legacy cancellation page (2025-03-26 is one line up from 2024-11-05;
// 2025-06-18 one down; 2025-11-25 adds the task item after `initialize`).
const LEGACY_REF = { '2024-11-05': [31, 33], '2025-03-26': [30, 32], '2025-06-18': [32, 34], '2025-11-25': [32, 34] } as const;
const LEGACY_RECV = { '2024-11-05': [35, 38], '2025-03-26': [34, 37], '2025-06-18': [36, 39], '2025-11-25': [37, 40] } as const;

export const CORE: readonly Rule[] = [
  {
    id: 'CANCEL-NOTIFY-SHAPE',
    name: 'Shape of notifications/cancelled',
    section: '10.1',
    description:
      'A cancel is the notification `notifications/cancelled` with the id of the request to cancel and an optional reason string, and no JSON-RPC id of its own.',
    transports: 'all',
    revisions: {
      ...same(
        'info',
        'When a party wants to cancel an in-progress request, it sends a `notifications/cancelled` notification containing: | The ID of the request to cancel | An optional reason string that can be logged or displayed',
        C,
        { '2024-11-05': [12, 16], '2025-03-26': [11, 15], '2025-06-18': [13, 17], '2025-11-25': [13, 17] },
        {
          '2025-11-25': [
            q(
              'This MUST correspond to the ID of a request previously issued in the same direction. This MUST be provided for cancelling non-task requests.',
              spec(S('2025-11-25'), 219, 220),
            ),
          ],
        },
      ),
      '2026-07-28': [
        clause(
          'info',
          'When a client wants to cancel an in-progress request, it sends a `notifications/cancelled` notification containing: | The ID of the request to cancel | An optional reason string that can be logged or displayed',
          spec(C('2026-07-28'), 18, 22),
        ),
      ],
    },
    notes: ['U-5: in 2025-11-25 the schema makes requestId optional; a cancel without it is malformed, never an error.'],
    judged: true,
  },
  {
    id: 'CANCEL-WHO',
    name: 'Who may cancel',
    section: '10.1',
    description: 'Until 2025-11-25 either side may cancel a request it issued; from 2026-07-28 cancellation is the client\'s.',
    transports: 'all',
    revisions: {
      ...same(
        'info',
        'The Model Context Protocol (MCP) supports optional cancellation of in-progress requests through notification messages. Either side can send a cancellation notification to indicate that a previously-issued request should be terminated.',
        C,
        { '2024-11-05': [6, 8], '2025-03-26': [5, 7], '2025-06-18': [7, 9], '2025-11-25': [7, 9] },
      ),
      '2026-07-28': [
        clause(
          'SHOULD',
          'The Model Context Protocol (MCP) supports optional cancellation of in-progress requests through notification messages. A client **SHOULD** send a cancellation notification to indicate that a request it previously issued should be terminated.',
          spec(C('2026-07-28'), 7, 9),
        ),
      ],
    },
    notes: ['U-3: on Streamable HTTP 2026 the notification is neither required nor expected.'],
    judged: false,
    reason:
      'Whether a client cancels at all is its own choice; who may cancel what is judged by CANCEL-REF-ISSUED and CANCEL-SERVER-LISTEN-ONLY.',
  },
  {
    id: 'CANCEL-SERVER-LISTEN-ONLY',
    name: 'Servers cancel only subscriptions/listen',
    section: '10.1',
    description:
      'In 2026-07-28 a server sends notifications/cancelled only to end a subscriptions/listen stream, referencing that request\'s id.',
    transports: 'all',
    revisions: {
      '2026-07-28': [
        clause(
          'MUST NOT',
          'A server **MUST** send `notifications/cancelled` referencing a `subscriptions/listen` request ID when it tears down that subscription stream (see [Subscriptions][subscriptions]). Servers **MUST NOT** send `notifications/cancelled` for any other purpose.',
          spec(C('2026-07-28'), 11, 14),
          {
            also: [
              q(
                'Server-sent cancellation notifications **MUST** reference a `subscriptions/listen` request, to terminate that subscription stream',
                spec(C('2026-07-28'), 71, 72),
              ),
              q(
                'On stdio, the server also sends this notification, solely to terminate a {@link SubscriptionsListenRequest | subscriptions/listen} stream: it references the ID of the `subscriptions/listen` request that opened the stream. Servers MUST NOT use this notification to cancel any other request.',
                spec(S('2026-07-28'), 637),
              ),
            ],
          },
        ),
      ],
    },
    notes: [
      'U-1: the subscriptions page has the server end a subscription with a successful subscriptions/listen response instead; either form is never an error.',
    ],
    judged: true,
  },
  {
    id: 'CANCEL-REF-ISSUED',
    name: 'Cancel only requests you issued',
    section: '10.1',
    description:
      'A cancel must name the id of a request its sender issued earlier in the same direction (2026-07-28: a request the client issued).',
    transports: 'all',
    revisions: {
      ...same('MUST', REF_LEGACY, C, LEGACY_REF, {
        '2024-11-05': [q(SCHEMA_SAME_DIRECTION, spec(S('2024-11-05'), 130))],
        '2025-03-26': [q(SCHEMA_SAME_DIRECTION, spec(S('2025-03-26'), 149))],
        '2025-06-18': [q(SCHEMA_SAME_DIRECTION, spec(S('2025-06-18'), 165))],
        '2025-11-25': [q(SCHEMA_SAME_DIRECTION, spec(S('2025-11-25'), 219))],
      }),
      '2026-07-28': [
        clause('MUST', REF_2026, spec(C('2026-07-28'), 68, 70), {
          also: [q('This MUST correspond to the ID of a request the client previously issued.', spec(S('2026-07-28'), 624))],
        }),
      ],
    },
    notes: ['R4: a cancel for an id the sender never issued.'],
    judged: true,
  },
  {
    id: 'CANCEL-REF-INPROGRESS',
    name: 'Cancel only requests still in progress',
    section: '10.1',
    description:
      'A cancel must name a request its sender believes is still in progress: not one whose response the sender already has.',
    transports: 'all',
    revisions: {
      ...same('MUST', REF_LEGACY, C, LEGACY_REF, {
        '2024-11-05': [q(SCHEMA_IN_FLIGHT, spec(S('2024-11-05'), 118))],
        '2025-03-26': [q(SCHEMA_IN_FLIGHT, spec(S('2025-03-26'), 137))],
        '2025-06-18': [q(SCHEMA_IN_FLIGHT, spec(S('2025-06-18'), 151))],
        '2025-11-25': [q(SCHEMA_IN_FLIGHT, spec(S('2025-11-25'), 234))],
      }),
      '2026-07-28': [clause('MUST', REF_2026, spec(C('2026-07-28'), 68, 70), { also: [q(SCHEMA_IN_FLIGHT, spec(S('2026-07-28'), 639))] })],
    },
    notes: [
      'R1: a cancel written while the response is still on the wire is allowed (info).',
      'R3 / U-9: a second cancel for the same request is at most info.',
    ],
    judged: true,
  },
  {
    id: 'CANCEL-NO-INITIALIZE',
    name: 'Never cancel initialize',
    section: '10.1',
    description: 'A client must not cancel its initialize request (legacy revisions; 2026-07-28 has no initialize).',
    transports: 'all',
    revisions: same(
      'MUST NOT',
      'The `initialize` request **MUST NOT** be cancelled by clients',
      C,
      { '2024-11-05': [34, 34], '2025-03-26': [33, 33], '2025-06-18': [35, 35], '2025-11-25': [35, 35] },
      {
        '2024-11-05': [q(SCHEMA_NO_INIT, spec(S('2024-11-05'), 122))],
        '2025-03-26': [q(SCHEMA_NO_INIT, spec(S('2025-03-26'), 141))],
        '2025-06-18': [q(SCHEMA_NO_INIT, spec(S('2025-06-18'), 155))],
        '2025-11-25': [q(SCHEMA_NO_INIT, spec(S('2025-11-25'), 238))],
      },
    ),
    notes: ['R5. U-10: what a server does with such a cancel is not said (not judged).'],
    judged: true,
  },
  {
    id: 'CANCEL-TASK-USE-TASKS-CANCEL',
    name: 'Tasks are cancelled with tasks/cancel',
    section: '10.1',
    description:
      'In 2025-11-25 a task-augmented request is cancelled with tasks/cancel, not with notifications/cancelled.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'For [task-augmented requests](./tasks), the `tasks/cancel` request **MUST** be used instead of the `notifications/cancelled` notification. Tasks have their own dedicated cancellation mechanism that returns the final task state.',
          spec(C('2025-11-25'), 36),
          {
            also: [
              q(
                'This MUST be provided for cancelling non-task requests. This MUST NOT be used for cancelling tasks (use the `tasks/cancel` request instead).',
                spec(S('2025-11-25'), 220, 221),
              ),
              q('For task cancellation, use the `tasks/cancel` request instead of this notification.', spec(S('2025-11-25'), 240)),
            ],
          },
        ),
      ],
    },
    notes: ['R9. U-12: a cancel written before the CreateTaskResult arrived is info (the requestor has no taskId yet).'],
    judged: true,
  },
  {
    id: 'CANCEL-RECV-STOP',
    name: 'Receiver stops processing',
    section: '10.1',
    description: 'The receiver of a cancel should stop working on the request (2026-07-28: as soon as practical).',
    transports: 'all',
    revisions: {
      ...same('SHOULD', RECV_LEGACY, C, LEGACY_RECV),
      '2026-07-28': [
        clause('SHOULD', RECV_2026, spec(C('2026-07-28'), 73, 76), {
          also: [q(SI_STOP_NO_MORE, spec(SI, 81, 82)), q(SH_STOP_NO_MORE, spec(SH, 237, 239))],
        }),
      ],
    },
    judged: true,
  },
  {
    id: 'CANCEL-RECV-FREE',
    name: 'Receiver frees resources',
    section: '10.1',
    description: 'The receiver of a cancel should free the resources the request held.',
    transports: 'all',
    revisions: { ...same('SHOULD', RECV_LEGACY, C, LEGACY_RECV), '2026-07-28': [clause('SHOULD', RECV_2026, spec(C('2026-07-28'), 73, 76))] },
    judged: false,
    reason: 'Resources held by the server are not visible on the wire.',
  },
  {
    id: 'CANCEL-NO-RESPONSE',
    name: 'No response after a cancel',
    section: '10.1',
    description:
      'The receiver of a cancel should not send a response for the cancelled request; a response already written before the cancel arrived is an allowed race.',
    transports: 'all',
    revisions: { ...same('SHOULD', RECV_LEGACY, C, LEGACY_RECV), '2026-07-28': [clause('SHOULD', RECV_2026, spec(C('2026-07-28'), 73, 76))] },
    notes: [
      'R1/R2: a response written before the cancel reached the receiver is info.',
      'U-2: in 2026-07-28 the binding pages make this a MUST NOT (CANCEL-NO-FURTHER-MESSAGES).',
    ],
    judged: true,
  },
  {
    id: 'CANCEL-NO-FURTHER-MESSAGES',
    name: 'No further messages for a cancelled request',
    section: '10.1',
    description:
      'In 2026-07-28, once the server has the cancel (the notification on stdio, the closed stream on HTTP) it sends nothing more for that request: no response, no progress.',
    transports: ['stdio', 'streamable-http'],
    revisions: {
      '2026-07-28': [
        clause('MUST NOT', SI_STOP_NO_MORE, spec(SI, 81, 82), { transports: STDIO }),
        clause('MUST NOT', SH_STOP_NO_MORE, spec(SH, 237, 239), { transports: STREAMABLE }),
      ],
    },
    notes: ['R2/R6: messages written before the cancel reached the server are info.', 'U-2, U-3.'],
    judged: true,
  },
  {
    id: 'CANCEL-RECV-MAY-IGNORE',
    name: 'Receiver may ignore a cancel',
    section: '10.1',
    description: 'A receiver may ignore a cancel for an unknown or finished request, or one it cannot cancel.',
    transports: 'all',
    revisions: {
      ...same(
        'MAY',
        'Receivers **MAY** ignore cancellation notifications if: | The referenced request is unknown | Processing has already completed | The request cannot be cancelled',
        C,
        { '2024-11-05': [39, 42], '2025-03-26': [38, 41], '2025-06-18': [40, 43], '2025-11-25': [41, 44] },
      ),
      '2026-07-28': [
        clause(
          'MAY',
          'Servers **MAY** ignore cancellation notifications if: | The referenced request is unknown | Processing has already completed | The request cannot be cancelled',
          spec(C('2026-07-28'), 77, 80),
        ),
      ],
    },
    judged: false,
    reason: 'A permission: ignoring a cancel is always allowed, so no trace can break it.',
  },
  {
    id: 'CANCEL-IGNORE-LATE-RESPONSE',
    name: 'Canceller ignores a late response',
    section: '10.1',
    description:
      'The side that sent a cancel should ignore a response to that request that arrives afterwards: the call stays stopped, it does not turn into a success.',
    transports: 'all',
    revisions: {
      ...same(
        'SHOULD',
        'The sender of the cancellation notification **SHOULD** ignore any response to the request that arrives afterward',
        C,
        { '2024-11-05': [43, 44], '2025-03-26': [42, 43], '2025-06-18': [44, 45], '2025-11-25': [45, 46] },
      ),
      '2026-07-28': [
        clause(
          'SHOULD',
          'The client **SHOULD** ignore any response to the cancelled request that arrives afterward',
          spec(C('2026-07-28'), 81, 82),
        ),
      ],
    },
    notes: ['R1, R2.'],
    judged: true,
  },
  {
    id: 'CANCEL-RACE-GRACEFUL',
    name: 'Handle cancellation races gracefully',
    section: '10.1',
    description:
      'Both sides must cope when a cancel and the work it targets pass each other: a response after the cancel, a cancel for a finished, unknown or already cancelled request. A party that dies, drops its connection or fails its other calls in the step a race reaches it has not.',
    transports: 'all',
    revisions: {
      ...same(
        'MUST',
        'Due to network latency, cancellation notifications may arrive after request processing has completed, and potentially after a response has already been sent. Both parties **MUST** handle these race conditions gracefully:',
        C,
        { '2024-11-05': [48, 51], '2025-03-26': [47, 50], '2025-06-18': [49, 52], '2025-11-25': [50, 53] },
      ),
      '2026-07-28': [
        clause(
          'MUST',
          'Due to network latency, cancellation notifications may arrive after request processing has completed, and potentially after a response has already been sent. Both parties **MUST** handle these race conditions gracefully:',
          spec(C('2026-07-28'), 86, 89),
        ),
      ],
    },
    notes: [
      'R1, R2, R3, R4: "gracefully" is not defined; what is judged is the opposite, a party that the race takes down (its process exits, it closes the connection, or its calls in flight fail) in the step the race reaches it.',
    ],
    judged: true,
  },
  {
    id: 'CANCEL-INVALID-IGNORE',
    name: 'Ignore invalid cancels',
    section: '10.1',
    description: 'A cancel for an unknown or completed request, or a malformed one, should be ignored.',
    transports: 'all',
    revisions: {
      ...same(
        'SHOULD',
        'Invalid cancellation notifications **SHOULD** be ignored: | Unknown request IDs | Already completed requests | Malformed notifications',
        C,
        { '2024-11-05': [75, 79], '2025-03-26': [74, 78], '2025-06-18': [76, 80], '2025-11-25': [77, 81] },
      ),
      '2026-07-28': [
        clause(
          'SHOULD',
          'Invalid cancellation notifications **SHOULD** be ignored: | Unknown request IDs | Already completed requests | Malformed notifications',
          spec(C('2026-07-28'), 113, 117),
        ),
      ],
    },
    notes: ['R3, R4, U-5, U-9.'],
    judged: true,
  },
  {
    id: 'CANCEL-LOG-REASON',
    name: 'Log cancellation reasons',
    section: '10.1',
    description: 'Both sides should log why a request was cancelled.',
    transports: 'all',
    revisions: {
      ...same('SHOULD', 'Both parties **SHOULD** log cancellation reasons for debugging', C, {
        '2024-11-05': [70, 70],
        '2025-03-26': [69, 69],
        '2025-06-18': [71, 71],
        '2025-11-25': [72, 72],
      }),
      '2026-07-28': [clause('SHOULD', 'Both parties **SHOULD** log cancellation reasons for debugging', spec(C('2026-07-28'), 108))],
    },
    judged: false,
    reason: 'Logging is local to each side and never reaches the wire.',
  },
  {
    id: 'CANCEL-UI-INDICATE',
    name: 'Show that cancellation was requested',
    section: '10.1',
    description: 'An application UI should show when cancellation has been requested.',
    transports: 'all',
    revisions: {
      ...same('SHOULD', 'Application UIs **SHOULD** indicate when cancellation is requested', C, {
        '2024-11-05': [71, 71],
        '2025-03-26': [70, 70],
        '2025-06-18': [72, 72],
        '2025-11-25': [73, 73],
      }),
      '2026-07-28': [clause('SHOULD', 'Application UIs **SHOULD** indicate when cancellation is requested', spec(C('2026-07-28'), 109))],
    },
    judged: false,
    reason: 'It is about the host application\'s UI, which is not part of the trace.',
  },
  {
    id: 'CANCEL-RESULT-UNUSED',
    name: 'Processing should cease (schema)',
    section: '10.1',
    description: 'The schema comment: a cancel means the result will be unused, so processing should cease.',
    transports: 'all',
    revisions: same('SHOULD', SCHEMA_UNUSED, S, {
      '2024-11-05': [120, 120],
      '2025-03-26': [139, 139],
      '2025-06-18': [153, 153],
      '2025-11-25': [236, 236],
      '2026-07-28': [641, 641],
    }),
    judged: false,
    reason: 'The same as CANCEL-RECV-STOP: whether processing ceased is internal to the receiver.',
  },
  {
    id: 'NOTIFICATION-NO-RESPONSE',
    name: 'Nobody answers a notification',
    section: '10.1',
    description: 'A notification, notifications/cancelled included, gets no response.',
    transports: 'all',
    revisions: {
      '2024-11-05': [
        clause(
          'info',
          'Notifications are sent from the client to the server or vice versa. They do not expect a response.',
          spec(I('2024-11-05'), 56, 57),
          { also: [q('Notifications **MUST NOT** include an ID.', spec(I('2024-11-05'), 69))] },
        ),
      ],
      ...same(
        'MUST NOT',
        'Notifications are sent from the client to the server or vice versa, as a one-way message. The receiver **MUST NOT** send a response.',
        I,
        { '2025-03-26': [77, 78], '2025-06-18': [80, 81] },
      ),
      '2025-11-25': [
        clause(
          'MUST NOT',
          '[Notifications](/specification/2025-11-25/schema#jsonrpcnotification) are sent from the client to the server or vice versa, as a one-way message. The receiver **MUST NOT** send a response.',
          spec(I('2025-11-25'), 95, 96),
        ),
      ],
      '2026-07-28': [
        clause(
          'MUST NOT',
          '[Notifications](/specification/2026-07-28/schema#jsonrpcnotification) are sent from the client to the server or vice versa, as a one-way message. The receiver **MUST NOT** send a response.',
          spec(I('2026-07-28'), 159, 160),
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'ID-UNIQUE',
    name: 'Request ids are not reused',
    section: '10.1',
    description:
      'A request id is never reused within the session (2026-07-28: never while another request with that id awaits its response).',
    transports: 'all',
    revisions: {
      ...same(
        'MUST NOT',
        'The request ID **MUST NOT** have been previously used by the requestor within the same session.',
        I,
        { '2024-11-05': [28, 29], '2025-03-26': [45, 46], '2025-06-18': [48, 49], '2025-11-25': [48, 49] },
      ),
      '2026-07-28': [
        clause(
          'MUST NOT',
          'The request ID **MUST NOT** match the ID of any other request the sender has issued and not yet received a response for.',
          spec(I('2026-07-28'), 48, 49),
        ),
      ],
    },
    notes: ['U-7: reusing the id of a cancelled request that never got a response is info in 2026-07-28.'],
    judged: true,
  },
];
