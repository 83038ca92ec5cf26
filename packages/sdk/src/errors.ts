import type { components } from './generated/openapi.js';

export type ApiError = components['schemas']['Error'];

/** A failed call: the API's error body (`code` is stable, see the API's docs/errors.md) and the status. */
export class NewsroomApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body ? `${status} ${body.code}: ${body.message}` : `HTTP ${status}`);
    this.name = 'NewsroomApiError';
  }
}

/** The body of a successful openapi-fetch call, or NewsroomApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    throw new NewsroomApiError(response.status, errorBody(error));
  }
  return data;
}

/** The API's JSON error body, when the error is one (a text route's error arrives as text). */
export function errorBody(error: unknown): ApiError | undefined {
  if (typeof error === 'string') {
    try {
      return JSON.parse(error) as ApiError;
    } catch {
      return undefined;
    }
  }
  return (error ?? undefined) as ApiError | undefined;
}
