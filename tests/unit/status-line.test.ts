/**
 * The status line of real runs (the library's, and prefixes of them): what it says while the
 * client connects, once connected (the version the current connection negotiated), after a
 * crash, a refused handshake, and during a strict host's reconnect.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createNodeSides, runHeadless } from '../../src/host/node.ts';
import { libraryEntry } from '../../src/scenario/library.ts';
import type { Scenario } from '../../src/scenario/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { deriveRunView } from '../../src/views/run-view.ts';
import { statusLine } from '../../src/views/status-line.ts';

const sides = createNodeSides();
after(() => sides.close());

const runs = new Map<string, { scenario: Scenario; trace: TraceEvent[] }>();
before(async () => {
  for (const id of ['race-r2-strict-host-reconnects', 'race-r7-server-crash-mid-request', 'forged-error-refuses-the-handshake']) {
    const entry = libraryEntry(id);
    assert.ok(entry, id);
    runs.set(id, { scenario: entry.scenario, trace: await runHeadless(entry.scenario, sides) });
  }
});

/** The status line of library run `id`, up to virtual time `upTo` or through the first event `upTo` picks (the whole run when absent). */
function lineOf(id: string, upTo: number | ((e: TraceEvent) => boolean) = Infinity): string {
  const run = runs.get(id);
  assert.ok(run, id);
  const end = typeof upTo === 'number' ? run.trace.filter((e) => e.t <= upTo).length : run.trace.findIndex(upTo) + 1;
  if (typeof upTo !== 'number') assert.ok(end > 0, 'the run has the event');
  return statusLine(deriveRunView(run.scenario, run.trace.slice(0, end)));
}

const STRICT = '2025-11-25 · stdio · client strict-host (emulated)';

describe('the status line', () => {
  test('before the handshake is answered: connecting', () => {
    assert.equal(lineOf('race-r2-strict-host-reconnects', 0), `Connecting: the client is opening the connection… Setting: ${STRICT}.`);
  });

  test('connected: the version the first connection negotiated, and when', () => {
    assert.equal(lineOf('race-r2-strict-host-reconnects', 300), `Connected: negotiated protocol version 2025-11-25 (legacy era) at t = 100 ms. Setting: ${STRICT}.`);
  });

  test('during a strict host’s reconnect: reconnecting, then connecting again, with no version; then the new connection’s handshake at t = 500', () => {
    assert.equal(lineOf('race-r2-strict-host-reconnects', (e) => e.kind === 'connection-state' && e.to === 'reconnecting'), `Reconnecting… Setting: ${STRICT}.`);
    assert.equal(lineOf('race-r2-strict-host-reconnects', 450), `Connecting: the client is opening the connection… Setting: ${STRICT}.`);
    assert.equal(lineOf('race-r2-strict-host-reconnects'), `Connected: negotiated protocol version 2025-11-25 (legacy era) at t = 500 ms. Setting: ${STRICT}.`);
  });

  test('after the server process died: crashed', () => {
    assert.match(lineOf('race-r7-server-crash-mid-request', 249), /^The server crashed: the connection is gone; calls fail until you restart the server and reconnect\. Setting: .*\.$/);
  });

  test('after a refused handshake: disconnected', () => {
    assert.match(lineOf('forged-error-refuses-the-handshake'), /^Disconnected: the connection is closed; calls fail until you restart the server and reconnect\. Setting: .*\.$/);
  });
});
