import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf } from '../lib/api-shapes';

// The public recovery flows: "forgot password", setting a password through a reset link, and accepting an
// invitation (docs/permissions.md). None needs a session.

export type ForgotPasswordBody = BodyOf<'/api/v1/auth/password-reset', 'post'>;
export type PasswordByLinkBody = BodyOf<'/api/v1/auth/password-reset/{token}', 'post'>;

export const recoveryKeys = {
  invitation: (token: string) => ['invitation', token] as const,
};

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => dataOf(api.POST('/api/v1/auth/password-reset', { body })),
    meta: { silent: true },
  });
}

export function useSetPasswordByLink(token: string) {
  return useMutation({
    mutationFn: (body: PasswordByLinkBody) =>
      dataOf(api.POST('/api/v1/auth/password-reset/{token}', { params: { path: { token } }, body })),
    meta: { silent: true },
  });
}

/** What an invitation link is for (its e-mail and role), or an error once used or expired. */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: recoveryKeys.invitation(token),
    queryFn: () => dataOf(api.GET('/api/v1/auth/invitation/{token}', { params: { path: { token } } })),
    retry: false,
  });

export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (body: PasswordByLinkBody) =>
      dataOf(api.POST('/api/v1/auth/invitation/{token}', { params: { path: { token } }, body })),
    meta: { silent: true },
  });
}
