import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { ResponseOf } from '../lib/api-shapes';
import { type PolicySubject, type PolicyViewer, policyAllows } from '../lib/policy';
import { sessionQuery } from './session';

// What the signed-in user may do (GET /auth/permissions: its role, grants and rows of the policy table),
// read once per session; every control mapped to an operation asks `useCan` before it shows.

export type Permissions = ResponseOf<'/api/v1/auth/permissions', 'get'>;

export const permissionKeys = {
  mine: ['permissions'] as const,
};

export const permissionsQuery = queryOptions({
  queryKey: permissionKeys.mine,
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/auth/permissions', { signal })),
  // Read again on a new session (sign-in clears the cache) or a reload: grants change rarely.
  staleTime: 5 * 60_000,
});

/** The policy's viewer of the signed-in user, or undefined while its permissions load (nothing is shown). */
export function usePolicyViewer(): PolicyViewer | undefined {
  const session = useQuery(sessionQuery).data;
  const permissions = useQuery({ ...permissionsQuery, enabled: Boolean(session) }).data;
  if (!session || !permissions) return undefined;
  return { userId: session.user.id, ...permissions };
}

/**
 * Whether the API would accept the operation on this subject from the signed-in user: a control that asks
 * is hidden when not (and while the permissions load). `hostSites`: slugs a request body names.
 */
export function useCan(operationId: string, subject?: PolicySubject, hostSites?: readonly string[]): boolean {
  const viewer = usePolicyViewer();
  return viewer !== undefined && policyAllows(viewer, operationId, subject, hostSites);
}

/** The same answer for many operations at once (lists of controls, navigation entries). */
export function useCanEach(): ((operationId: string, subject?: PolicySubject) => boolean) | undefined {
  const viewer = usePolicyViewer();
  if (!viewer) return undefined;
  return (operationId, subject) => policyAllows(viewer, operationId, subject);
}
