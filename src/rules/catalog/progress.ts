/** §10.3 of the digest's matrix: progress notifications and timeouts. */
import type { Rule } from './rule.ts';
import { C, L, P, clause, q, same, spec, type HttpLegacy } from './sources.ts';

const TIMEOUT_CANCEL_LEGACY = (r: HttpLegacy): string =>
  `When the request has not received a success or error response within the timeout period, the sender **SHOULD** issue a [cancellation notification](/specification/${r}/basic/utilities/cancellation) for that request and stop waiting for a response.`;
const TIMEOUT_RESET = (path: string): string =>
  `Implementations **MAY** choose to reset the timeout clock when receiving a [progress notification](${path}) corresponding to the request, as this implies that work is actually happening.`;
const TIMEOUT_MAX =
  'However, implementations **SHOULD** always enforce a maximum timeout, regardless of progress notifications, to limit the impact of a misbehaving client or server.';
const TIMEOUT_PER_REQUEST = 'SDKs and other middleware **SHOULD** allow these timeouts to be configured on a per-request basis.';
const TIMEOUT_ESTABLISH =
  'Implementations **SHOULD** establish timeouts for all sent requests, to prevent hung connections and resource exhaustion.';

export const PROGRESS_RULES: readonly Rule[] = [
  {
    id: 'PROGRESS-TOKEN-UNIQUE',
    name: 'Progress tokens are unique among active requests',
    section: '10.3',
    description: 'No two requests in progress at the same time carry the same progress token.',
    transports: 'all',
    revisions: {
      ...same(
        'MUST',
        'Progress tokens can be chosen by the sender using any means, but **MUST** be unique across all active requests.',
        P,
        { '2024-11-05': [16, 17], '2025-03-26': [15, 16], '2025-06-18': [17, 18], '2025-11-25': [17, 18] },
      ),
      '2026-07-28': [
        clause(
          'MUST',
          'Progress tokens can be chosen by the client using any means, but **MUST** be unique across all active requests.',
          spec(P('2026-07-28'), 17, 18),
        ),
      ],
    },
    judged: true,
  },
  {
    id: 'PROGRESS-MONOTONIC',
    name: 'Progress only goes up',
    section: '10.3',
    description: 'Each progress notification for a token carries a higher progress value than the one before.',
    transports: 'all',
    revisions: same(
      'MUST',
      'The `progress` value **MUST** increase with each notification, even if the total is unknown.',
      P,
      { '2024-11-05': [50, 51], '2025-03-26': [51, 52], '2025-06-18': [53, 54], '2025-11-25': [53, 54], '2026-07-28': [53, 54] },
    ),
    judged: true,
  },
  {
    id: 'PROGRESS-ACTIVE-ONLY',
    name: 'Progress only for active requests',
    section: '10.3',
    description: 'A progress notification names a token that an active request provided.',
    transports: 'all',
    revisions: same(
      'MUST',
      'Progress notifications **MUST** only reference tokens that: | Were provided in an active request | Are associated with an in-progress operation',
      P,
      { '2024-11-05': [56, 58], '2025-03-26': [58, 60], '2025-06-18': [60, 62], '2025-11-25': [60, 62], '2026-07-28': [60, 62] },
    ),
    notes: ['U-6: progress after a cancel arrived is info before 2026 (in 2026 CANCEL-NO-FURTHER-MESSAGES makes it an error).'],
    judged: true,
  },
  {
    id: 'PROGRESS-STOP-AFTER-COMPLETION',
    name: 'Progress stops after completion',
    section: '10.3',
    description: 'No progress notification for a request after its response was sent.',
    transports: 'all',
    revisions: same('MUST', 'Progress notifications **MUST** stop after completion', P, {
      '2024-11-05': [88, 88],
      '2025-03-26': [90, 90],
      '2025-06-18': [90, 90],
      '2025-11-25': [94, 94],
      '2026-07-28': [90, 90],
    }),
    notes: ['A CreateTaskResult does not complete the work: task progress is judged by PROGRESS-TASK-LIFETIME / TASKX-NO-PROGRESS.'],
    judged: true,
  },
  {
    id: 'PROGRESS-TASK-LIFETIME',
    name: 'Task progress stops at a terminal status',
    section: '10.3',
    description:
      'In 2025-11-25 a task keeps its request\'s progress token until it reaches completed, failed or cancelled; then its progress stops.',
    transports: 'all',
    revisions: {
      '2025-11-25': [
        clause(
          'MUST',
          'For [task-augmented requests](./tasks), the `progressToken` provided in the original request **MUST** continue to be used for progress notifications throughout the task\'s lifetime, even after the `CreateTaskResult` has been returned. The progress token remains valid and associated with the task until the task reaches a terminal status. | Progress notifications for tasks **MUST** use the same `progressToken` that was provided in the initial task-augmented request | Progress notifications for tasks **MUST** stop after the task reaches a terminal status (`completed`, `failed`, or `cancelled`)',
          spec(P('2025-11-25'), 69, 71),
        ),
      ],
    },
    notes: ['R6.'],
    judged: true,
  },
  {
    id: 'TIMEOUT-ESTABLISH',
    name: 'Every request has a timeout',
    section: '10.3',
    description: 'Implementations should put a timeout on every request they send.',
    transports: 'all',
    revisions: {
      '2024-11-05': [
        clause(
          'SHOULD',
          'Implementations **SHOULD** implement appropriate timeouts for all requests, to prevent hung connections and resource exhaustion.',
          spec(L('2024-11-05'), 200, 201),
        ),
      ],
      ...same('SHOULD', TIMEOUT_ESTABLISH, L, { '2025-03-26': [199, 200], '2025-06-18': [206, 207], '2025-11-25': [248, 249] }),
      '2026-07-28': [clause('SHOULD', TIMEOUT_ESTABLISH, spec(C('2026-07-28'), 47, 48))],
    },
    judged: false,
    reason: 'A timeout is a local timer: the trace shows it only if it fires, never that one was set.',
  },
  {
    id: 'TIMEOUT-CANCEL',
    name: 'A timeout cancels the request',
    section: '10.3',
    description:
      'When a request times out, the sender should cancel it (a notifications/cancelled; in 2026-07-28 on HTTP, closing its stream) and stop waiting.',
    transports: 'all',
    revisions: {
      '2025-03-26': [clause('SHOULD', TIMEOUT_CANCEL_LEGACY('2025-03-26'), spec(L('2025-03-26'), 200, 203))],
      '2025-06-18': [clause('SHOULD', TIMEOUT_CANCEL_LEGACY('2025-06-18'), spec(L('2025-06-18'), 207, 210))],
      '2025-11-25': [clause('SHOULD', TIMEOUT_CANCEL_LEGACY('2025-11-25'), spec(L('2025-11-25'), 249, 252))],
      '2026-07-28': [
        clause(
          'SHOULD',
          'When the request has not received a success or error response within the timeout period, the sender **SHOULD** cancel the request and stop waiting for a response.',
          spec(C('2026-07-28'), 48, 50),
          {
            also: [
              q(
                '**Streamable HTTP**: closing the response stream for the request, which constitutes cancellation. | **stdio**: sending a `notifications/cancelled` notification referencing the request ID.',
                spec(C('2026-07-28'), 53, 55),
              ),
            ],
          },
        ),
      ],
    },
    notes: ['R8. The trace has no timeout event; the checker reads a timeout off the client\'s settled-call note.'],
    judged: true,
  },
  {
    id: 'TIMEOUT-PER-REQUEST-CONFIG',
    name: 'Timeouts configurable per request',
    section: '10.3',
    description: 'SDKs should let the caller set the timeout per request.',
    transports: 'all',
    revisions: {
      ...same('SHOULD', TIMEOUT_PER_REQUEST, L, { '2025-03-26': [205, 206], '2025-06-18': [212, 213], '2025-11-25': [254, 255] }),
      '2026-07-28': [clause('SHOULD', TIMEOUT_PER_REQUEST, spec(C('2026-07-28'), 57, 58))],
    },
    judged: false,
    reason: 'It is about an SDK\'s API, not about anything on the wire.',
  },
  {
    id: 'TIMEOUT-RESET-ON-PROGRESS',
    name: 'Progress may reset the timeout',
    section: '10.3',
    description: 'A sender may restart a request\'s timeout clock when progress arrives for it.',
    transports: 'all',
    revisions: {
      '2025-03-26': [clause('MAY', TIMEOUT_RESET('/specification/2025-03-26/basic/utilities/progress'), spec(L('2025-03-26'), 208, 210))],
      '2025-06-18': [clause('MAY', TIMEOUT_RESET('/specification/2025-06-18/basic/utilities/progress'), spec(L('2025-06-18'), 215, 217))],
      '2025-11-25': [clause('MAY', TIMEOUT_RESET('/specification/2025-11-25/basic/utilities/progress'), spec(L('2025-11-25'), 257, 259))],
      '2026-07-28': [clause('MAY', TIMEOUT_RESET('/specification/2026-07-28/basic/patterns/progress'), spec(C('2026-07-28'), 60, 62))],
    },
    judged: false,
    reason: 'A permission about a local timer; nothing on the wire can break it.',
  },
  {
    id: 'TIMEOUT-MAX',
    name: 'A maximum timeout regardless of progress',
    section: '10.3',
    description: 'Even when progress resets the clock, a sender should enforce a maximum total timeout.',
    transports: 'all',
    revisions: {
      ...same('SHOULD', TIMEOUT_MAX, L, { '2025-03-26': [210, 212], '2025-06-18': [217, 219], '2025-11-25': [259, 261] }),
      '2026-07-28': [clause('SHOULD', TIMEOUT_MAX, spec(C('2026-07-28'), 62, 64))],
    },
    notes: ['Judged from the timeout options each Call gave the SDK: a reset on progress without maxTotalTimeout has no maximum.'],
    judged: true,
  },
];
