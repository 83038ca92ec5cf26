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
      result[field as F] = humanizeIssue(issue.message, field);
    }
  }
  const byCode = codeFields[error.code];
  if (byCode && !result[byCode]) result[byCode] = error.message;
  return result;
}

// What a field's pattern asks for, in words (the schema's regular expression is never shown).
const patternMeanings: Record<string, string> = {
  email: 'Enter an e-mail address such as name@example.com',
  feedUrl: 'Enter an address starting with http:// or https://',
  domain: 'Enter a host name such as news.example.com (no http:// and no path)',
  slug: 'Use lower-case letters, digits and single dashes, such as metro-news',
  articleUrlTemplate: 'Enter an http(s) address containing {slug}, such as https://{domain}/news/{slug}',
  language: 'Enter a language code such as en or pt-BR',
  allowedOrigins: 'Enter origins such as https://news.example.com (no path), separated by commas',
  publicBaseUrl: 'Enter an http(s) address such as https://news.example.com, without ? or #',
};

/** Ajv's wording made readable: no regular expressions shown to people. */
export function humanizeIssue(message: string, field?: string): string {
  if (message.startsWith('must match pattern'))
    return (field && patternMeanings[field]) ?? 'Has an invalid format';
  if (message.startsWith('must have required property')) return 'Required';
  const fewer = /must NOT have fewer than (\d+) characters/.exec(message);
  if (fewer) return `Must be at least ${fewer[1]} characters`;
  const fewerItems = /must NOT have fewer than (\d+) items/.exec(message);
  if (fewerItems) return `Choose at least ${fewerItems[1]}`;
  const more = /must NOT have more than (\d+) characters/.exec(message);
  if (more) return `Must be at most ${more[1]} characters`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}
