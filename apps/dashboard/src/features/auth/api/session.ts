import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, setCsrfToken } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import type { LoginBody, Role, Session } from '../../../lib/api-types';
import { reauthAbandoned } from '../../../lib/reauth';

export const sessionKey = ['session'] as const;

/** The signed-in session, or null when there is none (401). */
export const sessionQuery = queryOptions({
  queryKey: sessionKey,
  queryFn: async (): Promise<Session | null> => {
    try {
      const session = await api.get<Session>('/auth/session');
      setCsrfToken(session.csrfToken);
      return session;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setCsrfToken(null);
        return null;
      }
      throw error;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

/** Signs in with the cookie session: the one request both the login page and the sign-in dialog send. */
const postSession = (body: LoginBody) => api.post<Session>('/auth/session', body);

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postSession,
    meta: { silent: true },
    onSuccess: (session) => {
      setCsrfToken(session.csrfToken);
      // A new user must not see the previous user's cached data (the session query itself stays: the
      // login page watches it to move on).
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
      queryClient.setQueryData(sessionKey, session);
    },
  });
}

/**
 * Signing in again in the dialog over a view (the session ended meanwhile): the same person keeps the
 * query cache and everything on screen.
 */
export function useReauthenticate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postSession,
    meta: { silent: true },
    onSuccess: (session) => {
      setCsrfToken(session.csrfToken);
      // Someone else: the caller reloads the app for them (the previous person's cache must not show).
      const before = queryClient.getQueryData<Session | null>(sessionKey);
      if (before?.user.id === session.user.id) queryClient.setQueryData(sessionKey, session);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/auth/session'),
    onSettled: () => {
      setCsrfToken(null);
      // A request that met the ending session just before: it fails rather than asking to sign in again.
      reauthAbandoned();
      queryClient.clear();
      queryClient.setQueryData(sessionKey, null);
    },
  });
}

/** Where each role starts. */
export const homeOf = (role: Role): '/publishers' | '/publisher/dashboard' =>
  role === 'admin' ? '/publishers' : '/publisher/dashboard';

/** Pages of the API itself (Bull Board, the API reference): reached by a full page load, not the app's router. */
const serverPages = ['/admin/queues', '/docs', '/api/'];
export const isServerPage = (path: string): boolean =>
  serverPages.some(
    (page) =>
      path === page || path.startsWith(page.endsWith('/') ? page : `${page}/`) || path.startsWith(`${page}?`),
  );

/** Only same-site paths are followed after sign-in (never another origin, never //host). */
export function safeNext(next: string | undefined): string | undefined {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  if (next.startsWith('/login')) return undefined;
  return next;
}
