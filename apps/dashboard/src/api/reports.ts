import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { QueryOf, ResponseOf } from '../lib/api-shapes';

// Articles per publisher per month (administrators).

export type MonthlyReport = ResponseOf<'/api/v1/publisher/reports', 'get'>;
/** The months to count, `YYYY-MM` to `YYYY-MM`. */
export type ReportQuery = QueryOf<'/api/v1/publisher/reports', 'get'>;

export const reportKeys = {
  all: ['reports'] as const,
  monthly: (range: ReportQuery) => [...reportKeys.all, 'monthly', range.from, range.to] as const,
};

export const reportQuery = (range: ReportQuery) =>
  queryOptions({
    queryKey: reportKeys.monthly(range),
    queryFn: ({ signal }) =>
      dataOf(api.GET('/api/v1/publisher/reports', { params: { query: { ...range } }, signal })),
    placeholderData: keepPreviousData,
  });
