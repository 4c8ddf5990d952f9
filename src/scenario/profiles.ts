/**
 * The implementations whose cancellation behaviour the playground can show. The TypeScript SDK
 * v2 and v1 run for real; every other profile is an emulation — a thin layer around the real v2
 * SDK that changes only what the named upstream lines change — and says so wherever it appears.
 */
import type { ClientProfile, ServerProfile } from './model.ts';

export interface SourceLink {
  label: string;
  url: string;
}

export interface ProfileInfo<P extends string> {
  id: P;
  label: string;
  emulated: boolean;
  /** What this profile does differently on cancellation, one line per difference. */
  differences: string[];
  sources: SourceLink[];
}

const PY_V1 = 'https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp';
const PY_V2 = 'https://github.com/modelcontextprotocol/python-sdk/blob/v2.0.0/src/mcp';
const TS_V1 = 'https://github.com/modelcontextprotocol/typescript-sdk/blob/v1.x/src';
const TS_V2 = 'https://github.com/modelcontextprotocol/typescript-sdk/blob/3924de99/packages/core-internal/src/shared/protocol.ts';
// python-sdk v2.0.0 (6f69a37) and go-sdk v1.7.0 (bc72835), the releases the emulations follow.
const PY_V2_DISPATCHER = 'https://github.com/modelcontextprotocol/python-sdk/blob/6f69a3758ebf2ee55ce050f58b470ce11af71133/src/mcp/shared/jsonrpc_dispatcher.py';
const GO = 'https://github.com/modelcontextprotocol/go-sdk/blob/bc72835f62eb94d0fb484439f886b6885b075f36';
// rmcp-v3.1.4: the newest rmcp release whose source could be read (its main branch was still at
// 3.1.4 on 2026-08-20; rust-sdk#1251 was filed on 2026-09-08), so the profile is named for it.
const RMCP = 'https://github.com/modelcontextprotocol/rust-sdk/blob/rmcp-v3.1.4/crates/rmcp/src';
const EFFECT_MCP = 'https://github.com/Effect-TS/effect/blob/b206fa5d7655c1634c9993410a9203f6616a5ca2/packages/effect/src/unstable/ai/McpServer.ts';
// A main-branch commit of the MCP client Codex hosts, not the 0.149 build of the report: the 0.149
// source and its Cargo.lock were not read, so which rmcp release that build uses is not established.
const CODEX_HANDLER = 'https://github.com/openai/codex/blob/05871f87e6d70306f1296db4a4c3320ddae156bf/codex-rs/rmcp-client/src/logging_client_handler.rs';

const GO_SERVER: ProfileInfo<ServerProfile> = {
  id: 'go',
  label: 'Go SDK server (v1.7.0) — emulated',
  emulated: true,
  differences: [
    'A cancel aborts the handler (its context), but the handler’s answer is still written: a handler that stops on the cancel answers {"content":[{"type":"text","text":"context canceled"}],"isError":true}, one that ignores it answers its result.',
    'The cancel’s reason is dropped before any handler sees it.',
    'On 2026-07-28 Streamable HTTP (the one HTTP part emulated): a notifications/cancelled POSTed without the _meta envelope is refused with HTTP 400 and a JSON-RPC error without id.',
  ],
  sources: [
    { label: 'jsonrpc2/conn.go processResult writes with notDone', url: `${GO}/internal/jsonrpc2/conn.go#L693-L721` },
    { label: 'transport.go canceller.Preempt', url: `${GO}/mcp/transport.go#L236-L249` },
    { label: 'server.go a tool error becomes isError', url: `${GO}/mcp/server.go#L380-L392` },
    { label: 'modelcontextprotocol/go-sdk#1235', url: 'https://github.com/modelcontextprotocol/go-sdk/issues/1235' },
    { label: 'modelcontextprotocol/go-sdk#1259', url: 'https://github.com/modelcontextprotocol/go-sdk/issues/1259' },
    { label: 'modelcontextprotocol/go-sdk#1212', url: 'https://github.com/modelcontextprotocol/go-sdk/issues/1212' },
  ],
};

const PY_V2_CLIENT: ProfileInfo<ClientProfile> = {
  id: 'py-v2',
  label: 'python-sdk 2.x client — emulated',
  emulated: true,
  differences: [
    'Stop (the caller’s cancel scope) sends notifications/cancelled with reason "caller cancelled"; the call ends in CancelledError, with no error code.',
    'A timeout sends notifications/cancelled with reason "timed out after <s>s" and fails the call with MCPError -32001 "Request \'tools/call\' timed out".',
    'A late or unknown-id response is dropped with a DEBUG line, not reported as an error.',
  ],
  sources: [
    { label: 'jsonrpc_dispatcher.py timeout: courtesy cancel', url: `${PY_V2_DISPATCHER}#L404-L425` },
    { label: 'jsonrpc_dispatcher.py caller cancelled: courtesy cancel', url: `${PY_V2_DISPATCHER}#L426-L436` },
    { label: 'jsonrpc_dispatcher.py _cancel_outbound', url: `${PY_V2_DISPATCHER}#L828-L836` },
    { label: 'jsonrpc_dispatcher.py dropping late responses', url: `${PY_V2_DISPATCHER}#L661-L669` },
  ],
};

const EFFECT_SERVER: ProfileInfo<ServerProfile> = {
  id: 'effect',
  label: 'Effect-TS McpServer (before PR #7131) — emulated',
  emulated: true,
  differences: [
    'Every cancel’s id goes into a set of cancelled requests before anyone checks that such a request is running.',
    'The next response for an id in that set is discarded and the id taken out: a cancel for an unknown id silences the later request that gets the id.',
  ],
  sources: [
    { label: 'Effect-TS/effect#7131 (the report and its failing tests)', url: 'https://github.com/Effect-TS/effect/pull/7131' },
    { label: 'McpServer.ts the set of cancelled ids, one per client', url: `${EFFECT_MCP}#L492` },
    { label: 'McpServer.ts notifications/cancelled adds its id to the set, then interrupts', url: `${EFFECT_MCP}#L670-L682` },
    { label: 'McpServer.ts send discards the next Exit whose id is in the set', url: `${EFFECT_MCP}#L578-L589` },
    { label: 'joshrotenberg/tower-mcp#1270 (a registry keyed by id alone)', url: 'https://github.com/joshrotenberg/tower-mcp/issues/1270' },
  ],
};

const RMCP_CLIENT: ProfileInfo<ClientProfile> = {
  id: 'rmcp',
  label: 'rust-sdk rmcp 3.1.4 client — emulated',
  emulated: true,
  differences: [
    'A server’s notifications/cancelled for its own request (elicitation/create, sampling) is routed to the client’s outbound requests: the handler of the server’s request is never told, and runs on.',
    'If one of the client’s own requests has the same id, its response waiter is removed and sent ServiceError::Cancelled: that call fails with "task cancelled for reason <the server’s reason>", and its answer, when it comes, finds no waiter and is dropped without a log line.',
  ],
  sources: [
    { label: 'service.rs (rmcp 3.1.4) a client takes a peer’s cancel to its own outbound waiters and sends the one with that id ServiceError::Cancelled; only a server cancels the inbound token', url: `${RMCP}/service.rs#L1600-L1615` },
    { label: 'service.rs (rmcp 3.1.4) ServiceError::Cancelled reads "task cancelled for reason …"', url: `${RMCP}/service.rs#L90-L91` },
    { label: 'service.rs (rmcp 3.1.4) an inbound request’s token goes into local_ct_pool, which that branch skips', url: `${RMCP}/service.rs#L1557-L1559` },
    { label: 'service.rs (rmcp 3.1.4) a response with no waiter left is dropped', url: `${RMCP}/service.rs#L1684-L1697` },
    { label: 'modelcontextprotocol/rust-sdk#1251 (fixed by #1262)', url: 'https://github.com/modelcontextprotocol/rust-sdk/issues/1251' },
  ],
};

const CODEX_CLIENT: ProfileInfo<ClientProfile> = {
  id: 'codex',
  label: 'Codex host (as reported for 0.149) — emulated',
  emulated: true,
  differences: [
    'A server’s notifications/cancelled for an elicitation/create it shows as a form is ignored: the form stays open until the user answers or clicks Cancel.',
    'While a form is open, the finished tool result is not surfaced: the host holds it until the form is dismissed (here: until the handler answers).',
    'The report was over Streamable HTTP on 2025-06-18; the emulation wraps stdio.',
    'The handler lines linked are openai/codex main at 05871f8, not the 0.149 release: which rmcp version 0.149 builds against is not established, so rmcp’s own routing of a server’s cancel (rust-sdk#1251) is not part of this emulation.',
  ],
  sources: [
    // The form and the held tool result are the desktop app's, which is not in openai/codex: for
    // those the report is the only source.
    { label: 'openai/codex#40390', url: 'https://github.com/openai/codex/issues/40390' },
    { label: 'logging_client_handler.rs (codex main at 05871f8) a server’s cancel is only logged', url: `${CODEX_HANDLER}#L83-L85` },
    { label: 'logging_client_handler.rs (codex main at 05871f8) on_cancelled writes an info line and nothing else', url: `${CODEX_HANDLER}#L128-L137` },
    { label: 'logging_client_handler.rs (codex main at 05871f8) the elicitation waits on the form, not on the request’s cancel token', url: `${CODEX_HANDLER}#L116-L126` },
  ],
};

const GO_CLIENT: ProfileInfo<ClientProfile> = {
  id: 'go',
  label: 'Go SDK client (v1.7.0) — emulated',
  emulated: true,
  differences: [
    'On 2026-07-28 Streamable HTTP, Stop POSTs notifications/cancelled (cancelCall) built without the _meta envelope, where the TS v2 client closes the request’s stream.',
    'A POST of its own answered with HTTP 400 and a JSON-RPC error without id is taken for a broken writer: the connection fails for good, and every later call fails before the wire with "client is closing: …".',
  ],
  sources: [
    { label: 'transport.go cancelCall (CancelledParams without _meta)', url: `${GO}/mcp/transport.go#L300-L309` },
    { label: 'streamable.go Write: a non-2xx answer calls c.fail', url: `${GO}/mcp/streamable.go#L2306-L2318` },
    { label: 'streamable.go checkResponse: the error body’s message', url: `${GO}/mcp/streamable.go#L2544-L2557` },
    { label: 'jsonrpc2/conn.go a failed write sets writeErr', url: `${GO}/internal/jsonrpc2/conn.go#L765-L784` },
    { label: 'jsonrpc2/conn.go later calls: "client is closing"', url: `${GO}/internal/jsonrpc2/conn.go#L163-L166` },
    { label: 'modelcontextprotocol/go-sdk#1212', url: 'https://github.com/modelcontextprotocol/go-sdk/issues/1212' },
  ],
};

export const SERVER_PROFILE_INFO: Record<ServerProfile, ProfileInfo<ServerProfile>> = {
  'ts-v2': {
    id: 'ts-v2',
    label: 'TypeScript SDK v2 (real, 2.4.0)',
    emulated: false,
    differences: ['The real McpServer: a cancel aborts the handler’s signal and no response is ever written for it.'],
    sources: [
      { label: 'protocol.ts _oncancel', url: `${TS_V2}#L726-L735` },
      { label: 'protocol.ts response suppression', url: `${TS_V2}#L1102-L1137` },
    ],
  },
  'py-v1': {
    id: 'py-v1',
    label: 'python-sdk 1.x (1.27–1.29) — emulated',
    emulated: true,
    differences: [
      'On a cancel for an in-flight request: an immediate error response {"code":0,"message":"Request cancelled"}.',
      'A handler that returns normally after that (it ignored or swallowed the cancel): AssertionError "Request already responded to"; the server process exits.',
      'A second cancel while the handler cannot unwind: a second code-0 response for the same id.',
      'A response with an unknown id: logs the error and sends notifications/message "Internal Server Error".',
      'Cancels match ids exactly ("1" is not 1).',
    ],
    sources: [
      { label: 'session.py RequestResponder.cancel (code 0)', url: `${PY_V1}/shared/session.py#L138-L151` },
      { label: 'session.py respond() assert', url: `${PY_V1}/shared/session.py#L119-L136` },
      { label: 'session.py cancel dispatch', url: `${PY_V1}/shared/session.py#L402-L406` },
      { label: 'session.py unknown response id', url: `${PY_V1}/shared/session.py#L481-L518` },
      { label: 'lowlevel/server.py Internal Server Error', url: `${PY_V1}/server/lowlevel/server.py#L712-L720` },
      { label: 'lowlevel/server.py _handle_request', url: `${PY_V1}/server/lowlevel/server.py#L779-L815` },
    ],
  },
  'py-v2': {
    id: 'py-v2',
    label: 'python-sdk 2.x — emulated',
    emulated: true,
    differences: [
      'A cancelled request is never answered (like TS v2).',
      'A late or unknown-id response is dropped with a DEBUG line, not reported as an error.',
      'Cancel ids are coerced: "1" matches 1.',
    ],
    sources: [
      { label: 'jsonrpc_dispatcher.py inbound cancel', url: `${PY_V2}/shared/jsonrpc_dispatcher.py#L623-L628` },
      { label: 'jsonrpc_dispatcher.py dropping late responses', url: `${PY_V2}/shared/jsonrpc_dispatcher.py#L661-L669` },
      { label: 'jsonrpc_dispatcher.py _handle_request', url: `${PY_V2}/shared/jsonrpc_dispatcher.py#L701-L771` },
    ],
  },
  'ts-v1': {
    id: 'ts-v1',
    label: 'TypeScript SDK v1 (real, 1.32.2)',
    emulated: false,
    differences: [
      'The real v1 McpServer (@modelcontextprotocol/sdk 1.32.2): a cancel aborts the handler’s signal and no response is written for it.',
      'A cancel for request id 0 is ignored (a falsy check), so that handler runs on and answers.',
      'Progress a handler sends after its cancel is dropped silently.',
      'It answers the revision the client asks for when it supports it (2025-11-25 at newest); it has no list to narrow.',
    ],
    sources: [
      { label: 'protocol.ts _oncancel (v1.x)', url: `${TS_V1}/shared/protocol.ts#L550-L556` },
      { label: 'protocol.ts sendNotification after abort (v1.x)', url: `${TS_V1}/shared/protocol.ts#L738-L739` },
      { label: 'server/index.ts _oninitialize (v1.x)', url: `${TS_V1}/server/index.ts#L421-L424` },
    ],
  },
  go: GO_SERVER,
  effect: EFFECT_SERVER,
};

export const CLIENT_PROFILE_INFO: Record<ClientProfile, ProfileInfo<ClientProfile>> = {
  'ts-v2': {
    id: 'ts-v2',
    label: 'TypeScript SDK v2 (real, 2.4.0)',
    emulated: false,
    differences: ['The real Client: Stop sends one notifications/cancelled; a response for an unknown id goes to onerror and the connection stays.'],
    sources: [
      { label: 'protocol.ts cancel()', url: `${TS_V2}#L1449-L1491` },
      { label: 'protocol.ts unknown response id', url: `${TS_V2}#L1199-L1206` },
    ],
  },
  'strict-host': {
    id: 'strict-host',
    label: 'Strict host (as reported for Claude Code) — emulated',
    emulated: true,
    differences: [
      'The real TS v2 Client, with a host policy on onerror: "Received a response for an unknown message ID" or an unknown progress token closes the transport and reconnects (a new server process, a new initialize).',
      'Calls in flight on the old connection fail.',
      'On Streamable HTTP, any HTTP 404 is taken for an expired session: the host re-initializes once (a new Client and session on the same wire, the same server); if that initialize gets a 404 too, the server is lost for the session and later calls fail without touching the network.',
    ],
    sources: [
      { label: 'anthropics/claude-code#51073', url: 'https://github.com/anthropics/claude-code/issues/51073' },
      { label: 'anthropics/claude-code#50095', url: 'https://github.com/anthropics/claude-code/issues/50095' },
      { label: 'anthropics/claude-code#94273', url: 'https://github.com/anthropics/claude-code/issues/94273' },
    ],
  },
  'py-v1': {
    id: 'py-v1',
    label: 'python-sdk 1.x client — emulated',
    emulated: true,
    differences: [
      'Never sends notifications/cancelled: Stop and timeouts only stop waiting locally.',
      'A timeout fails the call locally with code 408.',
      'A late response becomes RuntimeError "Received response with an unknown request ID", which the default message handler ignores.',
    ],
    sources: [
      { label: 'session.py send_request timeout (408)', url: `${PY_V1}/shared/session.py#L290-L314` },
      { label: 'session.py unknown response id', url: `${PY_V1}/shared/session.py#L481-L518` },
    ],
  },
  'ts-v1': {
    id: 'ts-v1',
    label: 'TypeScript SDK v1 (real, 1.32.2)',
    emulated: false,
    differences: [
      'The real v1 Client (@modelcontextprotocol/sdk 1.32.2): Stop and a timeout send notifications/cancelled and reject with McpError -32001 (Request timed out), Stop included.',
      'A connect timeout cancels initialize too.',
      'The abort listener is never removed: Stop after the call finished sends a cancel for an answered id, and Stop after a timeout sends a second cancel.',
      'It always asks for 2025-11-25 and takes whichever revision it supports that the server answers.',
    ],
    sources: [
      { label: 'protocol.ts request() cancel (v1.x)', url: `${TS_V1}/shared/protocol.ts#L1165-L1187` },
      { label: 'protocol.ts abort listener (v1.x)', url: `${TS_V1}/shared/protocol.ts#L1211-L1213` },
      { label: 'client/index.ts initialize (v1.x)', url: `${TS_V1}/client/index.ts#L471-L491` },
    ],
  },
  'py-v2': PY_V2_CLIENT,
  rmcp: RMCP_CLIENT,
  codex: CODEX_CLIENT,
  go: GO_CLIENT,
};
