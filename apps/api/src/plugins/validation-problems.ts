import type { FastifySchemaValidationError } from 'fastify';
import type { ErrorBody } from '../schemas/error.schema';

type Details = NonNullable<ErrorBody['details']>;

/** What an unknown property is called in each part of a request. */
const unknownNames: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/**
 * The 400 VALIDATION_ERROR's message and details from Ajv's issues: one detail per faulted field, its
 * path starting with the request part (`body/title`, `querystring/page`). An unknown property is
 * named, at its own path: `unknown query parameter "foo"` rather than Ajv's bare
 * "must NOT have additional properties" at the parent.
 */
export function describeValidationProblems(
  context: string | undefined,
  issues: FastifySchemaValidationError[],
): { message: string; details: Details } {
  const part = context ?? 'body';
  const summaries: string[] = [];
  const details = issues.map((issue) => {
    const path = `${part}${issue.instancePath || ''}`;
    const unknown = issue.keyword === 'additionalProperties' ? issue.params.additionalProperty : undefined;
    if (typeof unknown === 'string') {
      const what = issue.instancePath === '' ? (unknownNames[part] ?? 'property') : 'property';
      const message = `unknown ${what} ${JSON.stringify(unknown)}`;
      summaries.push(message);
      return { path: `${path}/${unknown}`, message };
    }
    const message = issue.message ?? 'is invalid';
    summaries.push(`${path} ${message}`);
    return { path, message };
  });
  return { message: `Invalid ${context ?? 'request'}: ${summaries.join('; ')}`, details };
}
