import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { paths } from '../generated/admin-api';
import { api, dataOf } from '../lib/api-client';
import { ApiError } from '../lib/api-error';
import type { BodyOf, ResponseOf } from '../lib/api-shapes';
import { setCsrfToken } from '../lib/csrf-token';
import { reauthAbandoned } from '../lib/reauth';

// The dashboard session (the cookie and its CSRF token): who is signed in, signing in and out, and the
// signed-in person's own password.

export type Session = ResponseOf<'/api/v1/auth/session', 'get'>;
export type User = Session['user'];
export type Role = User['role'];
export type LoginBody = BodyOf<'/api/v1/auth/session', 'post'>;
export type ChangePasswordBody = BodyOf<'/api/v1/auth/password', 'put'>;
/** A right password of a user with two-factor authentication: the code is still owed (POST /auth/session/2fa). */
export type SecondFactorChallenge =
  paths['/api/v1/auth/session']['post']['responses'][202]['content']['application/json'];
export type SecondFactorBody = BodyOf<'/api/v1/auth/session/2fa', 'post'>;
export type SignInAnswer = Session | SecondFactorChallenge;

export const isChallenge = (answer: SignInAnswer): answer is SecondFactorChallenge =>
  'challengeToken' in answer;

/** The session is cached under one key: the app and the login page watch it. */
export const sessionKeys = {
  session: ['session'] as const,
};

/** The signed-in session, or null when there is none (401). */
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.session,
  queryFn: async (): Promise<Session | null> => {
    try {
      const session = await dataOf(api.GET('/api/v1/auth/session'));
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

/**
 * Signs in with the cookie session: the one request both the login page and the sign-in dialog send. The
 * new session's CSRF token is kept for the requests that follow.
 */
async function postSession(body: LoginBody): Promise<SignInAnswer> {
  const answer = await dataOf(api.POST('/api/v1/auth/session', { body }));
  if (!isChallenge(answer)) setCsrfToken(answer.csrfToken);
  return answer;
}

/** The second step of a sign-in: the code completes the challenge into a session. */
async function postSecondFactor(body: SecondFactorBody): Promise<Session> {
  const session = await dataOf(api.POST('/api/v1/auth/session/2fa', { body }));
  setCsrfToken(session.csrfToken);
  return session;
}

function useSignedIn() {
  const queryClient = useQueryClient();
  return (answer: SignInAnswer) => {
    if (isChallenge(answer)) return;
    // A new user must not see the previous user's cached data (the session query itself stays: the
    // login page watches it to move on).
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.session[0] });
    queryClient.setQueryData(sessionKeys.session, answer);
  };
}

/** Signing in: a session, or a second-factor challenge that useCompleteSignIn turns into one. */
export function useSignIn() {
  return useMutation({ mutationFn: postSession, meta: { silent: true }, onSuccess: useSignedIn() });
}

export function useCompleteSignIn() {
  return useMutation({ mutationFn: postSecondFactor, meta: { silent: true }, onSuccess: useSignedIn() });
}

/**
 * Signing in again in the dialog over a view (the session ended meanwhile): the same person keeps the
 * query cache and everything on screen.
 */
export function useReauthenticate() {
  return useMutation({ mutationFn: postSession, meta: { silent: true }, onSuccess: useSignedInAgain() });
}

export function useCompleteReauthentication() {
  return useMutation({ mutationFn: postSecondFactor, meta: { silent: true }, onSuccess: useSignedInAgain() });
}

function useSignedInAgain() {
  const queryClient = useQueryClient();
  return (answer: SignInAnswer) => {
    if (isChallenge(answer)) return;
    // Someone else: the caller reloads the app for them (the previous person's cache must not show).
    const before = queryClient.getQueryData<Session | null>(sessionKeys.session);
    if (before?.user.id === answer.user.id) queryClient.setQueryData(sessionKeys.session, answer);
  };
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await api.DELETE('/api/v1/auth/session');
    },
    onSettled: () => {
      setCsrfToken(null);
      // A request that met the ending session just before: it fails rather than asking to sign in again.
      reauthAbandoned();
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.session, null);
    },
  });
}

/** The signed-in person's own password (the current one is required); this session stays signed in. */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: async (body: ChangePasswordBody) => {
      await api.PUT('/api/v1/auth/password', { body });
    },
  });
}
