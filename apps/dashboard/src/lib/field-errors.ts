import { ApiError } from './api-error';

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
      result[field as F] = humanizeIssue(issue.message);
    }
  }
  const byCode = codeFields[error.code];
  if (byCode && !result[byCode]) result[byCode] = error.message;
  return result;
}

/** Ajv's wording made readable: no regular expressions shown to people. */
export function humanizeIssue(message: string): string {
  if (message.startsWith('must match pattern')) return 'Has an invalid format';
  if (message.startsWith('must have required property')) return 'Required';
  const fewer = /must NOT have fewer than (\d+) characters/.exec(message);
  if (fewer) return `Must be at least ${fewer[1]} characters`;
  const more = /must NOT have more than (\d+) characters/.exec(message);
  if (more) return `Must be at most ${more[1]} characters`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}
