/**
 * Golden permalinks: links made by earlier versions must keep decoding to the same scenario,
 * forever. Each entry is a string literal produced once and never edited; its expected
 * scenario is written out in full, not imported, so a change to the library or to defaults
 * cannot move it.
 *
 * Two promises, tested apart:
 * - decodes: every golden link, of any engine version, decodes to its scenario;
 * - reproduces: a link made by this engine version (its `engine` is ENGINE_VERSION) replays
 *   to exactly the trace hash it carries. A link of an older engine need not: traces may change
 *   when the engine version does (0.1.0's links carry hashes that 0.2.0 changed).
 *
 * When ENGINE_VERSION changes, add links made by the new engine below (the reproduce test
 * insists that some exist), and keep the old ones.
 *
 * Adding golden links:
 * - When the link format changes (a `v2.` prefix, another compression, other fields), do not
 *   touch the v1 entries below. Add a `V2_GOLDEN` list made with the new encoder, and keep
 *   testing both: decodeLink must still accept every v1 link and give the same scenario (if
 *   the scenario format itself moved on, the expected value is the v1 scenario upgraded to the
 *   new format; write that upgrade out here, literally).
 * - When the scenario format gains a field or an action, add a v1 (or current) link that uses
 *   it, so it is frozen from then on.
 * - To make a link: `encodeLink(scenario, { engine, sdk, trace: await traceHash(await
 *   runHeadless(scenario)) })` in a scratch script, and paste the string and the scenario here.
 */
import { after, test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { decodeLink, encodeLink, type LinkMeta } from '../../src/scenario/permalink.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import { ENGINE_VERSION } from '../../src/scenario/versions.ts';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { traceHash } from '../../src/trace/hash.ts';

interface Golden {
  name: string;
  link: string;
  scenario: Scenario;
  meta: LinkMeta | null;
}

const SLOW_COUNT_STOP: Scenario = {
  version: 1,
  revision: '2025-11-25',
  transport: 'stdio',
  httpServer: 'sessionful',
  latency: { c2s: 5, s2c: 5 },
  steps: [
    { at: 20, action: { type: 'call', call: '#1', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
    { at: 240, action: { type: 'stop', call: '#1' } },
  ],
  endAt: 2000,
};

/** Every action and every optional field, faults, non-ASCII names (2025-03-26). */
const EVERY_ACTION: Scenario = {
  version: 1,
  revision: '2025-03-26',
  transport: 'stdio',
  httpServer: 'stateless',
  latency: { c2s: 3, s2c: 11 },
  serverProfile: 'py-v1',
  clientProfile: 'ts-v1',
  connectTimeoutMs: 30000,
  faults: [
    { dir: 'c2s', action: 'delay', match: 'notifications/cancelled', nth: 1, ms: 200 },
    { dir: 's2c', action: 'drop', match: 'response' },
    { dir: 's2c', action: 'duplicate' },
  ],
  steps: [
    { at: 0, action: { type: 'hold', dir: 's2c' } },
    {
      at: 20,
      action: {
        type: 'call',
        call: 'Zahlung ✓',
        tool: 'ledger_write',
        args: { key: 'order-42', value: 'paid', commitAfterMs: 100, totalMs: 400 },
        timeoutMs: 1000,
        resetTimeoutOnProgress: true,
        maxTotalTimeoutMs: 5000,
      },
    },
    { at: 30, action: { type: 'call', call: 'B', tool: 'work', args: { ms: 300, onCancel: 'shield', unwindMs: 100 } } },
    { at: 50, action: { type: 'release', dir: 's2c' } },
    { at: 60, action: { type: 'stop', call: 'Zahlung ✓' } },
    { at: 70, action: { type: 'inject-response', outcome: 'error', call: 'B' } },
    { at: 80, action: { type: 'inject-response', outcome: 'result', to: 'server', requestId: 4242 } },
    { at: 90, action: { type: 'inject-cancel', initialize: true } },
    { at: 100, action: { type: 'inject-cancel', requestId: '1', reason: 'string id "1" is not 1' } },
    { at: 110, action: { type: 'disconnect' } },
    { at: 120, action: { type: 'crash-server' } },
    { at: 130, action: { type: 'reconnect' } },
  ],
  endAt: 3000,
};

const V1_GOLDEN: readonly Golden[] = [
  {
    name: 'v1: slow_count, Stop after the second progress (2025-11-25, stdio)',
    link: 'v1.bZA9bsMwDIXv8roqhqRGHrT1AJ0yFkWgynRq1JAMkXEQGLp7ISdLgU7k48_7CG7gSCmUKcNvWKnwlBO8USi0Tg8Bq607GHOwDgpSQuIlF4EHyzBlKHyLLCcqK5VWJG5743WGwhyEUrw382gZ3imwjfCuKrDQwvAfG4LAW60QouzEDXJfCB4xzM1lDx4vpvFzbjnP-XaO-ZoECqFcuG09Hd3D-53hjda1VvVEHP9jsOTlD6PWTwVKw9t-lda1qcuU2rDuTKehwMNPe0x33JWUEFt3tK-utz2NzrjwRT3qLw',
    scenario: SLOW_COUNT_STOP,
    meta: { engine: '0.1.0', sdk: '2.4.0', trace: 'f235626ef515abe6' },
  },
  {
    name: 'v1: seed 000, python-sdk 1.x server and a strict host',
    link: 'v1.hZHBasMwEET_Zc5KkOy4EN3SnguFHkspiqwkIq7katcuwejfi5zS-FDISdpdzZthNYGsCyb5CD1hdIl8DNBKILnRXwtUsmpWSq2qBgKcTKA-JoYGcesjBE7M_atLo0ul6ajoDkMHgc6wC_ZS4LYi6EaAKgvdZAGaFS8pHnznoNFfVqOCgO28C3zrEydveXWKxBAgdj1Bv00wDF1JAWN5zjmBL30RWNMV7_nQ2JXQMZYrdfH7w8YhFJBJRyqiX2BzRT8TtJIy5yyuDvV9h8eFAw_7fUxhwf8s8CWxav5DEsd-Gfrv-YO8n-DpluBr8PZ8s885vwu40O7mbUmZS3X0oUDkWq1l2Wl7Lt-83swVJ2PLtNnWqq63m7qt6_agFPIP',
    scenario: {
      version: 1,
      revision: '2025-11-25',
      transport: 'stdio',
      httpServer: 'sessionful',
      latency: { c2s: 5, s2c: 5 },
      serverProfile: 'py-v1',
      clientProfile: 'strict-host',
      steps: [
        { at: 20, action: { type: 'call', call: 'A', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
        { at: 30, action: { type: 'call', call: 'B', tool: 'stubborn', args: { ms: 500 } } },
        { at: 250, action: { type: 'stop', call: 'A' } },
        { at: 600, action: { type: 'call', call: 'C', tool: 'quick', args: {} } },
      ],
      endAt: 2000,
    },
    meta: { engine: '0.1.0', sdk: '2.4.0', trace: '593133943d33df11' },
  },
  {
    name: 'v1: every action, every optional field, faults, non-ASCII names (2025-03-26)',
    link: 'v1.lVTNjhMxDH6Vyud0yUzb_ZnbwokDYiX2BLtCIeO2oWkyOJ4upepTcOXpeBLkTHemh4EVp8iJ_dn-PjsHSBaDIRehOsAOKbkYoCoUEO5cZ0Cpy8VUz6blJShgMiE1kRgqSFy7CArWzM0HpB1SvjSMHlMCBd4wBrsXbFsmqGYKUmmhKoqjgpQj7igunUeooNlPdwUosN5h4OGe0-k-hoCW790WY8vvBE5rrRUsTes5QfXpALWTEiSXAmO5q79Gb_agYGvYrqGCENktnTXynF5ZEyx6jzUoCLzOzW8TVKXWR_WMKFWfI1JszgAJUxNDQvh7QNt4yYhwfFSQGJuuXsNQ6cHvALxvpOd19FLPgHUUaPEux9yt8V4YkqOCj2bt27Ca_P71UwSLUS491iukz0_kGKUyWiUB2OAeKohUI03nJSjYGd9mNYyrM-nbrePbJSMJ44XwzZGNF2suFAEPghRZD8KEzzK9D3cUVyTjUDG1KKR9vxeAMx0XWuu-wdnLDb4e2nqKtDlrZ9tNhYIY3mRdhb61w8xmG55cqE91HvuEi7GEhB5NwnENLsciEueZGNGgj7sai3PhK1qe9jOkILZs41bekCjSed891PX_QhGm1nMmTorttlW0-tZi4rc1VPNyXvb4N__A7zYGFLjg2BnvfmAnbh-dx-TF8LPcUGTbpLwticmF1cTVkwcoHmDi0iREnhRD-0UxlqB26fRJnHmOLwyZtJ6eWBh8R2ePcAB9VIChvuXu7zmKtXJBvPRFcaFBQao38mVezLPFZGx-La-1-WIW84We3djiCo5_AA',
    scenario: EVERY_ACTION,
    meta: { engine: '0.1.0', sdk: '2.4.0', trace: '0280aba545039c17' },
  },
  {
    name: 'v1 without versions or trace hash (just the scenario)',
    link: 'v1.bY5BagMxDEXv8rtVYGzijXY5QFddlhKMozYDg20sZUIYfPfiSTaFriR9-O9pgybJsc0FvGGVpnPJYEdoss7PA37y4eDcwQcQrMWstTQDQ-0yFxCuZvVD2ipthKKj931bQFiiSU6PAU9ewYGgPoFDJ6hJVfDnhmhgPxFist24wR5VwEhxGZR9MN7c8Jcydl3K_ZzKLRsIsf3oaL2I4cl-V7Cbpt47vRTH_xxqpf5x9P5FkHw57V8NwC8',
    scenario: SLOW_COUNT_STOP,
    meta: null,
  },
];

const HTTP_2026_STOP: Scenario = {
  version: 1,
  revision: '2026-07-28',
  transport: 'streamable-http',
  httpServer: 'stateless',
  latency: { c2s: 5, s2c: 5 },
  steps: [
    { at: 20, action: { type: 'call', call: 'A', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
    { at: 250, action: { type: 'stop', call: 'A' } },
  ],
  endAt: 2000,
};

/** Made with engine 0.3.0 and SDK 2.4.0. */
const ENGINE_0_3_GOLDEN: readonly Golden[] = [
  {
    name: 'v1, engine 0.3.0: slow_count, Stop after the second progress (2025-11-25, stdio)',
    link: 'v1.bZBNTgMxDIXv8timoyQ0qGTHAVixRAilGbeMGCVR7A6qRrk7yrQbJFb288_7LK_gSCnUKcOvWKjylBO8Uai0TDcBq63bGbOzDgpSQ-KSq8CDZZwyFL5EyhvVhWovEve902WGwhyEUrx282gZ3imwjfCuKbBQYfj3FUHgrVYIUTbiCrkWgkcMc3fZgseD6fyce85z_vmM-ZIECqGeuW_dHd3N-5XhjdatNXVH7P9jsOTyh9HahwKl8WW7SuvW1XlKfVgPj4OGAo_f_THDflNSQ-xdcgc6GOv000kfj_YZ7Rc',
    scenario: SLOW_COUNT_STOP,
    meta: { engine: '0.3.0', sdk: '2.4.0', trace: 'e58e812506f0bb29' },
  },
  {
    name: 'v1, engine 0.3.0: slow_count stopped by closing its stream (2026-07-28, Streamable HTTP)',
    link: 'v1.bZBBT8MwDIX_yztnVRaWMnLbD-DEESEUUm9UZEkVm6Kpyn9HaXfgwOn5yfb7LC_gQMmXMcMtmKnwmBPcXqHQPG4GRpt-px935ggFKT7xlIvAgaWQv_qPSLtPkQkKTV6ozFTWtheKxAyF6IVSuDVKMAxnFdgEOFsVWGhiuNcFXuCMVvBBVvQCuU0Eh-BjhNrE4dTuyLmVHPPPe8jfSaDgy4Xb0j3QbtHPDLfXutaq7gT7H4IlT38Rtb4pUBpO601a1-YuY2qzunvoNBR4-Gr_6Q6rk-JD6_bWmrMZjvRk7Lk_DKi_',
    scenario: HTTP_2026_STOP,
    meta: { engine: '0.3.0', sdk: '2.4.0', trace: '6552f2d8e925f64d' },
  },
  {
    name: 'v1, engine 0.3.0: every action, every optional field, faults, non-ASCII names (2025-03-26)',
    link: 'v1.lVTBjtMwEP2Vas7u4qTtwua2cOKAWIk9wa6Q5Uwbs44dxpMupcpXcOXr-BI0STcpUmDFybI98-bNe2MfIVkMhlyE4gh7pORigCJTQLh3wwZynW-WerXML0EBkwmpicRQQOLSRVBQMTcfkPZI_aFh9JgSKPCGMdiDYNs8QbFSkHILRZZ1ClKfcUNx6zxCAc1huc9AgfUOA0_nnE7nMQS0fOtqjC2_EzittVawNa3nBMWnI5ROKEgtBcbywL9Ebw6goDZsKyggRHZbZ41cpxfWBIveYwkKAld983WCIte6U0-IwvockWJzBkiYmhgSwt8T2sZLRYTuXkFibAa-hqHQU9wR-NBIz1X0wmfC6gRaovO5cGu8F4VkKeCjqXwbdotfP3-IYTHKocdyh_T5kRyjMKNdEoAHPEABkUqk5ToHBXvj294N48pe9Lp2fL1lJFE8E705svGyW4tEwJMhWe8HYcInm96HG4o7knEomFoU0b7dCsCZjxut9djg6vkGX09tPUZ6OGunHqZCQQxvel9Fvsphr2YbHl0oTzy7seBmriChR5Nw3oPLuYzE_UzMeDDmvZzLc-ELWl6OM6QgtmxjLXdIFOm87xHq1f9CEabWcy-ckB1eq3j1tcXEb0so1vk6H_Gv_oE_vBhQ4IJjZ7z7joO5Y3Y_Js-mE5rUv47E5MJu4crFHWR3sHBpESIvsj_5QTa1n2VzBUqXTp_EWeT8gyGTquVJhSl2dvYIJ9B7BRjKax7-nk52OxckSl-sLjQoSOWDfJkX637HZKzcbg3muca1fbVZXa0wh-43',
    scenario: EVERY_ACTION,
    meta: { engine: '0.3.0', sdk: '2.4.0', trace: 'fae220e4c85393e2' },
  },
];

/** A disconnect on sessionful 2025 HTTP: the handler returns with nowhere to send its result. */
const HTTP_2025_DISCONNECT: Scenario = {
  version: 1,
  revision: '2025-11-25',
  transport: 'streamable-http',
  httpServer: 'sessionful',
  latency: { c2s: 5, s2c: 5 },
  steps: [
    { at: 100, action: { type: 'call', call: 'A', tool: 'work', args: { ms: 300, onCancel: 'observe', unwindMs: 0 } } },
    { at: 200, action: { type: 'disconnect' } },
  ],
  endAt: 1000,
};

/**
 * Made with engine 0.4.0 and SDK 2.4.0. 0.4.0 tells a result with nowhere to go (`result
 * undeliverable`) from one suppressed after a cancel; the disconnect run is the one that moved.
 */
const ENGINE_0_4_GOLDEN: readonly Golden[] = [
  {
    name: 'v1, engine 0.4.0: slow_count, Stop after the second progress (2025-11-25, stdio)',
    link: 'v1.bZBNagMxDIXv8rp1gm3iknrXA2TVZSnF8Sjp0ME2ljIlDL578WQ2ha6kp5_3CS3gSCnUMcMvmKnymBO8Uag0jw8Bq63bGbOzDgpSQ-KSq8CDZRgzFL5EyhvVmWovEve9y22CwhSEUrx382gZ3imwjfCuKbBQYfj3BUHgrVYIUVbiArkXgkcMU3dZg8eT6fyce85T_vmM-ZYECqFeuW9tju7hfWJ4o3VrTW2Iw38Mllz-MFr7UKA0vK5Xad26uo6pD-v9Ya-hwMN3f8ympIbYu-SOdDTW6eeLPp_tC9ov',
    scenario: SLOW_COUNT_STOP,
    meta: { engine: '0.4.0', sdk: '2.4.0', trace: 'e58e812506f0bb29' },
  },
  {
    name: 'v1, engine 0.4.0: a disconnect leaves a result undeliverable (2025-11-25, sessionful Streamable HTTP)',
    link: 'v1.bVAxbsMwEPsLZyWQ1QhFtAWdM3UsOsjyORXiSIZOcRAY-ntxccdOPIIESdwKDpR8iRluxUKFY05wnUKhJW4ERhu767qdsVCoxSeec6lw4FrI33w_0e6n1hkKAp9UFioiE0vCeJ-gMPlKKTylJhiGswpsApxtClxpZrivFb7CdVor-FBf5SvqcyY4BD9JzAscTrIkZzkfuVyh4MuFxX5juDdJyOnDp0BiyT3LJijc0yOm4cxwurWmtkLzb-EQOeSUKFS09q1AaTht63QTdolJbHp_2Gso8HCVV_2xWnwQ1Y59_94dRzscrbH6gPYL',
    scenario: HTTP_2025_DISCONNECT,
    meta: { engine: '0.4.0', sdk: '2.4.0', trace: '5fbb719f5d952504' },
  },
];


/**
 * Made with engine 0.5.0 and SDK 2.4.0. 0.5.0 runs the ts-v1 profiles on the real v1 SDK and
 * fails a call the client never wrote before the wire; these freeze the actions and fields it
 * added: `inject`, `stop` on a call, `clientHandlers` and ask_client, a task call with
 * `cancel-task`, and the `content-type` fault.
 */
const ENGINE_0_5_GOLDEN: readonly Golden[] = [
  {
    name: "v1, engine 0.5.0: Stop in the same tick as Call and a signal already aborted (stdio)",
    link: "v1.lZDBasMwDIbf5T87wfGSbfjWvsKOYwfHUbrQ1A6WWijB7z7swthhMHYSkvV_H_IO9hRcWiLsjhslXmKA7RQS3ZZHA6PN0HRdYwYoSHKBt5gEFizTEqHwKbK9UbpRKkPikpuvKxRWJxT8vcC9YdhBgY2HHbICC20M-77DCazRCs5LNe6Q-0aw8G4tlFosDkUf41rN13GMKUDBpROXyIULRFdw3MqOu1Ajiz8jZ_WQ9H9Ljv-TjDTHRE0Nf2uef9PUwI9bcv5QoDAdBLbTlUnhtISyq9uh1VDg6Vz-v-1rJ8n58jqbFzOPun91Ts9P_YT8BQ",
    scenario: {"version": 1, "revision": "2025-11-25", "transport": "stdio", "httpServer": "sessionful", "latency": {"c2s": 5, "s2c": 5}, "steps": [{"at": 20, "action": {"type": "call", "call": "A", "tool": "stubborn", "args": {"ms": 200}, "stop": "same-tick"}}, {"at": 40, "action": {"type": "call", "call": "B", "tool": "stubborn", "args": {"ms": 200}, "stop": "before-call"}}, {"at": 60, "action": {"type": "stop", "call": "A"}}], "endAt": 1000},
    meta: {"engine": "0.5.0", "sdk": "2.4.0", "trace": "f272fb048aa0f34d"},
  },
  {
    name: "v1, engine 0.5.0: a forged message: a cancel without requestId (inject)",
    link: "v1.bZCxbsMwDER_pbhZSWWjLlItQb6hY9GBkZlYqSMZopIiMPTvBZW1k3Ai-e7IFeI5Ug4JbsWds4QU4TqDzPfwFOhtP2y6btMPMCiZoiwpFzhIGUOCwVTK8sn5zlk_WXTudJthMFPh6B8K973ADQbSe7ihGkjhReC-VlCB660B-dIcV5THwnDwNCulPQ4HtU9pbs634zHlCAPKZ9GRqyjE1lrNk9jZ_5AhXtgXGIxB02oqgyuL0Jm17SIp5sXr2lvbSmVKIxxiKuEUPClPXj1Fz_PMIwwWynRtGTKTtJP9TsFPLynyHrXW-m3AcTw8Q9mq6hyixrHbodnI-NMs35oqmbxWP3b9YIn5fTeM1HUn1D8",
    scenario: {"version": 1, "revision": "2025-11-25", "transport": "stdio", "httpServer": "sessionful", "latency": {"c2s": 5, "s2c": 5}, "steps": [{"at": 20, "action": {"type": "call", "call": "A", "tool": "stubborn", "args": {"ms": 200}}}, {"at": 100, "action": {"type": "inject", "dir": "c2s", "message": {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"reason": "which one?"}}}}], "endAt": 1000},
    meta: {"engine": "0.5.0", "sdk": "2.4.0", "trace": "98250aee685da11f"},
  },
  {
    name: "v1, engine 0.5.0: ask_client with clientHandlers: the server cancels its elicitation",
    link: "v1.TZDBbgIxDET_Zc6BZrdEqnJDvfTSU49VVZmsgYgl2cYGCa3y71WWIvUUTzL2PGeGBE5UYoafceUiMSf4zqDwNd4Fetu7VdetegcDLZRkykXhITrEDIOj6vTB5cqlXbK0vv1lhMFIyinc2vDQC7wzkD7Au2oQxshJ3ygNIxdpFh5jiEq6xM44C_yztdYgp1dKgUd45J20JNRqIMqTwH_OIIXvrQGFR7PeJoZHoLFxLIfHti2QcytJTt93AhhQOSwAhX8uLG21fyhPoTApN9teubwLfNeg9MhpSVjIzF-xfXictbXWLwNOw1YXbWtTh5gamV27tYWBDKf2x-vNorRQaK-bEF4c2bAbup6JHOov",
    scenario: {"version": 1, "revision": "2025-11-25", "transport": "stdio", "httpServer": "sessionful", "latency": {"c2s": 5, "s2c": 5}, "clientHandlers": {"elicitation": {"ms": 3000, "onCancel": "observe"}}, "steps": [{"at": 20, "action": {"type": "call", "call": "A", "tool": "ask_client", "args": {"request": "elicitation/create", "afterMs": 100, "then": "cancel", "cancelAfterMs": 500}}}], "endAt": 5000},
    meta: {"engine": "0.5.0", "sdk": "2.4.0", "trace": "4cc85a0cbd12eaa5"},
  },
  {
    name: "v1, engine 0.5.0: a task-augmented call and cancel-task on the real v1 SDK",
    link: "v1.bZDBasMwEET_Zc5ykJ0oJbrlAwqFHkspsqykrlXJaDeGYPTvZZ1LoT1JO9Kb2d0V5ENyZcywK5ZQaMwJtlUoYRkfBTrdmaZtm85AgYtLNOfCsCAexgyFT-b5NZQlFBEDCXe5RShExyH5u5j7jmCNAnUe1lQF2oiXki9jDLBgapYWCj6OIfFfnTjMBPu2wjFspxWc563DFXyf5at3UVK3w-Is7eYs19756VryLQ0fX7mHgitXEvCbYFutdVVgR9PmxfGZYI9a5FrVI2-v_w9MPsRmQ3_l1vquENJwfoDiHtJ1TILondlpGWeYZLe7w1ZxcV5ej4PZ967vT0_Hkz8YjfoD",
    scenario: {"version": 1, "revision": "2025-11-25", "transport": "stdio", "httpServer": "sessionful", "latency": {"c2s": 5, "s2c": 5}, "serverProfile": "ts-v1", "clientProfile": "ts-v1", "steps": [{"at": 20, "action": {"type": "call", "call": "A", "tool": "background_job", "args": {"ms": 1000}, "task": {"ttlMs": 60000}}}, {"at": 300, "action": {"type": "cancel-task", "call": "A"}}], "endAt": 3000},
    meta: {"engine": "0.5.0", "sdk": "2.4.0", "trace": "6d53babb9769c450"},
  },
  {
    name: "v1, engine 0.5.0: a content-type wire fault (2026-07-28 Streamable HTTP)",
    link: "v1.RZDBTsMwDIbf5T-nXRZWGLntGeCGOGSZu0XLkpK4FVPVd0deQZx-W7a_3_aM6im5EjLsjIlKDTnBbhUKTWFNYLR5bvRLY_ZQ4OJSHXJhWFQu5G7uGKm5MA9QEHmjMlGRMlUh9GOEQnRMyd_FxpsKa7RCNV6CRaF3Y-QK-zHjFB6zxkPBeV5X8DkxJW74PhAUbo79BRacc6wb76I4_Pa8S4sF0zdvhuhCwvKpUJmGle8Ydqv1P3wGryN_HBGLgxybs4RfY_BXWaecK-y8LEKkdDqsKDmA0jkkgei2azUU6ukqr2t3j4yL8w8L0-vX43bXdabbP_UOyw8",
    scenario: {"version": 1, "revision": "2026-07-28", "transport": "streamable-http", "httpServer": "sessionful", "latency": {"c2s": 20, "s2c": 20}, "faults": [{"dir": "s2c", "action": "content-type", "match": "tools/call", "contentType": "text/plain"}], "steps": [{"at": 100, "action": {"type": "call", "call": "A", "tool": "quick", "args": {}}}], "endAt": 1000},
    meta: {"engine": "0.5.0", "sdk": "2.4.0", "trace": "c2f09b14552583fa"},
  },
];

/**
 * Made with engine 0.6.0 and SDK 2.4.0. 0.6.0 ends the rmcp client's call whose waiter a
 * server's cancel removed with rmcp's ServiceError::Cancelled (rust-sdk #1251), where 0.5.0 left
 * it waiting; this freezes that run.
 */
const ENGINE_0_6_GOLDEN: readonly Golden[] = [
  {
    name: "v1, engine 0.6.0: the rmcp client's call A ends with Cancelled when the server cancels its own request 1 (rust-sdk #1251)",
    link: "v1.rZJBT8MwDIX_yzuHkZZ1aLkNLlyQkDgihELqbtGypCTe0FT1vyO3GkLiwIVT8uzY77OVAcVRtNknmAEnysWnCFMpZDr5WaDWdXNVVVd1AwXONpY-ZYZB4dYnKOyY-2fKJ8oSpCJ13TFAIVim6M7S3NUFplEotYNpRgUXPEV-yqnzgWCQD67HJfxgYxsoF6mk4J1nyxPNgEOBWWqtkOK9jY4CDNJ7EX-Mo0Jh6gvMywDLMLVWsO5Sy-derJwNQjcdBhsZKyW52rJ_mwGgYPN28s_0caQiA_8guXaZLJM865jyY4HRCrwj2din9Tz1F7zNd34cRzVTNX9T3f071Yzzm6vSQvaqQLHdTCvTehS19VG49GK10FAo7V5-w2I5Kc7WSZZWN93adlV3u67aekkYvwA",
    scenario: {"version": 1, "revision": "2025-11-25", "transport": "stdio", "httpServer": "sessionful", "latency": {"c2s": 5, "s2c": 5}, "clientProfile": "rmcp", "clientHandlers": {"elicitation": {"ms": 400, "onCancel": "observe"}}, "steps": [{"at": 20, "action": {"type": "call", "call": "A", "tool": "ask_client", "args": {"request": "elicitation/create", "afterMs": 0, "then": "wait", "cancelAfterMs": 0}}}, {"at": 50, "action": {"type": "call", "call": "B", "tool": "ask_client", "args": {"request": "elicitation/create", "afterMs": 0, "then": "cancel", "cancelAfterMs": 100}}}], "endAt": 2000},
    meta: {"engine": "0.6.0", "sdk": "2.4.0", "trace": "e63f9af1f791d24e"},
  },
];

/**
 * Made with engine 0.7.0 and SDK 2.4.0. 0.7.0 delivers each byte stream in order: here the
 * delayed tools/call holds back the cancel written after it on the stdio pipe, where 0.6.0 let
 * the cancel overtake it; this freezes that run.
 */
const ENGINE_0_7_GOLDEN: readonly Golden[] = [
  {
    name: 'v1, engine 0.7.0: a delayed tools/call holds back the cancel written after it on the stdio pipe',
    link: "v1.bZBBbsMgEEXv8tckxU5cq-xygKy6rKqKAkmsErCYcSrL4u7VxJHaRVcwMP-9gQXkQrJlyDALbqHQkBNMo1DCbVgLtLrtNk2zaTsocLGJxlwYBsR-yFC4MI-vodxCkcNAkjtNEQrRckhuFrhrCaZToNbBdFXhZKfIBPO2wA-SlA4F63jV-hDtDIWrZXeBAecc6cnZKOArwTRa13cF4jCuGMswrf5FLOB5DEJeQ_fF4CDPyFm2FPP3h8tTYjGXM0noAdyt6OPDVKtaDfv_DMR5_GuoMllI_nAfSesq1XlI0qu3_VZDgfyX_O52f6-4WCe3vumeXX_yO9u_-N59ov4A",
    scenario: {"version": 1, "revision": "2025-11-25", "transport": "stdio", "httpServer": "sessionful", "latency": {"c2s": 5, "s2c": 5}, "faults": [{"dir": "c2s", "action": "delay", "match": "tools/call", "ms": 100}], "steps": [{"at": 20, "action": {"type": "call", "call": "A", "tool": "slow_count", "args": {"steps": 3, "stepMs": 100}}}, {"at": 40, "action": {"type": "stop", "call": "A"}}], "endAt": 2000},
    meta: {"engine": "0.7.0", "sdk": "2.4.0", "trace": "d156c7fd3a79d7cb"},
  },
];

const GOLDEN: readonly Golden[] = [...V1_GOLDEN, ...ENGINE_0_3_GOLDEN, ...ENGINE_0_4_GOLDEN, ...ENGINE_0_5_GOLDEN, ...ENGINE_0_6_GOLDEN, ...ENGINE_0_7_GOLDEN];

for (const golden of GOLDEN) {
  test(`golden ${golden.name}: decodes to the same scenario`, async () => {
    const decoded = await decodeLink(golden.link);
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
    assert.deepStrictEqual(decoded.scenario, golden.scenario);
    assert.deepStrictEqual(decoded.meta, golden.meta);
  });
}

test('golden links decode the same as a fragment ("#…") and with surrounding whitespace', async () => {
  for (const golden of GOLDEN) {
    for (const form of [`#${golden.link}`, ` ${golden.link}\n`]) {
      const decoded = await decodeLink(form);
      assert.ok(decoded.ok, `${golden.name} as ${JSON.stringify(form.slice(0, 6))}…`);
      assert.deepStrictEqual(decoded.scenario, golden.scenario);
    }
  }
});

test("today's encoder still round-trips every golden scenario (the bytes may differ, the scenario may not)", async () => {
  for (const golden of GOLDEN) {
    const link = await encodeLink(golden.scenario, golden.meta ?? { engine: '0.1.0', sdk: '2.4.0', trace: '0000000000000000' });
    assert.ok(link.startsWith('v1.'));
    const decoded = await decodeLink(link);
    assert.ok(decoded.ok);
    assert.deepStrictEqual(decoded.scenario, golden.scenario);
  }
});

const current = GOLDEN.filter((golden) => golden.meta?.engine === ENGINE_VERSION);

test(`some golden links were made by this engine (${ENGINE_VERSION}); add some when the version changes`, () => {
  assert.ok(current.length > 0, `no golden link carries engine ${ENGINE_VERSION}`);
});

const sides = createNodeSides();
after(() => sides.close());

for (const golden of current) {
  test(`golden ${golden.name}: reproduces its trace hash ${golden.meta?.trace ?? ''}`, async () => {
    const decoded = await decodeLink(golden.link);
    assert.ok(decoded.ok && decoded.meta !== null);
    assert.equal(await traceHash(await runHeadless(decoded.scenario, sides)), decoded.meta.trace, 'a link made by this engine replays to the hash it carries');
  });
}

/**
 * The lessons embed some runs as `v1.` permalinks (`<Scenario src="v1.…">`) rather than library
 * ids. The build fails when one no longer replays to the hash it carries; this says which, in the
 * unit tests, so that an engine change that moves traces shows the links to re-make.
 */
const LESSONS = new URL('../../content/docs/lessons/', import.meta.url);
const lessonLinks = readdirSync(LESSONS)
  .filter((f) => f.endsWith('.mdx'))
  .flatMap((file) => [...readFileSync(new URL(file, LESSONS), 'utf8').matchAll(/<Scenario\b[^>]*?\bsrc="(v1\.[^"]+)"/g)].map((m) => ({ file, link: m[1] ?? '' })));

test('the lessons embed permalinks (the handler lesson is made of them)', () => {
  assert.ok(lessonLinks.length >= 10, `only ${lessonLinks.length} permalink embeds found`);
});

for (const [i, { file, link }] of lessonLinks.entries()) {
  test(`${file}, permalink embed ${i + 1}: made by this engine, and replays to the trace hash it carries`, async () => {
    const decoded = await decodeLink(link);
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
    assert.ok(decoded.meta, 'the link carries its engine, SDK and trace hash');
    assert.equal(decoded.meta.engine, ENGINE_VERSION, 'made by another engine: re-make it with permalinkOf() from a fresh run');
    assert.equal(await traceHash(await runHeadless(decoded.scenario, sides)), decoded.meta.trace);
  });
}
