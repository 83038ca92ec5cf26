import { randomUUID } from 'node:crypto';
import type { JsonSchema } from '../fuzz/openapi-operations';

/** Values by field name that point requests at the fixtures (ids, slugs, host sites). */
export type ValueHints = ReadonlyMap<string, () => unknown>;

/**
 * One plain valid value for a schema, deterministic: hinted names first, then the first enum value or
 * branch, strings of the minimum length in the right format, only the required properties of objects.
 * The matrix test needs requests that get past validation, not varied ones (the fuzz test does that).
 */
export function validValue(schema: JsonSchema, hints: ValueHints, name?: string, depth = 0): unknown {
  const hint = name === undefined ? undefined : hints.get(name);
  if (hint) return hint();
  if (depth > 6) return null;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) {
    const branch = branches.find((candidate) => candidate.type !== 'null') ?? branches[0];
    return validValue(branch as JsonSchema, hints, name, depth + 1);
  }
  if (schema.allOf?.length) return validValue(schema.allOf[0] as JsonSchema, hints, name, depth + 1);
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () =>
        validValue(schema.items ?? {}, hints, name && `${name}[]`, depth + 1),
      );
    default: {
      const properties = schema.properties ?? {};
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, validValue(properties[key] ?? {}, hints, key, depth + 1)]),
      );
    }
  }
}

function stringFor(schema: JsonSchema): string {
  switch (schema.format) {
    case 'uuid':
      return randomUUID();
    case 'email':
      return `matrix-${randomUUID().slice(0, 8)}@example.com`;
    case 'uri':
      return 'https://example.com/matrix';
    case 'date-time':
      return new Date().toISOString();
  }
  const length = Math.max(schema.minLength ?? 1, 1);
  const candidates = [
    'a'.repeat(length),
    `matrix-${randomUUID().slice(0, 8)}`,
    'x'.repeat(Math.max(length, 12)),
  ];
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  return candidates.find((candidate) => !pattern || pattern.test(candidate)) ?? 'a'.repeat(length);
}
