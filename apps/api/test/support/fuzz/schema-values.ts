import fc from 'fast-check';
import { hostileValue } from './hostile-values';
import type { JsonSchema } from './openapi-operations';

/**
 * Meaningful values by field name (ids and slugs that exist, a feed URL that answers), so requests get
 * past "not found" into the handlers. Array items are looked up as `name[]`.
 */
export type Hints = ReadonlyMap<string, fc.Arbitrary<unknown>>;

const maxDepth = 6;

/** A value for the schema: usually valid (or hinted), sometimes hostile, at every level. */
export function valueFor(schema: JsonSchema, hints: Hints, name?: string, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: validValueFor(schema, hints, name, depth) },
    { weight: 1, arbitrary: hostileValue },
  );
}

function validValueFor(schema: JsonSchema, hints: Hints, name: string | undefined, depth: number) {
  const plain = plainValueFor(schema, hints, name, depth);
  const hint = name === undefined ? undefined : hints.get(name);
  const value = hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: plain }) : plain;
  return schema.nullable ? fc.option(value, { nil: null, freq: 6 }) : value;
}

function plainValueFor(
  schema: JsonSchema,
  hints: Hints,
  name: string | undefined,
  depth: number,
): fc.Arbitrary<unknown> {
  if (depth > maxDepth) return fc.constant(null);
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches?.length)
    return fc.oneof(...branches.map((branch) => validValueFor(branch, hints, name, depth)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, hints, name && `${name}[]`, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
      return objectFor(schema, hints, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 40;
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString());
  if (schema.format === 'uri') return fc.webUrl().filter(fits);
  if (schema.pattern) {
    const matching = stringMatchingOrUndefined(schema.pattern);
    // Only when the pattern's strings fit the lengths often enough: a filter that almost never passes
    // (a 20-character minimum over a pattern whose strings are short) would spin for ever.
    if (matching && fc.sample(matching, { numRuns: 100, seed: 1 }).filter(fits).length >= 10)
      return matching.filter(fits);
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) });
}

/** fast-check cannot generate from every regular expression (look-aheads); the caller falls back. */
function stringMatchingOrUndefined(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    const arbitrary = fc.stringMatching(new RegExp(pattern));
    fc.sample(arbitrary, { numRuns: 1, seed: 1 });
    return arbitrary;
  } catch {
    return undefined;
  }
}

/** null most of the time, a value one time in eight. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

/** Required properties mostly present, optional ones sometimes, now and then one missing or extra. */
function objectFor(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = (schema.required ?? []).filter((key) => key in properties);
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [key, valueFor(property, hints, key, depth + 1)]),
  );
  const record = fc.record(model, { requiredKeys: required });
  const extra = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'a\u0000')),
    hostileValue,
    {
      maxKeys: 2,
    },
  );
  return fc
    .tuple(
      record,
      rarely(extra),
      required.length > 0 ? rarely(fc.constantFrom(...required)) : fc.constant(null),
    )
    .map(([value, extraProperties, dropped]) => {
      const out: Record<string, unknown> = { ...value };
      if (extraProperties)
        for (const [key, extraValue] of Object.entries(extraProperties))
          Object.defineProperty(out, key, {
            value: extraValue,
            enumerable: true,
            configurable: true,
            writable: true,
          });
      if (dropped) delete out[dropped];
      return out;
    });
}
