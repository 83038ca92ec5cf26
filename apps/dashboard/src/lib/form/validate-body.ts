import type { FieldIssue } from '../api-error';

// A request body checked in the browser against the API's own schema (request-schemas.generated.ts), with the
// API's own words: the messages and paths are Ajv's as the API sends them in a 400's details (`body/email`,
// "must NOT have fewer than 12 characters"), so one function places both on the form's fields. Only the
// keywords the forms' bodies use are known (test/validate-body.test.ts compares it with the API's Ajv);
// full Ajv in the browser would cost more than the first-load budget allows.

/** The JSON-schema keywords of the generated request bodies (OpenAPI 3.0: `nullable` rather than a type list). */
export interface BodySchema {
  readonly type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  readonly nullable?: boolean;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, BodySchema>>;
  readonly additionalProperties?: boolean;
  readonly minProperties?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly BodySchema[];
  readonly items?: BodySchema;
  readonly minItems?: number;
  readonly maxItems?: number;
}

type Issue = { path: string; message: string };

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const fitsType = (type: NonNullable<BodySchema['type']>, value: unknown): boolean =>
  type === 'integer' ? Number.isInteger(value) : typeOf(value) === type;

/** Ajv counts characters as code points (a surrogate pair is one), as JSON Schema says. */
const characters = (text: string): number => [...text].length;

function check(schema: BodySchema, value: unknown, path: string, issues: Issue[]): void {
  if (value === null && schema.nullable) return;
  if (schema.type && !fitsType(schema.type, value)) {
    issues.push({ path, message: `must be ${schema.type}` });
    return;
  }
  if (typeof value === 'string') checkString(schema, value, path, issues);
  if (Array.isArray(value)) checkArray(schema, value, path, issues);
  else if (typeOf(value) === 'object') checkObject(schema, value as Record<string, unknown>, path, issues);
  if (schema.enum && !schema.enum.includes(value))
    issues.push({ path, message: 'must be equal to one of the allowed values' });
  if (schema.anyOf) {
    const tried = schema.anyOf.map((option) => {
      const found: Issue[] = [];
      check(option, value, path, found);
      return found;
    });
    if (tried.every((found) => found.length > 0)) {
      issues.push(...tried.flat(), { path, message: 'must match a schema in anyOf' });
    }
  }
}

function checkString(schema: BodySchema, value: string, path: string, issues: Issue[]): void {
  const length = characters(value);
  if (schema.maxLength !== undefined && length > schema.maxLength)
    issues.push({ path, message: `must NOT have more than ${schema.maxLength} characters` });
  if (schema.minLength !== undefined && length < schema.minLength)
    issues.push({ path, message: `must NOT have fewer than ${schema.minLength} characters` });
  // Ajv compiles patterns with the u flag.
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
    issues.push({ path, message: `must match pattern "${schema.pattern}"` });
  // The API's own rule beside the schema (plugins/unstorable-values.ts): Postgres text cannot hold U+0000.
  if (value.includes('\u0000')) issues.push({ path, message: 'must not contain a NUL character' });
}

function checkArray(schema: BodySchema, value: unknown[], path: string, issues: Issue[]): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    issues.push({ path, message: `must NOT have more than ${schema.maxItems} items` });
  if (schema.minItems !== undefined && value.length < schema.minItems)
    issues.push({ path, message: `must NOT have fewer than ${schema.minItems} items` });
  const items = schema.items;
  if (!items) return;
  value.forEach((item, index) => {
    check(items, item, `${path}/${index}`, issues);
  });
}

function checkObject(
  schema: BodySchema,
  value: Record<string, unknown>,
  path: string,
  issues: Issue[],
): void {
  const keys = Object.keys(value).filter((key) => value[key] !== undefined);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties)
    issues.push({ path, message: `must NOT have fewer than ${schema.minProperties} properties` });
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) issues.push({ path, message: `must have required property '${name}'` });
  }
  for (const key of keys) {
    const property = schema.properties?.[key];
    // The API names an unknown property at its own path (plugins/validation-problems.ts).
    if (property) check(property, value[key], `${path}/${key}`, issues);
    else if (schema.additionalProperties === false)
      issues.push({ path: `${path}/${key}`, message: `unknown property ${JSON.stringify(key)}` });
  }
}

/** The body's problems as the API's 400 would list them (`body/<field>` paths); none: it would pass. */
export function validateBody(schema: BodySchema, body: unknown): FieldIssue[] {
  const issues: Issue[] = [];
  check(schema, body, 'body', issues);
  return issues;
}
