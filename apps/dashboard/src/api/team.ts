import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, ResponseOf } from '../lib/api-shapes';

// The team (administrators): staff users with their role, site grants, state, last sign-in and second factor;
// invitations; role and grant changes; suspension and deletion (docs/permissions.md).

export type TeamMember = ResponseOf<'/api/v1/users', 'get'>['data'][number];
export type StaffRole = TeamMember['role'];
export type Invitation = ResponseOf<'/api/v1/users/invitations', 'get'>['data'][number];
export type InviteBody = BodyOf<'/api/v1/users/invitations', 'post'>;
export type InvitationSent = ResponseOf<'/api/v1/users/invitations', 'post'>;
export type StaffAccessBody = BodyOf<'/api/v1/users/{id}', 'put'>;

export const teamKeys = {
  all: ['team'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  invitations: () => [...teamKeys.all, 'invitations'] as const,
};

export const teamQuery = queryOptions({
  queryKey: teamKeys.members(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/users', { signal })),
  select: (page) => page.data,
});

export const invitationsQuery = queryOptions({
  queryKey: teamKeys.invitations(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/users/invitations', { signal })),
  select: (page) => page.data,
});

function useTeamChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: teamKeys.all });
}

/** The form shows the API's field errors itself (EMAIL_TAKEN on the e-mail): no toast. */
export function useInvite() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: (body: InviteBody) => dataOf(api.POST('/api/v1/users/invitations', { body })),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useRevokeInvitation() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: async (id: string) => {
      await dataOf(api.DELETE('/api/v1/users/invitations/{id}', { params: { path: { id } } }));
    },
    onSuccess: changed,
  });
}

/** Role and grants; the last administrator's guard (409) is the form's message. */
export function useChangeAccess(id: string) {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: (body: StaffAccessBody) =>
      dataOf(api.PUT('/api/v1/users/{id}', { params: { path: { id } }, body })),
    onSuccess: changed,
    meta: { silent: true },
  });
}

/** Suspend, reinstate or delete: their refusals (409 LAST_ADMINISTRATOR...) are said where they were asked. */
export function useMemberAction() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'suspend' | 'reinstate' | 'delete' }) => {
      const path = { params: { path: { id } } };
      if (action === 'suspend') await dataOf(api.PUT('/api/v1/users/{id}/suspend', path));
      else if (action === 'reinstate') await dataOf(api.PUT('/api/v1/users/{id}/reinstate', path));
      else await dataOf(api.DELETE('/api/v1/users/{id}', path));
    },
    onSuccess: changed,
    meta: { silent: true },
  });
}
