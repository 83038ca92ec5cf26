import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { Schema } from '../lib/api-shapes';

// The staff a byline may credit (id and display name): what the editor's byline picker offers.

export type BylinePerson = Schema<'BylinePerson'>;

export const bylinePeopleKeys = { all: ['byline-people'] as const };

/** Names change rarely and editors open articles often: a minute of freshness is plenty. */
export const bylinePeopleQuery = queryOptions({
  queryKey: bylinePeopleKeys.all,
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/team/bylines', { signal })),
  staleTime: 60_000,
});
