import type { DbOrTx } from '../db/create-db';
import { DomainValidationError } from '../errors';
import { findPublisherNames } from './publisher.repository';
import { countArticlesByPublisherAndMonth } from './publisher-articles.repository';

export const maxReportMonths = 36;

/** Articles per publisher per month: `counts[i]` belongs to `months[i]`. */
export interface MonthlyReport {
  from: string;
  to: string;
  months: string[];
  publishers: { id: string; name: string; counts: number[]; total: number }[];
}

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A YYYY-MM month as a running month number (year * 12 + month index). */
function monthNumber(month: string): number {
  const match = monthPattern.exec(month);
  if (!match) throw new DomainValidationError('INVALID_MONTH', `${month} is not a month (YYYY-MM)`);
  return Number(match[1]) * 12 + Number(match[2]) - 1;
}

const monthName = (n: number) =>
  `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`;
const monthStart = (n: number) => new Date(Date.UTC(Math.floor(n / 12), n % 12, 1));

/** The months from `from` to `to`, both included; refuses a reversed or too long range. */
export function monthsBetween(from: string, to: string): string[] {
  const first = monthNumber(from);
  const last = monthNumber(to);
  if (first > last) throw new DomainValidationError('INVALID_RANGE', `from (${from}) is after to (${to})`);
  if (last - first + 1 > maxReportMonths) {
    throw new DomainValidationError('RANGE_TOO_LONG', `A report covers at most ${maxReportMonths} months`);
  }
  return Array.from({ length: last - first + 1 }, (_, i) => monthName(first + i));
}

/**
 * How many articles each publisher contributed per month, by the time each article was created
 * (imported), in UTC. Every existing publisher gets a row, zeros included.
 */
export async function buildMonthlyReport(
  db: DbOrTx,
  range: { from: string; to: string },
): Promise<MonthlyReport> {
  const months = monthsBetween(range.from, range.to);
  const [publishers, counts] = await Promise.all([
    findPublisherNames(db),
    countArticlesByPublisherAndMonth(
      db,
      monthStart(monthNumber(range.from)),
      monthStart(monthNumber(range.to) + 1),
    ),
  ]);
  const column = new Map(months.map((month, i) => [month, i]));
  const rows = new Map(publishers.map((p) => [p.id, { ...p, counts: months.map(() => 0), total: 0 }]));
  for (const { publisherId, month, count } of counts) {
    const row = rows.get(publisherId);
    const i = column.get(month);
    if (!row || i === undefined) continue;
    row.counts[i] = count;
    row.total += count;
  }
  return { from: range.from, to: range.to, months, publishers: [...rows.values()] };
}
