import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { Schema } from '../lib/api-shapes';

// The audit log (administrators): newest first, keyset-paged ("Load more").

export type AuditEvent = Schema<'AuditEvent'>;

export interface AuditFilters {
  actor?: string | undefined;
  action?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
  site?: string | undefined;
  /** ISO timestamps: events at or after `from`, before `to`. */
  from?: string | undefined;
  to?: string | undefined;
}

export const auditPageSize = 50;

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, 'list', filters] as const,
};

export const auditEventsQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      dataOf(
        api.GET('/api/v1/audit', {
          params: { query: { ...filters, limit: auditPageSize, before: pageParam } },
          signal,
        }),
      ),
    getNextPageParam: (page) => page.next ?? undefined,
  });
