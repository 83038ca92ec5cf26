import { sanitizeBody } from '@newsroom/html';

/**
 * Article bodies written through the API get the allowlist of imported feed items (packages/html
 * sanitizeBody): child sites render this HTML, so neither an administrator's stolen token nor a forged
 * request may store a script. Applied on write, here, by every route that takes a body (create, edit).
 * There is no base URL: relative links and images are dropped (editors insert absolute URLs).
 */
export function withSanitisedBody<T extends { body?: string | undefined }>(fields: T): T {
  if (fields.body === undefined) return fields;
  return { ...fields, body: sanitizeBody(fields.body, null) };
}
