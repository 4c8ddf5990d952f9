/**
 * The published JSON Schema of the scenario format (src/scenario/json-schema.ts): it has the
 * shape of a draft 2020-12 schema, it agrees with the zod schema it is generated from, it
 * accepts every library scenario and arbitrary valid ones, and it rejects broken scenarios
 * with the path of what is wrong. Validated with @cfworker/json-schema, which the MCP SDK ships
 * (its `validators/cf-worker` entry).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { LIBRARY } from '../../src/scenario/library.ts';
import { defaultScenario } from '../../src/scenario/index.ts';
import { parseScenario, scenarioSchema } from '../../src/scenario/schema.ts';
import { SCENARIO_SCHEMA_ID, scenarioJsonSchema, type JsonSchema } from '../../src/scenario/json-schema.ts';
import { scenarioArbitrary } from './scenario-arbitrary.ts';
import { userActionSchema } from '../../src/trace/actions.ts';

const schema = scenarioJsonSchema();
const validate = new CfWorkerJsonSchemaValidator({ shortcircuit: false }).getValidator(schema as never);

/** Keywords of the draft 2020-12 vocabularies (core, applicator, unevaluated, validation, meta-data, format, content). */
const KEYWORDS = new Set([
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties',
  'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required',
  'dependentRequired', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'format',
  'contentEncoding', 'contentMediaType', 'contentSchema',
]);
const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLE_SCHEMAS = ['not', 'if', 'then', 'else', 'items', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const NUMBERS = ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'];
const COUNTS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties'];

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Checks one (sub)schema against the 2020-12 meta-schema's rules for each keyword's value, recursively. */
function checkShape(node: unknown, path: string, problems: string[]): void {
  if (typeof node === 'boolean') return;
  if (!isObject(node)) {
    problems.push(`${path}: a schema must be an object or a boolean`);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${key}`;
    if (!KEYWORDS.has(key)) problems.push(`${at}: not a draft 2020-12 keyword`);
    else if (SCHEMA_MAPS.includes(key)) {
      if (!isObject(value)) problems.push(`${at}: must map names to schemas`);
      else for (const [name, sub] of Object.entries(value)) checkShape(sub, `${at}/${name}`, problems);
    } else if (SCHEMA_LISTS.includes(key)) {
      if (!Array.isArray(value) || value.length === 0) problems.push(`${at}: must be a non-empty array of schemas`);
      else value.forEach((sub, i) => checkShape(sub, `${at}/${i}`, problems));
    } else if (SINGLE_SCHEMAS.includes(key)) {
      // 2020-12: `items` is one schema (tuple forms moved to prefixItems).
      checkShape(value, at, problems);
    } else if (NUMBERS.includes(key)) {
      // 2020-12 (since draft 6): exclusiveMinimum/Maximum are numbers, not booleans.
      if (typeof value !== 'number' || !Number.isFinite(value)) problems.push(`${at}: must be a number`);
    } else if (COUNTS.includes(key)) {
      if (!Number.isInteger(value) || (value as number) < 0) problems.push(`${at}: must be a non-negative integer`);
    } else if (key === 'type') {
      const types = Array.isArray(value) ? value : [value];
      if (types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t))) problems.push(`${at}: unknown type ${JSON.stringify(value)}`);
    } else if (key === 'required') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string') || new Set(value).size !== value.length) problems.push(`${at}: must be unique strings`);
    } else if (key === 'enum') {
      if (!Array.isArray(value) || value.length === 0) problems.push(`${at}: must be a non-empty array`);
    } else if (['$schema', '$id', '$ref', '$anchor', '$comment', 'title', 'description', 'pattern', 'format'].includes(key)) {
      if (typeof value !== 'string' || value === '') problems.push(`${at}: must be a non-empty string`);
    }
  }
  // Every required property is declared (the schemas here close their objects).
  if (Array.isArray(node.required) && isObject(node.properties) && node.additionalProperties === false) {
    for (const name of node.required as string[]) if (!(name in node.properties)) problems.push(`${path}/required: "${name}" is not among the properties`);
  }
}

function errorsOf(value: unknown): string {
  const result = validate(value);
  return result.valid ? '' : (result.errorMessage ?? '(no message)');
}

describe('the generated JSON Schema', () => {
  test('is a draft 2020-12 schema with $id /scenario.schema.json, a title and a description', () => {
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schema.$id, SCENARIO_SCHEMA_ID);
    assert.equal(SCENARIO_SCHEMA_ID, '/scenario.schema.json');
    assert.ok(typeof schema.title === 'string' && schema.title.length > 0);
    assert.ok(typeof schema.description === 'string' && schema.description.length > 40);
    assert.equal(schema.type, 'object');
    assert.equal(schema.additionalProperties, false);
  });

  test('every keyword, at every depth, is a draft 2020-12 keyword with a well-formed value', () => {
    const problems: string[] = [];
    checkShape(schema, '#', problems);
    assert.deepEqual(problems, []);
  });

  test('the shape check itself catches draft-4/7 forms (so it is not vacuous)', () => {
    const problems: string[] = [];
    checkShape({ definitions: {}, type: 'object', properties: { a: { items: [{ type: 'string' }], exclusiveMinimum: true, type: 'int' } }, required: ['a', 'a'] }, '#', problems);
    assert.deepEqual(problems, [
      '#/definitions: not a draft 2020-12 keyword',
      '#/properties/a/items: a schema must be an object or a boolean',
      '#/properties/a/exclusiveMinimum: must be a number',
      '#/properties/a/type: unknown type "int"',
      '#/required: must be unique strings',
    ]);
  });

  test('is plain JSON (serializes and parses back unchanged), and each call gives a fresh copy', () => {
    assert.deepStrictEqual(JSON.parse(JSON.stringify(schema)) as JsonSchema, schema);
    const again = scenarioJsonSchema();
    assert.notEqual(again, schema);
    assert.deepStrictEqual(again, schema);
  });

  test('describes the same fields as the zod schema, each with a description', () => {
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(properties).sort(), Object.keys(scenarioSchema.shape).sort());
    for (const [name, property] of Object.entries(properties)) assert.ok(typeof property.description === 'string', `${name} has a description`);
    assert.deepEqual([...(schema.required as string[])].sort(), ['endAt', 'httpServer', 'latency', 'revision', 'steps', 'transport', 'version']);
  });

  test('each action type has a description', () => {
    const steps = (schema.properties as Record<string, Record<string, unknown>>).steps as { items: { properties: { action: { oneOf: Record<string, unknown>[] } } } };
    const actions = steps.items.properties.action.oneOf;
    assert.equal(actions.length, userActionSchema.options.length);
    for (const action of actions) assert.ok(typeof action.description === 'string', JSON.stringify(action).slice(0, 80));
  });
});

describe('validating scenarios against it', () => {
  test('accepts every library scenario', () => {
    for (const entry of LIBRARY) assert.equal(errorsOf(entry.scenario), '', entry.id);
  });

  test('accepts arbitrary schema-valid scenarios (it agrees with parseScenario)', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        assert.equal(errorsOf(JSON.parse(JSON.stringify(scenario)) as unknown), '');
      }),
      { numRuns: 300 },
    );
  });

  const valid = defaultScenario();
  const broken: [string, unknown, string][] = [
    ['an unknown revision', { ...valid, revision: '2099-01-01' }, '#/revision'],
    ['a negative latency', { ...valid, latency: { c2s: -1, s2c: 5 } }, '#/latency/c2s'],
    ['a fractional time', { ...valid, steps: [{ at: 1.5, action: { type: 'disconnect' } }] }, '#/steps/0/at'],
    ['an unknown action', { ...valid, steps: [{ at: 0, action: { type: 'fly' } }] }, '#/steps/0/action'],
    ['a Stop without a call', { ...valid, steps: [{ at: 0, action: { type: 'stop' } }] }, '#/steps/0/action'],
    ['a forged cancel naming two targets', { ...valid, steps: [{ at: 0, action: { type: 'inject-cancel', call: 'A', requestId: 1 } }] }, '#/steps/0/action'],
    ['a forged response naming no target', { ...valid, steps: [{ at: 0, action: { type: 'inject-response', outcome: 'result' } }] }, '#/steps/0/action'],
    ['an unknown fault action', { ...valid, faults: [{ dir: 'c2s', action: 'explode' }] }, '#/faults/0/action'],
    ['a content-type fault with no Content-Type', { ...valid, faults: [{ dir: 's2c', action: 'content-type', match: 'tools/call' }] }, '#/faults/0'],
    ['a content-type fault on the client\'s direction', { ...valid, faults: [{ dir: 'c2s', action: 'content-type', contentType: 'text/plain' }] }, '#/faults/0/dir'],
    ['a Content-Type with a line break', { ...valid, faults: [{ dir: 's2c', action: 'content-type', contentType: 'text/plain\r\nx: y' }] }, '#/faults/0/contentType'],
    ['an unknown top-level field', { ...valid, colour: 'red' }, '#'],
    ['a missing endAt', { ...valid, endAt: undefined }, '#'],
  ];
  for (const [name, value, path] of broken) {
    test(`rejects ${name}, naming the path ${path}`, () => {
      const clean = JSON.parse(JSON.stringify(value)) as unknown;
      const errors = errorsOf(clean);
      assert.notEqual(errors, '', 'rejected');
      assert.ok(errors.split('; ').some((e) => e.startsWith(`${path}:`) || e.startsWith(`${path}/`)), `an error at ${path}: ${errors}`);
      assert.equal(parseScenario(clean).ok, false, 'parseScenario rejects it too');
    });
  }
});
