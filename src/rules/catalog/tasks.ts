/**
 * §10.4 of the digest's matrix: tasks (the 2025-11-25 utility and the 2026 extension) and batching.
 */
import type { Rule } from './rule.ts';
import { I, K, SH, STREAMABLE, T, clause, ext, q, same, spec } from './sources.ts';

export const TASK_RULES: readonly Rule[] = [
  {
    id: 'TASK-CANCEL-TERMINAL-REJECT',
    name: 'tasks/cancel on a finished task fails with -32602',
    section: '10.4',
    description: 'In 2025-11-25 a tasks/cancel for a task already completed, failed or cancelled is rejected with error -32602.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'Receivers **MUST** reject cancellation requests for tasks already in a terminal status (`completed`, `failed`, or `cancelled`) with error code `-32602` (Invalid params).',
          spec(K, 494),
          { also: [q('Attempt to cancel a task already in a terminal status: `-32602` (Invalid params)', spec(K, 770))] },
        ),
      ],
    },
    notes: ['R9. Replaced in the 2026 extension by an eventually consistent ack (TASKX-CANCEL-ACK).'],
    judged: true,
  },
  {
    id: 'TASK-CANCEL-TRANSITION',
    name: 'A cancelled task is cancelled before the response',
    section: '10.4',
    description: 'In 2025-11-25 the answer to a valid tasks/cancel shows the task in status cancelled.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'Upon receiving a valid cancellation request, receivers **SHOULD** attempt to stop the task execution and **MUST** transition the task to `cancelled` status before sending the response.',
          spec(K, 495),
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'TASK-CANCEL-STICKY',
    name: 'A cancelled task stays cancelled',
    section: '10.4',
    description: 'In 2025-11-25 once a task is reported cancelled, it is never reported in another status.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'Once a task is cancelled, it **MUST** remain in `cancelled` status even if execution continues to completion or fails.',
          spec(K, 496),
          {
            also: [
              q(
                'Tasks with a `completed`, `failed`, or `cancelled` status are in a terminal state and **MUST NOT** transition to any other status',
                spec(K, 407),
              ),
            ],
          },
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'TASK-CANCEL-DELETE',
    name: 'Cancelled tasks may be deleted',
    section: '10.4',
    description: 'In 2025-11-25 the receiver may delete a cancelled task at any time.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MAY',
          'The `tasks/cancel` operation does not define deletion behavior. However, receivers **MAY** delete cancelled tasks at their discretion at any time, including immediately after cancellation or after the task `ttl` expires.',
          spec(K, 497),
        ),
      ],
    },
    judged: false,
    reason: 'A permission to the receiver; nothing on the wire can break it.',
  },
  {
    id: 'TASK-CANCEL-NO-RETENTION',
    name: 'Do not rely on cancelled tasks being kept',
    section: '10.4',
    description: 'In 2025-11-25 a requestor should fetch what it needs before cancelling a task.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'SHOULD NOT',
          'Requestors **SHOULD NOT** rely on cancelled tasks being retained for any specific duration and should retrieve any needed information before cancelling.',
          spec(K, 498),
        ),
      ],
    },
    judged: false,
    reason: 'What a requestor relies on is its own design, not visible on the wire.',
  },
  {
    id: 'TASK-ERRORS',
    name: 'Task protocol errors are -32602',
    section: '10.4',
    description: 'In 2025-11-25 an unknown taskId, a bad cursor or a cancel of a finished task is answered with JSON-RPC error -32602.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'Receivers **MUST** return standard JSON-RPC errors for the following protocol error cases: | Invalid or nonexistent `taskId` in `tasks/get`, `tasks/result`, or `tasks/cancel`: `-32602` (Invalid params) | Invalid or nonexistent cursor in `tasks/list`: `-32602` (Invalid params) | Attempt to cancel a task already in a terminal status: `-32602` (Invalid params)',
          spec(K, 766, 770),
        ),
      ],
    },
    judged: false,
    reason:
      'Which taskIds the receiver knows is not on the wire (tasks may predate the trace); the terminal-status case is judged by TASK-CANCEL-TERMINAL-REJECT.',
  },
  {
    id: 'TASK-SSE-DISCONNECT-OK',
    name: 'Clients may drop task polling streams',
    section: '10.4',
    description: 'In 2025-11-25 a client may disconnect from the SSE stream of a tasks/get or tasks/result at any time.',
    transports: STREAMABLE,
    revisions: {
      '2025-11-25': [
        clause(
          'MAY',
          'In the Streamable HTTP (SSE) transport, clients **MAY** disconnect from an SSE stream opened by the server in response to a `tasks/get` request at any time.',
          spec(K, 186),
          {
            also: [
              q(
                'In the Streamable HTTP (SSE) transport, clients **MAY** disconnect from an SSE stream opened by the server in response to a `tasks/result` request at any time.',
                spec(K, 232),
              ),
            ],
          },
        ),
      ],
    },
    judged: false,
    reason: 'A permission to the client; nothing on the wire can break it.',
  },
  {
    id: 'TASK-CREATE-RESULT',
    name: 'An accepted task-augmented request is answered with a CreateTaskResult',
    section: '10.4',
    description: 'In 2025-11-25 a receiver that accepts a task-augmented request answers it with a CreateTaskResult (the task), not with the request\'s own result.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'Receivers that accept a task-augmented request **MUST** return a `CreateTaskResult` as the response. This result **SHOULD** be returned as soon as possible after accepting the task.',
          spec(K, 463),
        ),
      ],
    },
    notes: ['An error answer is a refusal, not an accepted task. "As soon as possible" has no bound to measure; only the shape of the answer is judged.', 'U-12.'],
    judged: true,
  },
  {
    id: 'TASK-RESULT-BLOCKS',
    name: 'tasks/result waits for a terminal status',
    section: '10.4',
    description:
      'In 2025-11-25 the answer to tasks/result for a task still working (or needing input) waits until the task is completed, failed or cancelled.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'When a receiver receives a `tasks/result` request for a task in any other non-terminal status (`working` or `input_required`), it **MUST** block the response until the task reaches a terminal status.',
          spec(K, 465),
          {
            also: [
              q(
                'When a receiver receives a `tasks/result` request for a task in a terminal status (`completed`, `failed`, or `cancelled`), it **MUST** return the final result of the underlying request, whether that is a successful result or a JSON-RPC error.',
                spec(K, 464),
              ),
            ],
          },
        ),
      ],
    },
    notes: ['Judged from the statuses the receiver reported: a terminal status before the answer keeps it, a non-terminal one after the answer breaks it.'],
    judged: true,
  },
  {
    id: 'TASKX-NO-NOTIF-CANCEL',
    name: 'Tasks are not cancelled with the notification (2026 extension)',
    section: '10.4',
    description:
      'With the 2026 tasks extension, a task is cancelled with tasks/cancel; notifications/cancelled must not be used for it.',
    transports: 'all',
    revisions: {
      '2026-07-28': [
        clause(
          'MUST NOT',
          'A client sends a `tasks/cancel` request to signal its intent to cancel an in-progress task. The `notifications/cancelled` notification **MUST NOT** be used for task cancellation.',
          ext(385),
        ),
      ],
    },
    notes: ['R9.'],
    judged: true,
  },
  {
    id: 'TASKX-CANCEL-ACK',
    name: 'tasks/cancel is acknowledged with an empty result (2026 extension)',
    section: '10.4',
    description: 'With the 2026 tasks extension, a successful tasks/cancel is answered with an empty result.',
    transports: 'all',
    revisions: { '2026-07-28': [clause('MUST', 'On success, the server **MUST** acknowledge the request with an empty result.', ext(404))] },
    judged: true,
  },
  {
    id: 'TASKX-CANCEL-UNKNOWN',
    name: 'Unknown taskId gets an error (2026 extension)',
    section: '10.4',
    description: 'With the 2026 tasks extension, a tasks/cancel for an unknown taskId should get a JSON-RPC error.',
    transports: 'all',
    revisions: {
      '2026-07-28': [clause('SHOULD', 'Servers **SHOULD** return a JSON-RPC error if the `taskId` does not correspond to a known task.', ext(404))],
    },
    judged: false,
    reason: 'Which tasks the server knows is not on the wire: 2026-07-28 is stateless, so a task may come from another connection.',
  },
  {
    id: 'TASKX-CANCEL-EVENTUAL',
    name: 'Task cancellation is eventually consistent (2026 extension)',
    section: '10.4',
    description:
      'With the 2026 tasks extension, a cancelled task may stay working for a while, and may even end completed or failed.',
    transports: 'all',
    revisions: {
      '2026-07-28': [
        clause(
          'MAY',
          'Cancellation processing is _eventually consistent_ — the task\'s observable status **MAY** remain `working` (or some other non-terminal status) after the ack, and **MAY** ultimately reach a terminal status other than `cancelled` if the work finished before cancellation could take effect.',
          ext(404),
          {
            also: [
              q(
                'Cancellation is **cooperative**: The request signals intent, and the server decides whether and when to honor it. A server is not obligated to actually stop the work; it is only obligated to acknowledge the request. Eventual transition to `cancelled` is not guaranteed.',
                ext(406),
              ),
            ],
          },
        ),
      ],
    },
    judged: false,
    reason: 'A permission: every status after the ack is allowed.',
  },
  {
    id: 'TASKX-CANCEL-CLIENT-FORGET',
    name: 'Clients may forget a cancelled task (2026 extension)',
    section: '10.4',
    description: 'With the 2026 tasks extension, a client may drop all its state for a task once it has sent the cancel.',
    transports: 'all',
    revisions: {
      '2026-07-28': [clause('MAY', 'Clients **MAY** delete all state associated with the task as soon as they send a cancellation', ext(408))],
    },
    judged: false,
    reason: 'A permission about the client\'s own state; nothing on the wire can break it.',
  },
  {
    id: 'TASKX-CANCEL-RESULTTYPE',
    name: 'The tasks/cancel result is "complete" (2026 extension)',
    section: '10.4',
    description: 'With the 2026 tasks extension, the result of tasks/cancel has resultType "complete".',
    transports: 'all',
    revisions: {
      '2026-07-28': [
        clause(
          'MUST',
          'The `resultType` field **MUST** be set to `"complete"` on `CancelTaskResult` as it is the standard result shape for the `tasks/cancel` request.',
          ext(410),
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'TASKX-NO-PROGRESS',
    name: 'No progress for tasks (2026 extension)',
    section: '10.4',
    description:
      'With the 2026 tasks extension, progress is not supported on tasks: no progress for a request once it was answered with a task.',
    transports: 'all',
    revisions: {
      '2026-07-28': [
        clause(
          'MUST NOT',
          '`notifications/progress` and `notifications/message` notifications **MUST NOT** be sent on the `subscriptions/listen` stream for a task, and are not supported on tasks in general in this specification.',
          ext(507),
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'TASKX-ROUTING-HEADER',
    name: 'tasks/cancel carries Mcp-Name (2026 extension, HTTP)',
    section: '10.4',
    description: 'With the 2026 tasks extension over Streamable HTTP, tasks/get, tasks/update and tasks/cancel carry the Mcp-Name header set to the taskId.',
    transports: STREAMABLE,
    revisions: {
      '2026-07-28': [
        clause(
          'MUST',
          'When `tasks/get`, `tasks/update`, or `tasks/cancel` is sent over the Streamable HTTP transport, the client **MUST** set the `Mcp-Name` header to the value of `params.taskId`.',
          ext(511),
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'BATCH-SUPPORT',
    name: 'JSON-RPC batches (2025-03-26 only)',
    section: '10.4',
    description: 'In 2025-03-26 implementations may send batches and must accept them; a cancel may ride in a batch.',
    transports: 'all',
    revisions: {
      '2025-03-26': [
        clause(
          'MUST',
          'MCP implementations **MAY** support sending JSON-RPC batches, but **MUST** support receiving JSON-RPC batches.',
          spec(I('2025-03-26'), 96, 97),
        ),
      ],
    },
    notes: ['R10: the spec says nothing cancellation-specific about batches.'],
    judged: false,
    reason: 'A receiver that cannot handle a batch shows only as missing answers, which a trace cannot tell from slowness.',
  },
  {
    id: 'BATCH-HTTP',
    name: 'What a POST body may hold',
    section: '10.4',
    description: 'In 2025-03-26 a POST body is one message or a batch; from 2025-06-18 it is exactly one message.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'MUST',
          'The body of the POST request **MUST** be one of the following: | A single JSON-RPC _request_, _notification_, or _response_ | An array [batching](https://www.jsonrpc.org/specification#batch) one or more _requests and/or notifications_ | An array [batching](https://www.jsonrpc.org/specification#batch) one or more _responses_',
          spec(T('2025-03-26'), 90, 95),
        ),
      ],
      ...same('MUST', 'The body of the POST request **MUST** be a single JSON-RPC _request_, _notification_, or _response_.', T, {
        '2025-06-18': [90, 90],
        '2025-11-25': [94, 94],
      }),
      '2026-07-28': [
        clause(
          'MUST',
          'The body of the HTTP POST **MUST** be a single JSON-RPC _request_ or _notification_. The client **MUST NOT** send JSON-RPC _responses_.',
          spec(SH, 80, 81),
        ),
      ],
    },
    judged: true,
  },
];
