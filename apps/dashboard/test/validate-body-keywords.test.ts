// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { type BodySchema, validateBody } from '../src/lib/form/validate-body';

// The browser's validator keyword by keyword, with Ajv's wording and the API's `body/...` paths
// (validate-body.test.ts compares whole bodies with the real API).

const messages = (schema: BodySchema, body: unknown) =>
  validateBody(schema, body).map((i) => `${i.path} ${i.message}`);

describe('the form body validator', () => {
  it('checks types, integers included, and stops at a wrong type', () => {
    expect(messages({ type: 'string', minLength: 1 }, 3)).toEqual(['body must be string']);
    expect(messages({ type: 'integer' }, 1.5)).toEqual(['body must be integer']);
    expect(messages({ type: 'integer' }, 2)).toEqual([]);
    expect(messages({ type: 'array' }, {})).toEqual(['body must be array']);
    expect(messages({ type: 'object' }, [])).toEqual(['body must be object']);
    expect(messages({ type: 'boolean' }, null)).toEqual(['body must be boolean']);
  });

  it('lets null through a nullable schema and nothing else', () => {
    const schema: BodySchema = { type: 'string', nullable: true, pattern: '^https?://' };
    expect(messages(schema, null)).toEqual([]);
    expect(messages(schema, 'ftp://x')).toEqual(['body must match pattern "^https?://"']);
  });

  it('counts characters as code points and checks patterns in unicode mode', () => {
    expect(messages({ type: 'string', maxLength: 2 }, '😀😀')).toEqual([]);
    expect(messages({ type: 'string', maxLength: 2 }, 'abc')).toEqual([
      'body must NOT have more than 2 characters',
    ]);
    expect(messages({ type: 'string', minLength: 3 }, '😀')).toEqual([
      'body must NOT have fewer than 3 characters',
    ]);
    expect(messages({ type: 'string', pattern: '^\\p{L}+$' }, 'é')).toEqual([]);
  });

  it('refuses a NUL character as the API does beside the schema', () => {
    expect(messages({ type: 'string' }, 'a\u0000b')).toEqual(['body must not contain a NUL character']);
  });

  it('checks list sizes and each item at its index', () => {
    const schema: BodySchema = {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', maxLength: 1 },
    };
    expect(messages(schema, [])).toEqual(['body must NOT have fewer than 1 items']);
    expect(messages(schema, ['a', 'b', 'c'])).toEqual(['body must NOT have more than 2 items']);
    expect(messages(schema, ['a', 'bb'])).toEqual(['body/1 must NOT have more than 1 characters']);
  });

  it('names missing and unknown properties, and an empty body where one is needed', () => {
    const schema: BodySchema = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, note: { type: 'string' } },
      additionalProperties: false,
      minProperties: 1,
    };
    expect(messages(schema, {})).toEqual([
      'body must NOT have fewer than 1 properties',
      "body must have required property 'name'",
    ]);
    expect(messages(schema, { name: 'x', colour: 'red' })).toEqual(['body/colour unknown property "colour"']);
    // An undefined property is left out, as JSON leaves it out.
    expect(messages(schema, { name: 'x', note: undefined })).toEqual([]);
  });

  it('checks nested objects at their own paths', () => {
    const schema: BodySchema = {
      type: 'object',
      properties: { rules: { type: 'object', properties: { max: { type: 'number' } } } },
    };
    expect(messages(schema, { rules: { max: 'ten' } })).toEqual(['body/rules/max must be number']);
  });

  it('accepts a value one choice of anyOf accepts, else lists every choice', () => {
    const schema: BodySchema = {
      anyOf: [
        { type: 'string', enum: ['a'] },
        { type: 'string', enum: ['b'] },
      ],
    };
    expect(messages(schema, 'b')).toEqual([]);
    expect(messages(schema, 'c')).toEqual([
      'body must be equal to one of the allowed values',
      'body must be equal to one of the allowed values',
      'body must match a schema in anyOf',
    ]);
  });
});
