import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, ResponseOf } from '../lib/api-shapes';

// The signed-in person's own account: the profile (display name = byline), two-factor authentication
// (TOTP and recovery codes), and for administrators the security policy.

export type Profile = ResponseOf<'/api/v1/account/profile', 'get'>;
export type ProfileBody = BodyOf<'/api/v1/account/profile', 'patch'>;
export type TwoFactorStatus = ResponseOf<'/api/v1/account/2fa', 'get'>;
export type TotpSetup = ResponseOf<'/api/v1/account/2fa/setup', 'post'>;
export type TotpCodeBody = BodyOf<'/api/v1/account/2fa/confirm', 'post'>;
export type DisableTwoFactorBody = BodyOf<'/api/v1/account/2fa/disable', 'post'>;
export type SecuritySettings = ResponseOf<'/api/v1/security-settings', 'get'>;

export const accountKeys = {
  all: ['account'] as const,
  profile: () => [...accountKeys.all, 'profile'] as const,
  twoFactor: () => [...accountKeys.all, 'two-factor'] as const,
  securitySettings: () => ['security-settings'] as const,
};

export const profileQuery = queryOptions({
  queryKey: accountKeys.profile(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/account/profile', { signal })),
});

export const twoFactorStatusQuery = queryOptions({
  queryKey: accountKeys.twoFactor(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/account/2fa', { signal })),
});

export const securitySettingsQuery = queryOptions({
  queryKey: accountKeys.securitySettings(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/security-settings', { signal })),
});

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => dataOf(api.PATCH('/api/v1/account/profile', { body })),
    onSuccess: (profile) => queryClient.setQueryData(accountKeys.profile(), profile),
    meta: { silent: true },
  });
}

function useTwoFactorChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor() });
}

/** A new secret and its otpauth URI; shown until confirmed, never again. */
export function useStartTotpSetup() {
  return useMutation({
    mutationFn: () => dataOf(api.POST('/api/v1/account/2fa/setup')),
  });
}

/** Turns two-factor authentication on; answers the recovery codes (shown once). */
export function useConfirmTotp() {
  // The status is not refreshed here: the view shows the recovery codes until they are saved, then does.
  return useMutation({
    mutationFn: (body: TotpCodeBody) => dataOf(api.POST('/api/v1/account/2fa/confirm', { body })),
    meta: { silent: true },
  });
}

export function useDisableTwoFactor() {
  const changed = useTwoFactorChanged();
  return useMutation({
    mutationFn: async (body: DisableTwoFactorBody) => {
      await api.POST('/api/v1/account/2fa/disable', { body });
    },
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useRegenerateRecoveryCodes() {
  return useMutation({
    mutationFn: (body: TotpCodeBody) => dataOf(api.POST('/api/v1/account/2fa/recovery-codes', { body })),
    meta: { silent: true },
  });
}

export function useUpdateSecuritySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { requireAdminTwoFactor: boolean }) =>
      dataOf(api.PUT('/api/v1/security-settings', { body })),
    onSuccess: (settings) => {
      queryClient.setQueryData(accountKeys.securitySettings(), settings);
      return queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor() });
    },
    meta: { silent: true },
  });
}

/** After the recovery codes were saved (or the enrolment abandoned): read the status again. */
export function useRefreshTwoFactor() {
  return useTwoFactorChanged();
}
