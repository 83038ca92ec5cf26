import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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
  return ajv;
}

/**
 * Query strings, params and headers arrive as text, so they are coerced ("2" -> 2, "a" -> ["a"]);
 * JSON bodies carry real types and are not: `"tags": "x"` or `"count": "1"` is a 400, not a guess.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forText = createAjv('array');
  const forBodies = createAjv(false);
  return ({ schema, httpPart }) => (httpPart === 'body' ? forBodies : forText).compile(schema as object);
}
