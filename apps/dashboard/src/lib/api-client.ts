import createClient from 'openapi-fetch';
import type { paths } from '../generated/admin-api';
import { isSessionExpired } from './api-error';
import { csrfHeader, errorsAsApiError, timeoutAfter } from './api-middleware';
import { csrfToken } from './csrf-token';
import { canReauthenticate, waitForSignIn } from './reauth';

// The one way the dashboard talks to the API: openapi-fetch typed by the API's own OpenAPI document
// (src/generated/admin-api.ts), so every call's path, parameters, body and answer are checked. Same origin,
// the session cookie; CSRF, the bounded wait and ApiError are middleware (api-middleware.ts). A signed-in
// page's request that meets an ended session waits for the sign-in dialog and is sent again (reauth.ts).

/** No request waits longer than this (a feed test fetches a remote feed: 20 s deadline on the server). */
export const requestTimeoutMs = 30_000;

/** Query values the API leaves out are not sent (`?q=` would search for nothing). */
function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

const client = createClient<paths>({
  // openapi-fetch builds a Request, which needs an absolute URL; the API is this page's origin.
  baseUrl: window.location.origin,
  headers: { accept: 'application/json' },
  credentials: 'same-origin',
  querySerializer: queryString,
  // The fetch of the moment, not the one at load: tests hand the real API in as fetch per test.
  fetch: (request) => globalThis.fetch(request),
});
// onRequest runs in this order, onResponse and onError in the reverse one: the timeout's timer is cleared
// before an error answer is thrown, and a timeout is an ApiError before the network errors are mapped.
client.use(errorsAsApiError, timeoutAfter(requestTimeoutMs), csrfHeader);

/** Sign-in, sign-out and the session read answer 401 as a result, not as "the session ended meanwhile". */
const sessionPath = '/api/v1/auth/session';

/**
 * Sends `send()` again after a sign-in when it met an ended session. Nothing was done by the server (401
 * comes before any handler), so the same request is safe to send again: it goes through every middleware
 * again, with the new session's CSRF token and a new bounded wait.
 */
async function resentAfterSignIn<T>(
  path: string,
  signal: AbortSignal | null | undefined,
  send: () => Promise<T>,
) {
  for (;;) {
    const signedIn = csrfToken() !== null;
    try {
      return await send();
    } catch (error) {
      // Still signed in when the answer came (not signed out meanwhile), and someone can sign in again.
      const stillSignedIn = signedIn && csrfToken() !== null;
      if (!(stillSignedIn && isSessionExpired(error) && canReauthenticate() && path !== sessionPath))
        throw error;
      await waitForSignIn(error, signal ?? undefined);
    }
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function resending<M extends Method>(method: M): (typeof client)[M] {
  const call = client[method] as (path: string, init?: { signal?: AbortSignal | null }) => Promise<unknown>;
  // The cast keeps openapi-fetch's own generic signature: the wrapper only repeats the call.
  return ((path: string, init?: { signal?: AbortSignal | null }) =>
    resentAfterSignIn(path, init?.signal, () => call(path, init))) as (typeof client)[M];
}

/**
 * The API client: `api.GET('/api/v1/site/{id}', { params: { path: { id } } })`. A failed answer throws
 * ApiError (never returns `error`), so `dataOf` reads the answer's body.
 */
export const api = {
  GET: resending('GET'),
  POST: resending('POST'),
  PUT: resending('PUT'),
  PATCH: resending('PATCH'),
  DELETE: resending('DELETE'),
};

/** The body of an answer: every failed one was thrown as ApiError by the middleware. */
export async function dataOf<Data>(answer: Promise<{ data?: Data; response: Response }>): Promise<Data> {
  return (await answer).data as Data;
}
