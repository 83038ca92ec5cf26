import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { ReportQuery } from '../../../api/reports';
import { reportQuery } from '../../../api/reports';
import { Button } from '../../../components/button';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { ReportChart } from '../components/report-chart';
import { downloadCsv } from '../components/report-csv';
import { ReportTable } from '../components/report-table';
import { defaultRange } from './report-range';

/** /publishers/reports: articles per publisher per month, as a chart, a table and a CSV file. */
export function ReportsPage() {
  const id = useId();
  const [range, setRange] = useState<ReportQuery>(() => defaultRange());
  const [draft, setDraft] = useState<ReportQuery>(range);
  const report = useQuery(reportQuery(range));

  function submit(event: FormEvent) {
    event.preventDefault();
    setRange(draft);
  }

  return (
    <>
      <PageHeader
        title="Reports"
        actions={
          <Button disabled={!report.data} onClick={() => report.data && downloadCsv(report.data)}>
            Download CSV
          </Button>
        }
      >
        <p className="muted">Articles per publisher per month.</p>
      </PageHeader>
      <div className="stack">
        <form className="row" onSubmit={submit} aria-label="Report months" style={{ alignItems: 'flex-end' }}>
          <div className="field">
            <label htmlFor={`${id}-from`}>From month</label>
            <input
              id={`${id}-from`}
              type="month"
              required
              value={draft.from}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`}>To month</label>
            <input
              id={`${id}-to`}
              type="month"
              required
              value={draft.to}
              onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
            />
          </div>
          <Button type="submit" variant="primary">
            Show report
          </Button>
        </form>
        {report.isPending ? (
          <LoadingState label="Loading report…" />
        ) : report.isError ? (
          <ErrorState error={report.error} onRetry={() => report.refetch()} />
        ) : report.data.publishers.length === 0 ? (
          <EmptyState>No publisher has articles in these months.</EmptyState>
        ) : (
          <>
            <section className="card" aria-label="Chart">
              <ReportChart report={report.data} />
            </section>
            <ReportTable report={report.data} />
          </>
        )}
      </div>
    </>
  );
}
