import { ApiError } from './api-error';
import { humanizeIssue } from './validation-words';

export { humanizeIssue } from './validation-words';

/**
 * The API's validation `details` (and the field-specific error codes) as one message per form field.
 * `details[].path` is `body/<field>[/...]`; a missing field comes as path `body` with
 * "must have required property 'x'".
 */
export function fieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  codeFields: Partial<Record<string, F>> = {},
): Partial<Record<F, string>> {
  if (!(error instanceof ApiError)) return {};
  const known = new Set<string>(fields);
  const result: Partial<Record<F, string>> = {};
  for (const issue of error.details) {
    const segments = issue.path.split('/');
    const required = /required property '([^']+)'/.exec(issue.message)?.[1];
    const field = required ?? segments[1];
    if (field && known.has(field) && !result[field as F]) {
      result[field as F] = humanizeIssue(issue.message, field);
    }
  }
  const byCode = codeFields[error.code];
  if (byCode && !result[byCode]) result[byCode] = error.message;
  return result;
}
