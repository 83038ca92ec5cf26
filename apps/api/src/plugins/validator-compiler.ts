import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import type { FastifySchemaCompiler } from 'fastify';
import { unstorableValueErrors } from './unstorable-values';

const shared: Options = {
  // Refuse unknown properties instead of silently dropping them (Fastify's default removes them).
  removeAdditional: false,
  useDefaults: true,
  allErrors: true,
  addUsedSchema: false,
};

function createAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ ...shared, coerceTypes });
  addFormats(ajv);
  ajv.addFormat('iso-date-time-or-date', { type: 'string', validate: isIsoDateTimeOrDate });
  return ajv;
}

const { date, 'iso-date-time': isoDateTime } = fullFormats as unknown as Record<
  string,
  { validate: (text: string) => boolean }
>;

/** An ISO 8601 calendar date (`2026-11-23`) or date-time (zone optional), checked for real days and hours. */
export function isIsoDateTimeOrDate(text: string): boolean {
  return (
    (date as { validate: (text: string) => boolean }).validate(text) ||
    (isoDateTime as { validate: (text: string) => boolean }).validate(text)
  );
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * The schema's verdict, then a walk of the (coerced) value for what no schema keyword refuses:
 * NUL characters, lone UTF-16 surrogates and non-finite numbers (see unstorable-values.ts). A path Ajv already faulted
 * is not reported twice.
 */
function refusingUnstorableValues(validate: ValidateFunction): Validator {
  const check: Validator = (data) => {
    const valid = validate(data);
    const schemaErrors = validate.errors ?? [];
    const faulted = new Set(schemaErrors.map((error) => error.instancePath));
    const extra = unstorableValueErrors(data).filter((error) => !faulted.has(error.instancePath));
    check.errors = valid && extra.length === 0 ? null : [...schemaErrors, ...extra];
    return check.errors === null;
  };
  return check;
}

/**
 * Query strings, params and headers arrive as text, so they are coerced ("2" -> 2, "a" -> ["a"]);
 * JSON bodies carry real types and are not: `"tags": "x"` or `"count": "1"` is a 400, not a guess.
 * Every part of every route also refuses NUL characters, lone surrogates and non-finite numbers.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forText = createAjv('array');
  const forBodies = createAjv(false);
  return ({ schema, httpPart }) =>
    refusingUnstorableValues((httpPart === 'body' ? forBodies : forText).compile(schema as object));
}
