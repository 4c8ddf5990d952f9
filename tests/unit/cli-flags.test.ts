/**
 * Every subcommand reads its words through one parser (src/cli/flags.ts, Node's own parseArgs):
 * the same mistakes get the same one-line messages whichever command they were made in.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from '../../src/cli/args.ts';
import { parseCheckArgs } from '../../src/cli/check-command.ts';
import { parseExploreArgs } from '../../src/cli/explore-args.ts';
import { parseExportArgs } from '../../src/cli/export.ts';
import { parseProbeArgs } from '../../src/cli/probe/command.ts';

describe('the flags of every subcommand', () => {
  test('an unknown option, a value missing, a value on a switch: one message each, in every command', () => {
    assert.deepEqual(parseArgs(['run', 'a.json', '--frob']), { ok: false, error: 'unknown option --frob' });
    assert.deepEqual(parseCheckArgs(['a.log', '--frob=1']), { ok: false, error: 'unknown option --frob' });
    assert.deepEqual(parseExploreArgs(['a.json', '--budget']), { ok: false, error: '--budget needs a value' });
    assert.deepEqual(parseExportArgs(['a.json', '--out']), { ok: false, error: '--out needs a value' });
    assert.deepEqual(parseProbeArgs(['--tool', 'slow', '--all=yes', '--', 'server']), { ok: false, error: '--all takes no value' });
  });

  test('--name=value and --name value read the same, and -h asks for help anywhere', () => {
    assert.deepEqual(parseCheckArgs(['a.log', '--revision=2025-06-18', '--transport', 'stdio']), {
      ok: true,
      args: { input: 'a.log', format: 'text', all: false, revision: '2025-06-18', transport: 'stdio' },
    });
    for (const parsed of [parseArgs(['run', '-h']), parseCheckArgs(['-h']), parseExploreArgs(['x', '-h']), parseExportArgs(['-h']), parseProbeArgs(['-h'])]) {
      assert.deepEqual(parsed, { ok: true, info: 'help' });
    }
  });

  test('the server command after -- is the probe’s to run, flags and all', () => {
    const parsed = parseProbeArgs(['--tool', 'slow', '--format=checks', '--', 'python', '-m', 'server', '--format', 'x']);
    assert.ok(parsed.ok && 'args' in parsed);
    assert.equal(parsed.args.format, 'checks');
    assert.deepEqual(parsed.args.target, { kind: 'stdio', command: 'python', args: ['-m', 'server', '--format', 'x'] });
  });
});
