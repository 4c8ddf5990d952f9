// `grouped` writes counts as en-US formatting does, without Intl (src/trace/grouped.ts says why):
// for every whole number it must agree with toLocaleString('en-US'), which is the oracle here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { grouped, plural } from '../../src/trace/index.ts';

test('grouped writes every whole number as toLocaleString("en-US") does', () => {
  fc.assert(
    fc.property(fc.maxSafeInteger(), (n) => {
      assert.equal(grouped(n), n.toLocaleString('en-US'));
    }),
  );
  for (const n of [0, 7, 999, 1000, 10_000, 86_400_000, -1234, -999]) assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
});

test('grouped leaves a fraction to toLocaleString', () => {
  assert.equal(grouped(1234.5), (1234.5).toLocaleString('en-US'));
});

test('plural says 1 in the singular, every other count in the plural, grouped', () => {
  assert.equal(plural(1, 'action'), '1 action');
  assert.equal(plural(0, 'action'), '0 actions');
  assert.equal(plural(2003, 'frame'), '2,003 frames');
  assert.equal(plural(1, 'allowed race or open point', 'allowed races and open points'), '1 allowed race or open point');
  assert.equal(plural(3, 'allowed race or open point', 'allowed races and open points'), '3 allowed races and open points');
});
