/**
 * The bytes a trace hash is taken of: keys sorted at every depth, as JSON.stringify writes
 * everything else (integer-like keys first in numeric order, undefined left out, toJSON asked).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '../../src/trace/index.ts';

test('keys are sorted at every depth, arrays keep their order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 0, y: 1 }], c: null } }), '{"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1}');
});

test('what JSON.stringify leaves out or rewrites stays so', () => {
  assert.equal(canonicalJson({ b: undefined, a: [undefined, 1], when: new Date(0), 10: 'x', 2: 'y' }), '{"2":"y","10":"x","a":[null,1],"when":"1970-01-01T00:00:00.000Z"}');
  assert.equal(canonicalJson('text'), '"text"');
  assert.equal(canonicalJson(null), 'null');
});
