import type { Middleware } from 'openapi-fetch';
import { ApiError } from './api-error';
import { csrfToken } from './csrf-token';

// What every request of the dashboard goes through, as openapi-fetch middleware (api-client.ts registers
// them): the CSRF header, a bounded wait, and the house error shape turned into ApiError.

/** `x-csrf-token` on every state-changing request of a signed-in page. */
export const csrfHeader: Middleware = {
  onRequest({ request }) {
    const token = csrfToken();
    if (request.method !== 'GET' && token) request.headers.set('x-csrf-token', token);
  },
};

/**
 * No request waits more than `ms` for its answer: it is aborted and fails as ApiError TIMEOUT. The caller's
 * own abort (a cancelled query) still fails as the abort it is.
 */
export function timeoutAfter(ms: number): Middleware {
  const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; deadline: AbortController }>();
  const settle = (id: string) => {
    clearTimeout(pending.get(id)?.timer);
    const deadline = pending.get(id)?.deadline;
    pending.delete(id);
    return deadline;
  };
  return {
    onRequest({ request, id }) {
      const deadline = new AbortController();
      pending.set(id, { timer: setTimeout(() => deadline.abort(), ms), deadline });
      return new Request(request, { signal: AbortSignal.any([request.signal, deadline.signal]) });
    },
    onResponse({ id }) {
      settle(id);
    },
    onError({ id }) {
      if (settle(id)?.signal.aborted) {
        return new ApiError(0, 'TIMEOUT', 'The server did not answer in time. Try again.');
      }
    },
  };
}

/** A failed answer throws ApiError with the API's `code`, `message` and `details`; no answer at all, NETWORK. */
export const errorsAsApiError: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw ApiError.fromResponse(response.status, parseJson(await response.clone().text()));
  },
  onError({ request, error }) {
    // A timeout is already an ApiError; an abort by the caller stays what it is.
    if (error instanceof ApiError || request.signal.aborted) return;
    return new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  },
};

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
