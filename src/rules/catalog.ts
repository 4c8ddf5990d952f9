/**
 * The rule catalog: every cancellation-related rule of every MCP revision, as data.
 *
 * Source: the team's spec digest (`shared/research/spec-cancellation.md`), §§3–7 for the
 * quotes and §10.1–10.4 for the matrix; each quote was checked against the spec files at the
 * commit below. Rule ids are the digest's. A quote is verbatim under the digest's conventions
 * (§0.3): Markdown emphasis and links kept, source line breaks collapsed to one space, list
 * markers dropped, ` | ` between consecutive list items, ` … ` where source text is left out.
 *
 * A rule lists, per revision, one or more clauses: the keyword (RFC 2119, or `info` for a
 * descriptive sentence), the quote, and where it stands (path and lines at the pinned commit,
 * with a full link). A clause may be limited to some transports when the binding pages word
 * the rule differently; `also` holds the same rule restated elsewhere (schema comments,
 * binding pages). Rules the checker cannot judge from a trace say so, with the reason.
 */
import type { Revision } from '../scenario/index.ts';

/** The wire a run uses. (The same union as the scenario's; defined here for the rules.) */
export type TransportKind = 'stdio' | 'http-sse' | 'streamable-http';
export const ALL_TRANSPORTS: readonly TransportKind[] = ['stdio', 'http-sse', 'streamable-http'];

export type Keyword = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'info';
export type Severity = 'error' | 'warning' | 'info';

/** MUST / MUST NOT → error, SHOULD / SHOULD NOT → warning, MAY and descriptive text → info. */
export function severityOf(keyword: Keyword): Severity {
  switch (keyword) {
    case 'MUST':
    case 'MUST NOT':
      return 'error';
    case 'SHOULD':
    case 'SHOULD NOT':
      return 'warning';
    case 'MAY':
    case 'info':
      return 'info';
  }
}

export const SPEC_REPO = 'modelcontextprotocol/modelcontextprotocol';
export const SPEC_COMMIT = 'b0f60ba5409db7a6582440a7b473cc0398890f15';
export const EXT_TASKS_REPO = 'modelcontextprotocol/ext-tasks';
export const EXT_TASKS_COMMIT = 'e4345978be1f602f1fc48d89051e8559dd5302a6';

export interface SpecSource {
  repo: typeof SPEC_REPO | typeof EXT_TASKS_REPO;
  commit: string;
  /** Path inside the repository. */
  path: string;
  /** First and last line (1-based, inclusive) the quote spans at `commit`. */
  lines: readonly [number, number];
  /** `https://github.com/<repo>/blob/<commit>/<path>#L<a>-L<b>` */
  url: string;
}

export interface SpecQuote {
  quote: string;
  source: SpecSource;
}

export interface Clause extends SpecQuote {
  keyword: Keyword;
  /** Only on these transports (the binding pages word the rule per transport). Default: the rule's. */
  transports?: readonly TransportKind[];
  /** The same rule stated elsewhere at this revision. */
  also?: readonly SpecQuote[];
}

/** Which part of the digest's matrix (§10) the rule belongs to. */
export type Section = '10.1' | '10.2' | '10.3' | '10.4';

interface RuleBase {
  /** Stable id (the digest's). */
  id: string;
  name: string;
  section: Section;
  /** What the rule asks, in one or two plain sentences (the checks.json description). */
  description: string;
  transports: 'all' | readonly TransportKind[];
  /** The revisions the rule exists in; a revision missing here means the rule does not apply. */
  revisions: Partial<Record<Revision, readonly Clause[]>>;
  /** Digest races (§9, R-n) and ambiguities (§8, U-n) that bear on the rule. */
  notes?: readonly string[];
}

export type Rule = RuleBase & ({ judged: true } | { judged: false; reason: string });

// ---------------------------------------------------------------------------------------------
// Where the text lives.

function source(repo: SpecSource['repo'], commit: string, path: string, first: number, last: number): SpecSource {
  return { repo, commit, path, lines: [first, last], url: `https://github.com/${repo}/blob/${commit}/${path}#L${first}-L${last}` };
}

function spec(path: string, first: number, last = first): SpecSource {
  return source(SPEC_REPO, SPEC_COMMIT, path, first, last);
}

const X_TASKS = 'specification/draft/tasks.md';
function ext(first: number, last = first): SpecSource {
  return source(EXT_TASKS_REPO, EXT_TASKS_COMMIT, X_TASKS, first, last);
}

const D = 'docs/specification';
type Legacy = '2024-11-05' | '2025-03-26' | '2025-06-18' | '2025-11-25';
type HttpLegacy = '2025-03-26' | '2025-06-18' | '2025-11-25';

/** C: the cancellation page. */
const C = (r: Revision): string =>
  r === '2026-07-28' ? `${D}/2026-07-28/basic/patterns/cancellation.mdx` : `${D}/${r}/basic/utilities/cancellation.mdx`;
/** T: the legacy transports page. */
const T = (r: Legacy): string => `${D}/${r}/basic/transports.mdx`;
/** L: the legacy lifecycle page (timeouts). */
const L = (r: Legacy): string => `${D}/${r}/basic/lifecycle.mdx`;
/** P: the progress page. */
const P = (r: Revision): string =>
  r === '2026-07-28' ? `${D}/2026-07-28/basic/patterns/progress.mdx` : `${D}/${r}/basic/utilities/progress.mdx`;
/** I: the base protocol page (2024-11-05: messages.mdx). */
const I = (r: Revision): string => (r === '2024-11-05' ? `${D}/2024-11-05/basic/messages.mdx` : `${D}/${r}/basic/index.mdx`);
/** S: the schema. */
const S = (r: Revision): string => `schema/${r}/schema.ts`;
const SI = `${D}/2026-07-28/basic/transports/stdio.mdx`;
const SH = `${D}/2026-07-28/basic/transports/streamable-http.mdx`;
const TI = `${D}/2026-07-28/basic/transports/index.mdx`;
const K = `${D}/2025-11-25/basic/utilities/tasks.mdx`;

function q(quote: string, src: SpecSource): SpecQuote {
  return { quote, source: src };
}

function clause(keyword: Keyword, quote: string, src: SpecSource, extra: Partial<Pick<Clause, 'transports' | 'also'>> = {}): Clause {
  return { keyword, quote, source: src, ...extra };
}

/** One clause per revision, same keyword and wording, each at its own lines of `path(revision)`. */
function same<R extends Revision>(
  keyword: Keyword,
  quote: string,
  path: (r: NoInfer<R>) => string,
  lines: Record<R, readonly [number, number]>,
  also: Partial<Record<R, readonly SpecQuote[]>> = {},
): Partial<Record<Revision, readonly Clause[]>> {
  const out: Partial<Record<Revision, readonly Clause[]>> = {};
  for (const r of Object.keys(lines) as R[]) {
    const [a, b] = lines[r];
    const more = also[r];
    out[r] = [clause(keyword, quote, spec(path(r), a, b), more ? { also: more } : {})];
  }
  return out;
}

const HTTP: readonly TransportKind[] = ['http-sse', 'streamable-http'];
const STREAMABLE: readonly TransportKind[] = ['streamable-http'];
const STDIO: readonly TransportKind[] = ['stdio'];

// Sentences used by several rules.
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
const DISCONNECT_MAY = 'Disconnection **MAY** occur at any time (e.g., due to network conditions). Therefore:';

// Line tables of the legacy cancellation page (2025-03-26 is one line up from 2024-11-05;
// 2025-06-18 one down; 2025-11-25 adds the task item after `initialize`).
const LEGACY_REF = { '2024-11-05': [31, 33], '2025-03-26': [30, 32], '2025-06-18': [32, 34], '2025-11-25': [32, 34] } as const;
const LEGACY_RECV = { '2024-11-05': [35, 38], '2025-03-26': [34, 37], '2025-06-18': [36, 39], '2025-11-25': [37, 40] } as const;

// ---------------------------------------------------------------------------------------------
// 10.1 Cancellation core

const CORE: Rule[] = [
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
    judged: false,
    reason:
      'Whether the handler stopped is internal to the server: the wire shows only what it still sent (CANCEL-NO-RESPONSE, CANCEL-NO-FURTHER-MESSAGES), and "as soon as practical" has no bound to measure.',
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
    description: 'Both sides must cope when a cancel and a response cross on the wire.',
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
    notes: ['R1, R2, R3.'],
    judged: false,
    reason:
      '"Gracefully" is not defined; the observable parts (late responses ignored, no response after the cancel arrived) are judged by CANCEL-IGNORE-LATE-RESPONSE and CANCEL-NO-RESPONSE.',
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
    judged: false,
    reason:
      'Ignoring leaves nothing on the wire; the visible reactions (a response to the notification, a response after it) are judged by NOTIFICATION-NO-RESPONSE and CANCEL-NO-RESPONSE.',
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

// ---------------------------------------------------------------------------------------------
// 10.2 Transport behaviour relevant to cancellation and late results

const TRANSPORT_RULES: Rule[] = [
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
      'On Streamable HTTP a POST carrying a notification (a cancel, say) is answered 202 Accepted with no body, or with an HTTP error status if refused.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'MUST',
          'If the input consists solely of (any number of) JSON-RPC _responses_ or _notifications_: | If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body. | If the server cannot accept the input, it **MUST** return an HTTP error status code (e.g., 400 Bad Request).',
          spec(T('2025-03-26'), 96, 101),
        ),
      ],
      ...same(
        'MUST',
        'If the input is a JSON-RPC _response_ or _notification_: | If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body. | If the server cannot accept the input, it **MUST** return an HTTP error status code (e.g., 400 Bad Request).',
        T,
        { '2025-06-18': [91, 95], '2025-11-25': [95, 99] },
      ),
      '2026-07-28': [
        clause(
          'MUST',
          'If the body is a JSON-RPC _notification_: | If the server accepts it, the server **MUST** return HTTP status code `202 Accepted` with no body. | If the server cannot accept it, it **MUST** return an HTTP error status code (e.g., `400 Bad Request`).',
          spec(SH, 82, 86),
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
      '2026-07-28': [
        clause(
          'MUST',
          'If the body is a JSON-RPC _request_, the server **MUST** return either `Content-Type: application/json` (a single JSON object) or `Content-Type: text/event-stream` (an SSE response stream). The client **MUST** support both.',
          spec(SH, 88, 91),
        ),
      ],
    },
    judged: false,
    reason:
      '"Eventually" has no bound in a finite trace, and for a cancelled request it pulls against CANCEL-NO-RESPONSE, so a missing response proves nothing.',
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
    judged: false,
    reason: 'Only progress can be tied to a request by its token; whether any other message "relates" to the request is not decidable from the wire.',
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
    notes: ['R11.'],
    judged: false,
    reason: 'The trace\'s HTTP framing records no SSE event ids or retry fields, and the lab does not model an SSE reconnection.',
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
      ),
      '2026-07-28': [clause('info', 'Resumable SSE streams via `Last-Event-ID` are not supported.', spec(SH, 157))],
    },
    judged: false,
    reason: 'The lab does not model SSE resumption (GET with Last-Event-ID) or replay, so a trace holds no resumption to judge.',
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
    description: 'Legacy Streamable HTTP sessions: after the server ends a session it answers 404, and the client starts a new one.',
    transports: STREAMABLE,
    revisions: {
      '2025-03-26': [
        clause(
          'MUST',
          'The server **MAY** terminate the session at any time, after which it **MUST** respond to requests containing that session ID with HTTP 404 Not Found.',
          spec(T('2025-03-26'), 198, 199),
        ),
      ],
      '2025-06-18': [
        clause(
          'MUST',
          'The server **MAY** terminate the session at any time, after which it **MUST** respond to requests containing that session ID with HTTP 404 Not Found.',
          spec(T('2025-06-18'), 188, 189),
        ),
      ],
      '2025-11-25': [
        clause(
          'MUST',
          'The server **MAY** terminate the session at any time, after which it **MUST** respond to requests containing that session ID with HTTP 404 Not Found.',
          spec(T('2025-11-25'), 211, 212),
        ),
      ],
    },
    judged: false,
    reason: 'Not about cancellation; the lab does not end sessions on its own, so it never shows a request against an ended session.',
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

// ---------------------------------------------------------------------------------------------
// 10.3 Progress and timeouts

const TIMEOUT_CANCEL_LEGACY = (r: HttpLegacy): string =>
  `When the request has not received a success or error response within the timeout period, the sender **SHOULD** issue a [cancellation notification](/specification/${r}/basic/utilities/cancellation) for that request and stop waiting for a response.`;
const TIMEOUT_RESET = (path: string): string =>
  `Implementations **MAY** choose to reset the timeout clock when receiving a [progress notification](${path}) corresponding to the request, as this implies that work is actually happening.`;
const TIMEOUT_MAX =
  'However, implementations **SHOULD** always enforce a maximum timeout, regardless of progress notifications, to limit the impact of a misbehaving client or server.';
const TIMEOUT_PER_REQUEST = 'SDKs and other middleware **SHOULD** allow these timeouts to be configured on a per-request basis.';
const TIMEOUT_ESTABLISH =
  'Implementations **SHOULD** establish timeouts for all sent requests, to prevent hung connections and resource exhaustion.';

const PROGRESS_RULES: Rule[] = [
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
    judged: false,
    reason: 'A maximum that never fires leaves no trace, and a finite trace cannot show that none exists.',
  },
];

// ---------------------------------------------------------------------------------------------
// 10.4 Tasks and batching

const TASK_RULES: Rule[] = [
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
    judged: false,
    reason: 'The trace keeps an HTTP frame\'s parsed message only when it is one JSON object (a batch becomes msg null), so batch bodies cannot be inspected.',
  },
];

/** Every rule, in the digest's matrix order (10.1, 10.2, 10.3, 10.4). */
export const CATALOG: readonly Rule[] = [...CORE, ...TRANSPORT_RULES, ...PROGRESS_RULES, ...TASK_RULES];

const BY_ID = new Map(CATALOG.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}

export function ruleTransports(rule: Rule): readonly TransportKind[] {
  return rule.transports === 'all' ? ALL_TRANSPORTS : rule.transports;
}

/**
 * The clause that governs `rule` on this revision and transport, or undefined when the rule
 * does not apply there (absent from the revision, or not for this transport).
 */
export function clauseFor(rule: Rule, revision: Revision, transport: TransportKind): Clause | undefined {
  if (!ruleTransports(rule).includes(transport)) return undefined;
  const clauses = rule.revisions[revision];
  if (!clauses) return undefined;
  return clauses.find((c) => !c.transports || c.transports.includes(transport));
}
