/**
 * Rules about what a message's id says (§10.1, next to ID-UNIQUE): a response carries the id of
 * the one request it answers, a notification carries none, and in 2026-07-28 the client writes
 * no responses at all.
 */
import type { Rule } from './rule.ts';
import { D, I, STDIO, SI, clause, q, same, spec } from './sources.ts';

const SAME_ID = 'Responses **MUST** include the same ID as the request they correspond to.';
const RESULT_SAME_ID = 'Result responses **MUST** include the same ID as the request they correspond to.';
const ERROR_SAME_ID =
  'Error responses **MUST** include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).';
const NO_ID = 'Notifications **MUST NOT** include an ID.';

export const ID_RULES: readonly Rule[] = [
  {
    id: 'RESPONSE-SAME-ID',
    name: 'A response carries its request\'s id',
    section: '10.1',
    description:
      'A response names the id of the one request it answers: one response per request, never an id the other side did not issue, and on Streamable HTTP on the stream of that request.',
    transports: 'all',
    revisions: {
      ...same('MUST', SAME_ID, I, { '2024-11-05': [50, 50], '2025-03-26': [67, 67], '2025-06-18': [70, 70] }),
      '2025-11-25': [clause('MUST', RESULT_SAME_ID, spec(I('2025-11-25'), 69), { also: [q(ERROR_SAME_ID, spec(I('2025-11-25'), 89))] })],
      '2026-07-28': [clause('MUST', RESULT_SAME_ID, spec(I('2026-07-28'), 70), { also: [q(ERROR_SAME_ID, spec(I('2026-07-28'), 103))] })],
    },
    notes: [
      'A second response to one request (python-sdk 1.x after two cancels, a forged late result) answers a request already answered.',
      'An error response with id null is the JSON-RPC answer to a request whose id could not be read: 2025-11-25 and later allow it; earlier it is info.',
    ],
    judged: true,
  },
  {
    id: 'NOTIFICATION-NO-ID',
    name: 'Notifications carry no id',
    section: '10.1',
    description: 'A notification (any `notifications/…` method, notifications/cancelled included) has no JSON-RPC id.',
    transports: 'all',
    revisions: same('MUST NOT', NO_ID, I, {
      '2024-11-05': [69, 69],
      '2025-03-26': [90, 90],
      '2025-06-18': [93, 93],
      '2025-11-25': [108, 108],
      '2026-07-28': [172, 172],
    }),
    judged: true,
  },
  {
    id: 'CLIENT-NO-RESPONSES',
    name: 'The client writes no responses (2026 stdio)',
    section: '10.2',
    description: 'In 2026-07-28 on stdio the client writes only requests and notifications, never a JSON-RPC response.',
    transports: STDIO,
    revisions: {
      '2026-07-28': [
        clause('MUST NOT', 'The client **MUST NOT** write JSON-RPC _responses_.', spec(SI, 36, 37), {
          also: [
            q(
              'Servers **MUST NOT** initiate JSON-RPC requests, and clients do not send JSON-RPC responses.',
              spec(`${D}/2026-07-28/basic/patterns/index.mdx`, 20, 21),
            ),
          ],
        }),
      ],
    },
    notes: ['On Streamable HTTP the same sentence is part of BATCH-HTTP (what a POST body may hold).'],
    judged: true,
  },
];
