/**
 * Diagrams as text: the lifecycle tables as Mermaid state diagrams and real runs as Mermaid
 * sequence diagrams, compared with reviewed golden files in tests/unit/golden/*.mmd; plus the
 * escaping of untrusted text, the collapsing of progress runs, and truncation.
 *
 * Golden files: after a change that is meant to alter the diagrams, regenerate them with
 *   UPDATE_GOLDEN=1 npm run -s test:unit
 * and review the diff line by line before committing (the files are the reviewed output).
 *
 * Mermaid itself is not installed, so `assertMermaidSyntax` checks each line against the parts
 * of Mermaid 11's grammars that these generators use: entity codes are replaced first (as
 * Mermaid's `encodeEntities` does before parsing), then no text may hold what would end it or
 * start markup, a comment or a directive.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createNodeSides, runHeadless, type NodeSides } from '../../src/host/node.ts';
import { stepMachine, type MachineDef } from '../../src/machines/machine.ts';
import { clientRequestMachine } from '../../src/machines/client-request.ts';
import { serverHandlerMachine } from '../../src/machines/server-handler.ts';
import { connectionMachine } from '../../src/machines/connection.ts';
import { stateDiagram, stateText } from '../../src/diagrams/state-diagram.ts';
import { mermaidText } from '../../src/diagrams/mermaid-text.ts';
import { sequenceDiagram } from '../../src/diagrams/sequence-diagram.ts';
import { subjectOf, subjectsOf } from '../../src/diagrams/subjects.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { JsonRpcMessage, TraceEvent, UserAction } from '../../src/trace/index.ts';
import { assertNoEngineErrors, call, defined, inject, scenario, stop } from './trace-helpers.ts';

const GOLDEN_DIR = new URL('./golden/', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function golden(name: string, text: string): void {
  const file = new URL(name, GOLDEN_DIR);
  if (UPDATE) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.equal(text, readFileSync(file, 'utf8'), `${name} differs from the golden file (UPDATE_GOLDEN=1 regenerates it)`);
}

// ---- A check of the Mermaid subset the generators write -------------------------------------

/** What Mermaid's `encodeEntities` does before any parser runs: `#name;` and `#123;` become placeholders. */
function encodeEntities(line: string): string {
  return line.replace(/#\w+;/g, (s) => (/^#\+?\d+;$/.test(s) ? 'ﬂ°°' : 'ﬂ°') + s.slice(1, -1) + '¶ß');
}

/** Text after a `: ` must survive the lexer whole and carry no markup, comment or directive. */
function assertSafeText(text: string, where: string, extra = ''): void {
  assert.ok(text.trim() !== '', `${where}: text is not empty`);
  const forbidden = new RegExp(`[#;<>%{}"\`\\n\\r${extra}]`);
  assert.doesNotMatch(text, forbidden, `${where}: no character that Mermaid reads as syntax or markup`);
}

function assertMermaidSyntax(text: string, kind: 'sequence' | 'state'): void {
  assert.ok(text.endsWith('\n'), 'ends with a newline');
  const lines = text.slice(0, -1).split('\n');
  assert.equal(lines[0], kind === 'sequence' ? 'sequenceDiagram' : 'stateDiagram-v2');
  for (const [i, raw] of lines.slice(1).entries()) {
    const line = encodeEntities(raw);
    const where = `line ${i + 2}: ${raw}`;
    let m: RegExpExecArray | null;
    if ((m = /^ {2}accTitle: (.*)$/.exec(line))) {
      assertSafeText(m[1] ?? '', where);
    } else if (kind === 'sequence') {
      if (/^ {2}participant (Client|Server)$/.test(line)) continue;
      m = /^ {2}(?:(?:Client|Server)(?:->>|-->>|-x)(?:Client|Server)|Note over (?:Client|Server|Client,Server)): (.*)$/.exec(line);
      assert.ok(m, `${where}: a message, a note or a participant`);
      assertSafeText(m[1] ?? '', where);
    } else {
      if ((m = /^ {2}state "([^"]*)" as ([A-Za-z]\w*)$/.exec(line))) {
        assertSafeText(m[1] ?? '', where, ':*~\\[\\]');
        assert.doesNotMatch(m[1] ?? '', /direction/i, `${where}: no whole 'direction'`);
        continue;
      }
      if (/^ {2}\[\*\] --> [A-Za-z]\w*$/.test(line)) continue;
      if (/^ {2}classDef (current|previous) [a-z-]+:[^\s,;]+(,[a-z-]+:[^\s,;]+)*$/.test(line)) continue;
      if (/^ {2}class [A-Za-z]\w* (current|previous)$/.test(line)) continue;
      m = /^ {2}([A-Za-z]\w*) --> ([A-Za-z]\w*) : (.*)$/.exec(line);
      assert.ok(m, `${where}: a state, a transition, a classDef or a class`);
      assertSafeText(m[3] ?? '', where, ':');
    }
  }
  // Rules that read past the text: the state lexer's `direction` statement matches anywhere
  // (its \s+ even across lines), and preprocessing drops the last `;` of any line that matches
  // `style…:…#…;` or `classDef…:…#…;`, which would break the last entity code on it.
  if (kind === 'state') assert.doesNotMatch(text, /direction\s+(TB|BT|RL|LR)/i, 'no direction statement');
  for (const raw of lines) assert.doesNotMatch(raw, /(style|classDef).*:\S*#.*;/, `no line that preprocessing would cut: ${raw}`);
}

/** Mermaid's numeric entity codes back to characters, to compare with the input. */
function decodeEntities(text: string): string {
  return text.replace(/#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)));
}

// ---- State diagrams ------------------------------------------------------------------------

describe('state diagrams of the transition tables', () => {
  test('client request: current CANCEL_REQUESTED, just taken from RUNNING on Stop', () => {
    const lastTransition = defined(clientRequestMachine.transitions.find((t) => t.from === 'RUNNING' && t.on === 'stop'));
    const text = stateDiagram(clientRequestMachine, { current: 'CANCEL_REQUESTED', lastTransition });
    assertMermaidSyntax(text, 'state');
    golden('state-client-request.mmd', text);
  });

  test('server handler: current response suppressed, just taken from returned', () => {
    const lastTransition = defined(serverHandlerMachine.transitions.find((t) => t.from === 'returned' && t.on === 'response-suppressed'));
    const text = stateDiagram(serverHandlerMachine, { current: 'response suppressed', lastTransition });
    assertMermaidSyntax(text, 'state');
    golden('state-server-handler.mmd', text);
  });

  test('connection: current open, just taken from discovered', () => {
    const lastTransition = defined(connectionMachine.transitions.find((t) => t.from === 'discovered' && t.on === 'connected'));
    const text = stateDiagram(connectionMachine, { current: 'open', lastTransition });
    assertMermaidSyntax(text, 'state');
    golden('state-connection.mmd', text);
  });

  test('every state and every transition is drawn, in table order, with [*] into the initial state', () => {
    for (const def of [clientRequestMachine, serverHandlerMachine, connectionMachine] as MachineDef<string, string>[]) {
      const lines = stateDiagram(def).split('\n');
      assert.equal(lines.filter((l) => l.startsWith('  state ')).length, def.states.length, def.id);
      const edges = lines.filter((l) => / --> /.test(l) && !l.includes('[*]'));
      const loops = new Set(def.transitions.filter((t) => t.from === t.to).map((t) => t.from));
      const between = def.transitions.filter((t) => t.from !== t.to);
      assert.equal(edges.length, between.length + loops.size, `${def.id}: one edge per transition, one per state's self-transitions`);
      for (const t of def.transitions) {
        const edge = edges.find((l) => l.startsWith(`  ${stateIdIn(lines, t.from)} --> ${stateIdIn(lines, t.to)} : `) && l.includes(stateText(t.label)));
        assert.ok(edge, `${def.id}: ${t.from} --${t.on}--> ${t.to} is drawn with its label`);
      }
      assert.equal(lines.filter((l) => l.startsWith('  [*] --> ')).length, 1);
      assert.ok(!lines.some((l) => l.startsWith('  class ')), 'nothing highlighted without options');
    }
  });

  test('a self-transition just taken: its label is marked, no state is outlined as previous', () => {
    const lastTransition = defined(clientRequestMachine.transitions.find((t) => t.from === 'STOPPED_LOCALLY' && t.on === 'late-response'));
    const text = stateDiagram(clientRequestMachine, { current: 'STOPPED_LOCALLY', lastTransition });
    assertMermaidSyntax(text, 'state');
    assert.ok(text.includes('  STOPPED_LOCALLY --> STOPPED_LOCALLY : ▶ ignored#58; arrived after Stop / ignored#58; not running\n'));
    assert.equal(text.split('\n').filter((l) => l.startsWith('  STOPPED_LOCALLY --> STOPPED_LOCALLY')).length, 1, 'one self-loop edge per state');
    assert.equal(text.split('▶').length - 1, 1, 'exactly one edge is marked');
    assert.ok(text.includes('  class STOPPED_LOCALLY current\n'));
    assert.ok(!text.includes(' previous\n  ') && !/class \w+ previous/.test(text));
  });

  test('names that are not identifiers get aliases; hostile names and labels stay text', () => {
    const def: MachineDef<string, string> = {
      id: 'x',
      title: 'Hostile <b>title</b>; %%{init: {"theme":"dark"}}%%',
      initial: 'cancellation seen',
      states: ['cancellation seen', 'default', 'state', '1st', 'a-b', 'a b', '_x_', 'direction TB', 'styled'],
      transitions: [
        { from: 'cancellation seen', on: 'e', to: 'default', label: 'x : y ; z # <img src=x onerror=alert(1)>' },
        { from: 'default', on: 'e', to: 'state', label: 'change direction\nLR' },
        { from: 'state', on: 'e', to: '1st', label: '**bold** `code` [[fork]]' },
        { from: '1st', on: 'e', to: 'a-b', label: 'plain' },
        { from: 'a-b', on: 'e', to: 'a b', label: 'plain' },
        { from: 'a b', on: 'e', to: '_x_', label: 'plain' },
        { from: '_x_', on: 'e', to: 'direction TB', label: 'plain' },
        { from: 'direction TB', on: 'e', to: 'styled', label: 'style: #35;' },
      ],
    };
    const text = stateDiagram(def, { current: 'a b' });
    assertMermaidSyntax(text, 'state');
    assert.ok(text.includes('  state "cancellation seen" as cancellation_seen\n'));
    assert.ok(text.includes('  [*] --> cancellation_seen\n'));
    const ids = [...text.matchAll(/^ {2}state "[^"]*" as (\w+)$/gm)].map((m) => m[1]);
    assert.equal(new Set(ids).size, def.states.length, 'distinct ids');
    for (const id of ids) assert.doesNotMatch(defined(id), /^(default|state)$|direction|style/i);
    assert.ok(text.includes('#60;img src=x onerror=alert(1)#62;'));
    assert.ok(!text.includes('<') && !text.includes('%%'));
  });
});

/** The Mermaid id a state diagram gave a state, read off its `state "…" as id` line. */
function stateIdIn(lines: readonly string[], state: string): string {
  const line = lines.find((l) => l.startsWith(`  state "${stateText(state)}" as `));
  return defined(line, `state line for ${state}`).split(' as ')[1] ?? '';
}

// ---- Lifecycles reject impossible steps ------------------------------------------------------

describe('transition tables', () => {
  const tables = [clientRequestMachine, serverHandlerMachine, connectionMachine] as MachineDef<string, string>[];

  test('stepMachine returns ok:false (never throws) for every step the table lacks', () => {
    for (const def of tables) {
      const events = [...new Set(def.transitions.map((t) => t.on))];
      let impossible = 0;
      for (const state of def.states) {
        for (const event of events) {
          const outcome = stepMachine(def, state, event);
          const allowed = def.transitions.some((t) => t.from === state && t.on === event);
          assert.equal(outcome.ok, allowed, `${def.id}: ${state} on ${event}`);
          if (!outcome.ok) {
            impossible++;
            assert.match(outcome.reason, new RegExp(`^${def.id}: no transition from ${state} on ${event}$`));
          }
        }
      }
      assert.ok(impossible > 0, `${def.id} has impossible steps to test`);
    }
    assert.equal(stepMachine(clientRequestMachine, 'SUCCEEDED', 'stopped').ok, false);
    assert.equal(stepMachine(serverHandlerMachine, 'response sent', 'return').ok, false);
    assert.equal(stepMachine(connectionMachine, 'closed', 'connected').ok, false);
  });

  test('each table is deterministic: one transition per (state, event), between listed states', () => {
    for (const def of tables) {
      const seen = new Set<string>();
      for (const t of def.transitions) {
        const key = `${t.from}|${t.on}`;
        assert.ok(!seen.has(key), `${def.id}: one transition for ${key}`);
        seen.add(key);
        assert.ok(def.states.includes(t.from) && def.states.includes(t.to), `${def.id}: ${t.from} → ${t.to} are states`);
      }
      assert.ok(def.states.includes(def.initial));
    }
  });
});

// ---- Sequence diagrams of real runs ----------------------------------------------------------

interface Seed {
  name: string;
  file: string;
  scenario: Scenario;
  connection: string[];
}

const SEEDS: Seed[] = [
  {
    name: '(i) stdio 2025-11-25: slow_count stopped at 250',
    file: 'seq-stdio-slow-count-stop.mmd',
    scenario: scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(250, 'A')]),
    connection: ['initialized', 'open'],
  },
  {
    name: '(ii) stdio: stubborn stopped, then a result injected after the handler returned',
    file: 'seq-stdio-stubborn-injected-late-result.mmd',
    scenario: scenario([call(20, 'A', 'stubborn', { ms: 300 }), stop(100, 'A'), inject(400, 'A')]),
    connection: ['initialized', 'open'],
  },
  {
    name: '(iii) stdio: ledger_write stopped after its commit',
    file: 'seq-stdio-ledger-stopped-after-commit.mmd',
    scenario: scenario([call(20, 'L', 'ledger_write', { key: 'order-42', value: 'paid', commitAfterMs: 100, totalMs: 400 }), stop(220, 'L')]),
    connection: ['initialized', 'open'],
  },
  {
    name: '(iv) Streamable HTTP 2026-07-28: slow_count stopped by closing its stream',
    file: 'seq-http-2026-slow-count-stream-closed.mmd',
    scenario: scenario([call(20, 'A', 'slow_count', { steps: 5, stepMs: 100 }), stop(250, 'A')], {
      revision: '2026-07-28',
      transport: 'streamable-http',
      httpServer: 'stateless',
    }),
    connection: ['discovered', 'open'],
  },
  {
    name: '(v) stateless Streamable HTTP 2025-11-25: stubborn stopped, the cancel is lost, the result arrives late',
    file: 'seq-http-2025-stateless-stubborn-lost-cancel.mmd',
    scenario: scenario([call(50, 'A', 'stubborn', { ms: 300 }), stop(100, 'A')], {
      revision: '2025-11-25',
      transport: 'streamable-http',
      httpServer: 'stateless',
    }),
    connection: ['initialized', 'open'],
  },
];

describe('sequence diagrams of the seed scenarios', () => {
  // Workers start in `before`, so a run filtered to other tests (--test-name-pattern) starts none.
  let sides: NodeSides | undefined;
  after(() => sides?.close());
  const traces = new Map<string, TraceEvent[]>();
  before(async () => {
    const own = createNodeSides();
    sides = own;
    for (const seed of SEEDS) traces.set(seed.file, await runHeadless(seed.scenario, own));
  });

  for (const seed of SEEDS) {
    test(seed.name, () => {
      const trace = defined(traces.get(seed.file));
      assertNoEngineErrors(trace);
      const text = sequenceDiagram(trace);
      assertMermaidSyntax(text, 'sequence');
      golden(seed.file, text);
      assert.equal(sequenceDiagram(trace), text, 'the same trace gives the same text');
      const connection = trace.flatMap((e) => (e.kind === 'connection-state' ? [e.to] : []));
      assert.deepEqual(connection, seed.connection);
    });
  }

  test('the diagram follows a growing trace: every prefix renders, the cancel arrow appears once written', () => {
    const trace = defined(traces.get('seq-stdio-slow-count-stop.mmd'));
    const cancel = trace.findIndex((e) => e.kind === 'frame' && e.msg?.method === 'notifications/cancelled');
    assert.ok(cancel > 0);
    for (let n = 0; n <= trace.length; n++) {
      const text = sequenceDiagram(trace.slice(0, n));
      assertMermaidSyntax(text, 'sequence');
      assert.equal(text.includes('Client->>Server: notifications/cancelled requestId=1'), n > cancel, `prefix of ${n} events`);
    }
  });

  test('the lifecycles a state diagram can show, and where each stands as the trace grows', () => {
    const trace = defined(traces.get('seq-stdio-slow-count-stop.mmd'));
    assert.deepEqual(subjectsOf(trace), [
      ['connection', 'Connection'],
      ['call:A', 'Call A: client request'],
      ['request:1', 'Request 1: server handler'],
    ]);
    const at = (value: string, events: readonly TraceEvent[]) => {
      const s = subjectOf(value, events);
      return `${s.def.id}: ${s.current ?? '(not started)'}${s.last ? ` after ${s.last.from} → ${s.last.to} (${s.last.label})` : ''}`;
    };
    const cancel = trace.findIndex((e) => e.kind === 'frame' && e.msg?.method === 'notifications/cancelled');
    assert.deepEqual(
      [trace.slice(0, 1), trace.slice(0, cancel + 1), trace].map((events) => ['connection', 'call:A', 'request:1'].map((v) => at(v, events))),
      [
        ['connection: connecting', 'client-request: (not started)', 'server-handler: (not started)'],
        ['connection: open after initialized → open (client connected)', 'client-request: CANCEL_REQUESTED after RUNNING → CANCEL_REQUESTED (Stop pressed)', 'server-handler: running'],
        [
          'connection: open after initialized → open (client connected)',
          'client-request: STOPPED_LOCALLY after CANCEL_REQUESTED → STOPPED_LOCALLY (local wait ended)',
          'server-handler: response suppressed after threw → response suppressed (nothing written)',
        ],
      ],
    );
  });
});

// ---- Escaping --------------------------------------------------------------------------------

describe('mermaidText', () => {
  test('a hostile tool argument becomes entity codes that render as the same text', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const text = mermaidText(hostile);
    assert.equal(text, '#60;img src=x onerror=alert(1)#62;');
    assert.equal(decodeEntities(text), hostile);
  });

  test('every character Mermaid could read as syntax, markup, a comment or a directive is escaped', () => {
    const samples = [
      'a;b#c:d',
      '%%{init: {"securityLevel":"loose","theme":"dark"}}%%',
      'line one\nline two\r\nline three\u2028four',
      "quotes \" ' and `backticks`",
      'entity #35; and &lt;b&gt; and &amp;',
      "placeholder ﬂ°°60¶ß sneaks in",
      '<script>alert(1)</script><br/>',
      'end',
      'wrap:too long',
      '\\n literal',
    ];
    for (const s of samples) {
      const text = mermaidText(s);
      assert.doesNotMatch(text.replace(/#\d+;/g, ''), /[#;:<>%{}"'`\n\r\\ﬂ¶]/, s);
      assert.equal(decodeEntities(text), s.replace(/\s+/g, ' ').trim(), `round trip of ${JSON.stringify(s)}`);
    }
  });

  test('invisible and bidirectional control characters are dropped; long text is clipped before escaping', () => {
    assert.equal(mermaidText('a\u202Eb\u200Bc'), 'abc');
    assert.equal(mermaidText('x'.repeat(10), 5), 'xxxx…');
    assert.equal(mermaidText('<<<<<<', 3), '#60;#60;…');
  });

  test('state text also escapes markdown at word edges and the word direction', () => {
    assert.equal(stateText('CANCEL_REQUESTED'), 'CANCEL_REQUESTED');
    assert.equal(stateText('_x_ *y* ~z~ [a]'), '#95;x#95; #42;y#42; #126;z#126; #91;a#93;');
    assert.equal(stateText('direction LR'), 'directio#110; LR');
  });

  test('a hostile argument in a trace reaches the diagram only as text', () => {
    const trace: TraceEvent[] = [
      action(0, 0, { type: 'call', call: 'A;x', tool: 'quick<b>', args: { q: '<img src=x onerror=alert(1)>', n: '%%{init: {"theme":"dark"}}%%\nNote over Server: forged' } }),
      frameEvent(1, 0, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick<b>', arguments: {} } }),
      frameEvent(2, 5, 's2c', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad <img src=x onerror=alert(1)>;\nServer->>Client: forged' } }),
      frameEvent(3, 6, 's2c', { jsonrpc: '2.0', method: 'notifications/<script>', params: {} }),
    ];
    const text = sequenceDiagram(trace);
    assertMermaidSyntax(text, 'sequence');
    assert.equal(text.split('\n').length, 4 + 4 + 1, 'header, one line per row, final newline: no newline got through');
    assert.ok(text.includes('#60;img src=x onerror=alert(1)#62;'));
    assert.ok(!text.split('\n').some((l) => l.includes(': forged')), 'the forged lines stayed inside their text');
    assert.ok(!text.includes('<') && !text.includes('%%'));
  });
});

describe('late responses', () => {
  /** Call A (id 1) stopped on connection 0; after a reconnect, call B gets id 1 again on connection 1. */
  function reconnected(resultConnection: number): TraceEvent[] {
    const opened = (seq: number, callId: string, connection: number): TraceEvent =>
      ({ seq, t: seq, kind: 'client-state', call: callId, requestId: 1, connection, machine: 'client-request', from: null, to: 'RUNNING', on: null, because: 'Call pressed' }) as TraceEvent;
    const toolsCall: JsonRpcMessage = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick' } };
    return [
      opened(0, 'A', 0),
      { ...frameEvent(1, 1, 'c2s', toolsCall), connection: 0 } as TraceEvent,
      action(2, 2, { type: 'stop', call: 'A' }),
      { seq: 3, t: 3, kind: 'connection', event: 'reconnecting', detail: 'restart' } as TraceEvent,
      opened(4, 'B', 1),
      { ...frameEvent(5, 5, 'c2s', toolsCall), connection: 1 } as TraceEvent,
      { ...frameEvent(6, 6, 's2c', { jsonrpc: '2.0', id: 1, result: {} }), connection: resultConnection } as TraceEvent,
      { seq: 7, t: 11, kind: 'delivery', frame: 6, dir: 's2c' } as TraceEvent,
    ];
  }

  test('a request id reused on a new connection is not taken for the stopped call', () => {
    const text = sequenceDiagram(reconnected(1));
    assertMermaidSyntax(text, 'sequence');
    assert.ok(text.includes('  Server-->>Client: result of tools/call id=1 (t=6)\n'));
    assert.ok(!text.includes('late'), 'B’s result is not late');
  });

  test('the stopped call’s own response, on its connection, is marked late where it arrives', () => {
    const lines = sequenceDiagram(reconnected(0)).split('\n');
    assert.equal(lines.at(-2), '  Note over Client: late#58; result id=1 arrived at t=11, after Stop A at t=2');
  });
});

// ---- Readability past 200 messages -----------------------------------------------------------

/** A synthetic 250-frame run: tools/call, then progress for its token with a log message every 10th frame. */
function longTrace(): TraceEvent[] {
  const trace: TraceEvent[] = [action(0, 0, { type: 'call', call: 'A', tool: 'slow_count', args: { steps: 249 } })];
  trace.push(frameEvent(1, 0, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_count', _meta: { progressToken: 1 } } }));
  for (let i = 1; i < 250; i++) {
    const msg: JsonRpcMessage =
      i % 10 === 0
        ? { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `step ${i}` } }
        : { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: i, total: 249 } };
    trace.push(frameEvent(trace.length, i * 10, 's2c', msg));
  }
  return trace;
}

function messageLines(text: string): string[] {
  return text.split('\n').filter((l) => /^ {2}(Client|Server)(->>|-->>|-x)/.test(l));
}

describe('long traces', () => {
  test('consecutive progress for the same token collapses into one arrow per run', () => {
    const trace = longTrace();
    assert.equal(trace.filter((e) => e.kind === 'frame').length, 250);
    const text = sequenceDiagram(trace);
    assertMermaidSyntax(text, 'sequence');
    const messages = messageLines(text);
    // 1 tools/call + 24 log messages + 25 runs of progress (1..9, 11..19, …, 241..249).
    assert.equal(messages.length, 50);
    assert.equal(messages[1], '  Server->>Client: notifications/progress ×9 (1..9 of 249) (t=10..90)');
    assert.equal(messages.at(-1), '  Server->>Client: notifications/progress ×9 (241..249 of 249) (t=2410..2490)');
    const represented = messages.reduce((n, l) => n + Number(/×(\d+)/.exec(l)?.[1] ?? 1), 0);
    assert.equal(represented, 250, 'every frame is in exactly one arrow');
  });

  test('progress for another token, or after a note, starts a new arrow', () => {
    const p = (seq: number, token: number, progress: number): TraceEvent =>
      frameEvent(seq, seq, 's2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress } });
    const trace = [p(0, 1, 1), p(1, 1, 2), p(2, 2, 1), p(3, 1, 3), action(4, 4, { type: 'stop', call: 'A' }), p(5, 1, 4), p(6, 1, 5)];
    assert.deepEqual(messageLines(sequenceDiagram(trace)), [
      '  Server->>Client: notifications/progress ×2 (1..2) (t=0..1)',
      '  Server->>Client: notifications/progress 1 (t=2)',
      '  Server->>Client: notifications/progress 3 (t=3)',
      '  Server->>Client: notifications/progress ×2 (4..5) (t=5..6)',
    ]);
  });

  test('maxMessages keeps the newest messages after a note of how many were left out', () => {
    const text = sequenceDiagram(longTrace(), { maxMessages: 20 });
    assertMermaidSyntax(text, 'sequence');
    const lines = text.split('\n');
    assert.equal(lines[4], '  Note over Client,Server: … 30 earlier messages');
    const messages = messageLines(text);
    assert.equal(messages.length, 20);
    assert.deepEqual(messages, messageLines(sequenceDiagram(longTrace())).slice(-20));
    assert.equal(sequenceDiagram(longTrace(), { maxMessages: 50 }), sequenceDiagram(longTrace()), 'nothing cut when all fit');
  });

  test('findings are notes after their latest witness, or at the top when that was cut', () => {
    const trace = longTrace();
    const findings = [
      { witnesses: [1], rule: 'call-sent', severity: 'info' },
      { witnesses: [1, 249], rule: 'late <progress>', severity: 'warning' },
      { witnesses: [], rule: 'no-witness', severity: 'error' },
    ];
    const lines = sequenceDiagram(trace, { findings }).split('\n');
    const at = (s: string): number => lines.findIndex((l) => l.includes(s));
    assert.equal(at('call-sent'), at('tools/call slow_count id=1') + 1);
    assert.equal(lines[at('late #60;progress#62;')], '  Note over Client,Server: ⚠ warning#58; late #60;progress#62;');
    assert.equal(at('late #60;progress#62;'), at('×9 (241..249 of 249)') + 1);
    assert.equal(at('no-witness'), lines.length - 2, 'a finding without witnesses goes last');
    const cut = sequenceDiagram(trace, { findings: [findings[0] as (typeof findings)[number]], maxMessages: 5 }).split('\n');
    assert.equal(cut[5], '  Note over Client,Server: ℹ info#58; call-sent', 'right after the "earlier messages" note');
  });
});

// ---- Synthetic events ------------------------------------------------------------------------

function frameEvent(seq: number, t: number, dir: 'c2s' | 's2c', msg: JsonRpcMessage): TraceEvent {
  return { seq, kind: 'frame', t, frame: seq, dir, raw: JSON.stringify(msg) + '\n', msg, deliverAt: t + 5, connection: 0 } as TraceEvent;
}

function action(seq: number, t: number, a: UserAction): TraceEvent {
  return { seq, t, kind: 'user-action', action: a };
}
