import type { MonthlyReport } from '../../../api/reports';

const cell = (value: string | number): string => {
  const text = String(value);
  // Quote when needed; a leading =, +, - or @ is prefixed so spreadsheets do not run it as a formula.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The report as CSV: one row per publisher, one column per month, then the total. */
export function reportToCsv(report: MonthlyReport): string {
  const rows = [
    ['Publisher', ...report.months, 'Total'],
    ...report.publishers.map((p) => [p.name, ...p.counts, p.total]),
  ];
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** Saves the CSV through a blob URL (same origin; nothing is sent anywhere). */
export function downloadCsv(report: MonthlyReport): void {
  const blob = new Blob([reportToCsv(report)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `articles-per-publisher-${report.from}-to-${report.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
