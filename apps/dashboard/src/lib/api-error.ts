import type { Schema } from './api-shapes';
import { describeIssues } from './validation-words';

/** The house error body (`{ code, message, details }`), as the API's `Error` schema says. */
export type ErrorBody = Schema<'Error'>;
/** One field's problem in a validation error's `details`. */
export type FieldIssue = NonNullable<ErrorBody['details']>[number];

/** A failed API call, with the house error shape (`code`, `message`, `details` per field). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: FieldIssue[];

  constructor(status: number, code: string, message: string, details: FieldIssue[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Builds the error from a response body; a body that is not the house shape gets a generic message. */
  static fromResponse(status: number, body: unknown): ApiError {
    if (isErrorBody(body)) return new ApiError(status, body.code, body.message, body.details ?? []);
    return new ApiError(
      status,
      status >= 500 ? 'INTERNAL_ERROR' : 'HTTP_ERROR',
      status >= 500
        ? 'The server had a problem. Try again in a moment.'
        : `The request failed (HTTP ${status}).`,
    );
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as ErrorBody).code === 'string' &&
    typeof (body as ErrorBody).message === 'string'
  );
}

/** True when the error means the dashboard session is missing or expired. */
export const isSessionExpired = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status === 401 &&
  // SECOND_FACTOR_REQUIRED: the session's user turned on two-factor authentication elsewhere (sign in again).
  (error.code === 'UNAUTHORIZED' || error.code === 'SECOND_FACTOR_REQUIRED');

/**
 * The message to show a person for any error a request can throw. A validation error's own message is
 * the validator's ("Invalid body: body/title must NOT have fewer than 1 characters"): it is said by
 * field in words instead.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && error.details.length > 0)
    return describeIssues(error.details);
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}
