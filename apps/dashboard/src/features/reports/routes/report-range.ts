import type { ReportQuery } from '../../../api/reports';

/** YYYY-MM of a date (UTC, as the report counts). */
export const monthOf = (date: Date): string => date.toISOString().slice(0, 7);

/** The last `months` months up to this one: the range the reports view opens with. */
export function defaultRange(now = new Date(), months = 6): ReportQuery {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  return { from: monthOf(start), to: monthOf(now) };
}
