import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MonthlyReport, ReportQuery } from '../../../lib/api-types';

export const reportQuery = (range: ReportQuery) =>
  queryOptions({
    queryKey: ['reports', 'monthly', range.from, range.to],
    queryFn: ({ signal }) => api.get<MonthlyReport>('/publisher/reports', { ...range }, signal),
    placeholderData: keepPreviousData,
  });

/** YYYY-MM of a date (UTC, as the report counts). */
export const monthOf = (date: Date): string => date.toISOString().slice(0, 7);

/** The last `months` months up to this one. */
export function defaultRange(now = new Date(), months = 6): ReportQuery {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  return { from: monthOf(start), to: monthOf(now) };
}
