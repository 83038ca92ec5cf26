import { ApiError, type FieldIssue } from '../api-error';
import { type RequestSchemaName, requestSchemas } from './request-schemas.generated';
import { type BodySchema, validateBody } from './validate-body';

/**
 * The 400 the API would answer for `body`, made in the browser (the same code, message shape and details),
 * or null when the API's schema accepts it: a form places it on its fields exactly as it places the API's own.
 */
export function refusalOf(schema: RequestSchemaName, body: unknown): ApiError | null {
  const issues: FieldIssue[] = validateBody(requestSchemas[schema] as BodySchema, body);
  if (issues.length === 0) return null;
  const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
  return new ApiError(400, 'VALIDATION_ERROR', `Invalid body: ${summary}`, issues);
}
